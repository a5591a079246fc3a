import Observation
import XCTest
import Lunette
import LunetteBridge

@Observable final class Ticket: LuaExposed, LuaConstructible {
    var seat = "12A"
    static let luaName = "Ticket"
    static let luaLifetime = HostType.Lifetime.borrowed
    static var luaProperties: [LuaProperty<Ticket>] { [LuaProperty("seat", \.seat)] }
    static var luaMethods: [LuaMethod<Ticket>] { [LuaMethod("copy", Ticket.copy)] }

    func copy() -> Ticket {
        let made = Ticket()
        made.seat = seat
        return made
    }
}

/// R9 (T11): who keeps a Swift object alive, and what a handle whose object
/// Swift destroyed answers.
final class LifetimeTests: XCTestCase {
    func testR9AHandleToABorrowedObjectSwiftDestroyedAnswersObjectDestroyed() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(Ticket.self)
        var ticket: Ticket? = Ticket()
        weak let watched = ticket
        try runtime.setGlobal("ticket", to: ticket!)
        XCTAssertEqual(try runtime.evaluate("return ticket.seat"), ["12A"])
        ticket = nil                                   // the host lets it go: Lua does not keep it
        XCTAssertNil(watched)
        let answers = try runtime.evaluate("""
            local ok, err = pcall(function() return ticket.seat end)
            local wrote = pcall(function() ticket.seat = "1B" end)
            return tostring(ok), err, tostring(wrote), tostring(ticket)
            """)
        XCTAssertEqual(answers[0], "false")
        XCTAssertTrue(answers[1].contains("object destroyed"), answers[1])
        XCTAssertEqual(answers[2], "false")
        XCTAssertTrue(answers[3].contains("Ticket#1 (destroyed)"), answers[3])
    }

    func testR9AViewReadingADestroyedObjectShowsAnErrorNodeNotACrash() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(Ticket.self)
        var ticket: Ticket? = Ticket()
        try runtime.setGlobal("ticket", to: ticket!)
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Pass", { state = { n = 0 }, body = function(self)
              return ui.Button("seat " .. ticket.seat .. " " .. self.n, function() self.n = self.n + 1 end)
            end })()
            """))
        let button = try XCTUnwrap(app.nodes.first?.children.first)
        ticket = nil
        try runtime.tap(button)                        // the view runs again and reads it
        XCTAssertTrue(runtime.text(of: app).contains("object destroyed"), runtime.text(of: app))
    }

    func testObjectsLuaMakesAndRetainedTypesStayAliveWhileLuaHoldsThem() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(Ticket.self)
        let original = Ticket()
        try runtime.setGlobal("ticket", to: original)
        XCTAssertEqual(try runtime.evaluate("""
            made = require("lunette").types.Ticket()
            copied = ticket:copy()
            collectgarbage()
            return made.seat, copied.seat
            """), ["12A", "12A"])
    }
}
