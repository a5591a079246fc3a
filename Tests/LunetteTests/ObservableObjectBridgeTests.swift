import Lunette
import LunetteBridge
import XCTest

/// A Swift ObservableObject-style class in Lua (issue 3: "Swift hosts can expose
/// ObservableObject-style Swift classes too"). Its publisher is hand-made here,
/// standing in for Combine's objectWillChange.
final class Scoreboard: LuaExposedObject, @unchecked Sendable {
    private let subscribers = Locked<[Int: @Sendable () -> Void]>([:])
    private let nextID = Locked(0)
    private let state = Locked((home: 0, away: 0, venue: "Hall"))

    var home: Int {
        get { state.withLock { $0.home } }
        set { willChange(); state.withLock { $0.home = newValue } }
    }
    var away: Int {
        get { state.withLock { $0.away } }
        set { willChange(); state.withLock { $0.away = newValue } }
    }
    /// Not published: changes notify nobody.
    var venue: String {
        get { state.withLock { $0.venue } }
        set { state.withLock { $0.venue = newValue } }
    }

    /// How many runtimes are subscribed now.
    var subscriberCount: Int { subscribers.withLock { $0.count } }

    private func willChange() {
        for action in subscribers.withLock({ Array($0.values) }) { action() }
    }

    func luaObjectWillChange(_ action: @escaping @Sendable () -> Void) -> () -> Void {
        let id = nextID.withLock { $0 += 1; return $0 }
        subscribers.withLock { $0[id] = action }
        return { [weak self] in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
    }

    static let luaName = "Scoreboard"
    static var luaProperties: [LuaProperty<Scoreboard>] {
        [LuaProperty("home", \.home), LuaProperty("away", \.away), LuaProperty("venue", \.venue)]
    }
}

final class ObservableObjectBridgeTests: XCTestCase {
    func testAViewHoldingASwiftObservableObjectReRendersOnAnyPublishedChange() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(Scoreboard.self)
        let board = Scoreboard()
        try runtime.setGlobal("board", to: board)
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            local Score = ui.View("Score", {
              observedObject = { "board" },
              body = function(self) return ui.Text("home " .. self.board.home) end,
            })
            local Plain = ui.View("Plain", function(self) return ui.Text("plain " .. self.board.home) end)
            return ui.VStack { Score { board = board }, Plain { board = board } }
            """))
        board.away = 3                      // not read by Score, but published: Score re-renders
        runtime.flush()
        XCTAssertEqual(app.renders(of: "Score"), 2)
        XCTAssertEqual(app.renders(of: "Plain"), 1)   // holds it as a plain input: not subscribed
        board.venue = "Arena"               // unpublished: nothing
        runtime.flush()
        XCTAssertEqual(app.renders(of: "Score"), 2)
        board.home = 7
        runtime.flush()
        XCTAssertTrue(runtime.text(of: app).contains("home 7"))
    }

    /// A runtime that goes cancels its subscriptions to the objects it
    /// observed (a hostile read: 200 runtimes let go left 200 subscribers,
    /// each called at every change of a long-lived model).
    func testARuntimeThatGoesLeavesNoSubscriptionBehind() throws {
        let board = Scoreboard()
        for _ in 0..<20 {
            let runtime = try LunetteRuntime()
            try runtime.register(Scoreboard.self)
            try runtime.setGlobal("board", to: board)
            _ = try runtime.run(source: """
                local ui = require("lunette")
                return ui.View("Score", { observedObject = { "board" },
                  body = function(self) return ui.Text("home " .. self.board.home) end })({ board = board })
                """)
            XCTAssertGreaterThanOrEqual(board.subscriberCount, 1)
        }
        XCTAssertEqual(board.subscriberCount, 0)
    }

    /// S21: a Swift ObservableObject-style type goes in an environmentObject
    /// section, not an environment one ("For reading environment objects
    /// that conform to ObservableObject, use EnvironmentObject instead",
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf):
    /// the declaration names the section to use (a host type was let
    /// through where a Lua-defined one was refused).
    func testS21AHostObservableObjectTypeInAnEnvironmentSectionIsRefused() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(Scoreboard.self)
        XCTAssertThrowsError(try runtime.evaluate("""
            local ui = require("lunette")
            return ui.View("BoardEnv", { environment = { b = ui.types.Scoreboard }, body = function() return ui.Text("x") end })
            """)) { error in
            XCTAssertTrue("\(error)".contains("environment entry 'b' is an ObservableObject: read it with environmentObject = { b = Scoreboard }"),
                          "\(error)")
        }
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            return ui.View("BoardEnvObject", { environmentObject = { b = ui.types.Scoreboard }, body = function() return ui.Text("x") end })
            """)
    }
}
