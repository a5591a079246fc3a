import Observation
import XCTest
import Lunette
import LunetteBridge

/// Issue 18, item 4: a method of any shape — 0 to 5 arguments, a result or none,
/// throwing or not — declares the same way and is called from Lua.
final class LuaMethodShapeTests: XCTestCase {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    @Observable final class Shapes: LuaExposed {
        var log: [String] = []

        static let luaName = "Shapes"
        static var luaProperties: [LuaProperty<Shapes>] { [LuaProperty("log", \.log)] }
        static var luaMethods: [LuaMethod<Shapes>] {
            [LuaMethod("clear", Shapes.clear),
             LuaMethod("count", Shapes.count),
             LuaMethod("add", Shapes.add),
             LuaMethod("shout", Shapes.shout),
             LuaMethod("addPair", Shapes.addPair),
             LuaMethod("join", Shapes.join),
             LuaMethod("addThree", Shapes.addThree),
             LuaMethod("sum", Shapes.sum),
             LuaMethod("addFour", Shapes.addFour),
             LuaMethod("describe", Shapes.describe),
             LuaMethod("sumFive", Shapes.sumFive),
             LuaMethod("refuse", Shapes.refuse),
             LuaMethod("half", Shapes.half),
             LuaMethod("addChecked", Shapes.addChecked)]
        }

        func clear() { log = [] }
        func count() -> Int { log.count }
        func add(_ entry: String) { log.append(entry) }
        func shout(_ text: String) -> String { text.uppercased() }
        func addPair(_ name: String, _ times: Int) { log.append("\(name)x\(times)") }
        func join(_ a: String, _ b: String) -> String { a + "+" + b }
        func addThree(_ a: String, _ b: String, _ c: String) { log += [a, b, c] }
        func sum(_ a: Int, _ b: Int, _ c: Int) -> Int { a + b + c }
        func addFour(_ a: String, _ b: Int, _ c: Double, _ d: Bool) { log.append("\(a) \(b) \(c) \(d)") }
        func describe(_ a: String, _ b: Int, _ c: Double, _ d: Bool) -> String { "\(a) \(b) \(c) \(d)" }
        func sumFive(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) -> Int { a + b + c + d + e }
        func refuse() throws { throw Refused(description: "not today") }
        func half(_ n: Int) throws -> Int {
            guard n % 2 == 0 else { throw Refused(description: "\(n) is odd") }
            return n / 2
        }
        func addChecked(_ entry: String, _ limit: Int) throws {
            guard log.count < limit else { throw Refused(description: "the log is full (\(limit))") }
            log.append(entry)
        }
    }

    private var runtime: LunetteRuntime!
    private var shapes: Shapes!

    override func setUpWithError() throws {
        runtime = try LunetteRuntime()
        try runtime.register(Shapes.self)
        shapes = Shapes()
        try runtime.setGlobal("shapes", to: shapes)
    }

    func testMethodsWithoutAResultRunFromLua() throws {
        _ = try runtime.evaluate("""
            shapes:add("a"); shapes:addPair("b", 2); shapes:addThree("c", "d", "e")
            shapes:addFour("f", 4, 0.5, true); shapes:addChecked("g", 10)
            """)
        XCTAssertEqual(shapes.log, ["a", "bx2", "c", "d", "e", "f 4 0.5 true", "g"])
        _ = try runtime.evaluate("shapes:clear()")
        XCTAssertEqual(shapes.log, [])
    }

    func testMethodsWithAResultReturnItToLua() throws {
        shapes.log = ["x", "y"]
        XCTAssertEqual(try runtime.evaluate("""
            return shapes:count(), shapes:shout("hi"), shapes:join("a", "b"), shapes:sum(1, 2, 3),
                   shapes:describe("d", 1, 2.5, false), shapes:sumFive(1, 2, 3, 4, 5), shapes:half(8)
            """), ["2", "HI", "a+b", "6", "d 1 2.5 false", "15", "4"])
    }

    func testAThrownErrorIsALuaErrorNamingTheMethod() throws {
        XCTAssertThrowsError(try runtime.evaluate("shapes:refuse()")) { error in
            XCTAssertTrue("\(error)".contains("Shapes:refuse: not today"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("return shapes:half(3)")) { error in
            XCTAssertTrue("\(error)".contains("Shapes:half: 3 is odd"), "\(error)")
        }
        // Lua can catch it as any error, and the runtime goes on.
        XCTAssertEqual(try runtime.evaluate("""
            local ok, message = pcall(shapes.addChecked, shapes, "z", 0)
            return ok, message:match("Shapes:addChecked: the log is full %(0%)") ~= nil
            """), ["false", "true"])
        XCTAssertEqual(try runtime.evaluate("return shapes:half(10)"), ["5"])
    }

    func testWrongArgumentsNameTheMethodAndThePosition() throws {
        XCTAssertThrowsError(try runtime.evaluate("shapes:addPair('a')")) { error in
            XCTAssertTrue("\(error)".contains("Shapes:addPair: expected 2 arguments, got 1"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("shapes:sum(1, 'two', 3)")) { error in
            XCTAssertTrue("\(error)".contains("Shapes:sum: expected integer as argument 2, got string"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("shapes:addFour('a', 1, 2.0, 'yes')")) { error in
            XCTAssertTrue("\(error)".contains("as argument 4"), "\(error)")
        }
    }
}
