import BookModels
import Foundation
import Lunette
import LunetteBridge
import Observation
import XCTest

/// Issue 18, item 5: `find`, `unmount` and `setGlobal` for plain values, from Swift.
final class HostAPITests: XCTestCase {
    private let inbox = """
        local ui = require("lunette")
        local State = ui.Observable("State", { archived = 0, gone = false })
        state = State()
        local Row = ui.View("Row", function(self)
          return ui.HStack { ui.Text(self.subject), ui.Button("Archive", function() state.archived = state.archived + 1 end) }
            :id(self.key)
        end)
        local List = ui.View("List", function()
          return ui.VStack {
            ui.Text("archived " .. state.archived),
            Row { subject = "Hello", key = "m1" },
            Row { subject = "Lunch?", key = "m2" },
          }:onDisappear(function() state.gone = true end)
        end)
        return List {}
        """

    @Observable final class Wide: LuaExposed {
        static let luaName = "Wide"
        static var luaProperties: [LuaProperty<Wide>] { [] }
        static var luaMethods: [LuaMethod<Wide>] { [LuaMethod("nine", Wide.nine)] }
        func nine(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int, _ h: Int, _ i: Int) -> Int { a + i }
    }

    /// A host author's report: a method of nine arguments registered and
    /// could never be called; a memory cap below what the runtime holds
    /// after set-up made every call fail with a bare "not enough memory";
    /// `advanceClock(by: -5)` and `(by: .nan)` said true and did nothing.
    func testWhatAHostGivesWrongIsRefusedWhereItIsGiven() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        XCTAssertThrowsError(try runtime.register(Wide.self)) { error in
            XCTAssertTrue("\(error)".contains("the method \"nine\" takes 9 arguments; a method Lua calls takes at most 8"), "\(error)")
        }
        XCTAssertThrowsError(try LunetteRuntime(options: .init(memoryLimit: 100_000))) { error in
            XCTAssertTrue("\(error)".contains("Options.memoryLimit is 100000 bytes, below the"), "\(error)")
        }
        XCTAssertFalse(runtime.advanceClock(by: -5))
        XCTAssertFalse(runtime.advanceClock(by: .nan))
        XCTAssertFalse(runtime.advanceClock(by: .infinity))
        XCTAssertTrue(runtime.advanceClock(by: 1))
    }

    func testFindUsesTheQueriesScriptsUse() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: inbox))
        XCTAssertEqual(app.find("Lunch?")?.typeName, "Text")
        XCTAssertEqual(app.find(type: "Button")?.text, "Archive")
        XCTAssertEqual(app.findAll(type: "Button").count, 2)
        XCTAssertEqual(app.findAll(text: "Archive", type: "Button").count, 2)
        XCTAssertEqual(app.find(id: .string("m2"))?.typeName, "HStack")
        XCTAssertEqual(app.find(id: .string("m2"))?.children.first?.text, "Lunch?")
        XCTAssertEqual(app.find(type: "Row")?.viewLabel, "Row#1")
        XCTAssertNil(app.find("Nobody"))
        XCTAssertNil(app.find())                                   // no query: nothing
        let row = try XCTUnwrap(app.find(id: .string("m2")))
        XCTAssertEqual(row.find(type: "Text")?.text, "Lunch?")     // below one node only
        XCTAssertEqual(row.findAll(text: "Archive").count, 1)
        try runtime.tap(try XCTUnwrap(app.findAll(type: "Button").last))
        XCTAssertNotNil(app.find("archived 1"))
    }

    /// A node or an app of another runtime is refused, not matched by its
    /// ids in this one (a hostile read: a tap ran this runtime's own button,
    /// and setGlobal bound this runtime's app of the same id).
    func testAnotherRuntimesNodeOrAppIsRefused() throws {
        let first = try LunetteRuntime(), second = try LunetteRuntime()
        let script = """
            local ui = require("lunette")
            state = { taps = 0 }
            return ui.Button("tap", function() state.taps = state.taps + 1 end)
            """
        let mine = try XCTUnwrap(try first.run(source: script))
        _ = try XCTUnwrap(try second.run(source: script))
        XCTAssertThrowsError(try second.tap(try XCTUnwrap(mine.find("tap")))) { error in
            XCTAssertTrue("\(error)".contains("no longer rendered"), "\(error)")
        }
        XCTAssertEqual(try second.evaluate("return state.taps"), ["0"])
        XCTAssertThrowsError(try second.setGlobal("foreign", to: mine)) { error in
            XCTAssertTrue("\(error)".contains("not mounted in this runtime"), "\(error)")
        }
        try first.tap(try XCTUnwrap(mine.find("tap")))
        XCTAssertEqual(try first.evaluate("return state.taps"), ["1"])
        // a List scrolled, a view inspected: by this runtime's own records (another's List moved, another's state shown)
        let lists = """
            local ui = require("lunette")
            local rows = {} for i = 1, 300 do rows[i] = "r" .. i end
            return ui.View("Rows", function() return ui.List(rows, ui.Text) end)()
            """
        let theirs = try XCTUnwrap(try first.run(source: lists))
        _ = try XCTUnwrap(try second.run(source: lists))
        let list = try XCTUnwrap(theirs.findAll(type: "List").first)
        XCTAssertThrowsError(try second.scroll(list, to: 150))
        XCTAssertNil(second.inspect(try XCTUnwrap(theirs.nodes.first)))
        XCTAssertNotNil(first.inspect(try XCTUnwrap(theirs.nodes.first)))
    }

    func testUnmountTakesOneAppDown() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: inbox))
        let other = try XCTUnwrap(try runtime.run(source: "local ui = require('lunette'); return ui.Text('other')"))
        let button = try XCTUnwrap(app.find("Archive"))
        runtime.unmount(app)
        XCTAssertEqual(runtime.apps.map(\.idNumber), [other.idNumber])
        XCTAssertEqual(try runtime.evaluate("return state.gone"), ["true"])    // its onDisappear ran
        XCTAssertThrowsError(try runtime.tap(button))                          // no longer rendered
        XCTAssertTrue(app.nodes.isEmpty)
        runtime.unmount(app)                                                   // twice: nothing
        XCTAssertEqual(runtime.text(of: other), "Text \"other\"\n")
    }

    func testSetGlobalGivesLuaACopyOfPlainValues() throws {
        let runtime = try LunetteRuntime()
        try runtime.setGlobal("name", to: .string("Ünïcode \"quoted\" \\ \n\u{0}end"))
        try runtime.setGlobal("big", to: .int(Int.min))
        try runtime.setGlobal("negativeZero", to: .double(-0.0))
        try runtime.setGlobal("whole", to: .double(3))
        try runtime.setGlobal("notANumber", to: .double(.nan))
        try runtime.setGlobal("limits", to: .table(["unread": .int(50), "ratio": .double(0.5),
                                                    "tags": .list([.string("a"), .bool(false)])]))
        XCTAssertEqual(try runtime.evaluate("""
            return #name, name:sub(1, 9), name:byte(-4), big == math.mininteger, math.type(big),
                   1 / negativeZero, math.type(whole), notANumber ~= notANumber,
                   limits.unread, math.type(limits.unread), limits.ratio, limits.tags[1], limits.tags[2]
            """), ["26", "Ünïcode", "0", "true", "integer", "-inf", "float", "true", "50", "integer", "0.5", "a", "false"])
        try runtime.setGlobal("name", to: .none)
        XCTAssertEqual(try runtime.evaluate("return name"), ["nil"])
    }

    func testSetGlobalTakesLuaConvertibleValuesAndObjectsInside() throws {
        enum Folder: String, LuaConvertible { case inbox, archive }
        let runtime = try LunetteRuntime()
        try BookModels.register(in: runtime)
        let book = Book(title: "Dune")
        try runtime.setGlobal("title", to: "Inbox")
        try runtime.setGlobal("unread", to: 3)
        try runtime.setGlobal("folders", to: [Folder.inbox, .archive])
        try runtime.setGlobal("counts", to: ["inbox": 3, "archive": 0])
        try runtime.setGlobal("since", to: Date(timeIntervalSince1970: 86_400))
        try runtime.setGlobal("shelf", to: .table(["first": .object(book), "all": .array([book, book])]))
        XCTAssertEqual(try runtime.evaluate("""
            return title, unread, folders[2], counts.inbox, since, shelf.first.title, shelf.all[2] == shelf.first
            """), ["Inbox", "3", "archive", "3", "86400.0", "Dune", "true"])
        shelf: do {
            book.title = "Emma"                                                 // objects are shared, not copied
            XCTAssertEqual(try runtime.evaluate("return shelf.first.title"), ["Emma"])
        }
        final class Unknown {}
        XCTAssertThrowsError(try runtime.setGlobal("x", to: .list([.object(Unknown())]))) { error in
            XCTAssertTrue("\(error)".contains("Unknown is not registered"), "\(error)")
        }
        var deep = LuaValue.int(1)
        for _ in 0..<150 { deep = .list([deep]) }
        XCTAssertThrowsError(try runtime.setGlobal("deep", to: deep)) { error in
            XCTAssertTrue("\(error)".contains("nested at most 100 levels"), "\(error)")
        }
    }
}
