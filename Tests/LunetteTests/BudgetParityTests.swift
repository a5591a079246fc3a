import Foundation
import Lunette
import XCTest

/// R26: the time budget is per entry into Lua — each body, action, event,
/// task step and chunk — the same in a host and under every runner: three
/// 0.1 s bodies under a 0.25 s budget all render, in one flush or one tap,
/// and one spinning view does not turn its siblings into budget errors.
/// (Before, the bodies of one flush shared one budget outside `lunette test`.)
private let budget = 0.25
private let slowViews = """
    local ui = require("lunette")
    local function spin(s) local t = os.clock() while os.clock() - t < s do end end
    Slow = ui.View("Slow", function(self) spin(0.1) return ui.Text("slow " .. self.i) end)
    Spin = ui.View("Spin", function() while true do end end)
    Three = ui.View("Three", { state = { on = false }, body = function(self)
      if not self.on then return ui.Button("show", function() self.on = true end) end
      return ui.VStack { Slow { i = 1 }, Slow { i = 2 }, Slow { i = 3 } }
    end })
    """

final class BudgetParityTests: XCTestCase {
    private func runtime() throws -> LunetteRuntime {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true, timeBudget: budget))
        _ = try runtime.run(source: slowViews, name: "@slow.lua")
        return runtime
    }

    func testR26AHostsFlushGivesEachBodyItsOwnBudget() throws {
        let runtime = try runtime()
        let text = try runtime.evaluate("""
            local ui = require("lunette")
            local app = ui.mount(ui.VStack { Slow { i = 1 }, Slow { i = 2 }, Slow { i = 3 } })
            return app:tree()
            """)[0]
        XCTAssertFalse(text.contains("Error"), text)
        XCTAssertTrue(text.contains("slow 3"), text)
    }

    func testR26AHostsTapThatRendersThreeSlowBodiesPasses() throws {
        let runtime = try runtime()
        let app = try XCTUnwrap(try runtime.run(source: "return Three {}", name: "@tap.lua"))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        let text = runtime.text(of: app)
        XCTAssertFalse(text.contains("Error"), text)
        XCTAssertTrue(text.contains("slow 3"), text)
    }

    func testR26OneSpinningViewDoesNotTurnItsSiblingsIntoBudgetErrors() throws {
        let runtime = try runtime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.VStack { Slow { i = 1 }, Spin {}, Slow { i = 2 }, ui.Text("after") }
            """, name: "@spin.lua"))
        let text = runtime.text(of: app)
        XCTAssertEqual(text.components(separatedBy: "Error").count - 1, 1, text)
        XCTAssertTrue(text.contains("Error Spin") && text.contains("slow 2") && text.contains("after"), text)
    }

    /// A failing body ends the life of the views it held (R1); a script's
    /// subscription whose `cancel` spins runs under a budget of its own there
    /// (the hostile read of session 10: it ran on the flush's, and one
    /// spinning cancel stopped the whole script).
    func testR26ACancelThatSpinsWhenAFailingViewEndsIsStoppedAlone() throws {
        let runtime = try runtime()
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local M = ui.Observable("SpinM", { x = 1 })
            m = M()
            local pub = { sink = function() return setmetatable({}, { __index = { cancel = function() while true do end end } }) end }
            local V = ui.View("SpinV", function()
              if m.x == 2 then error("body failed") end
              return ui.Text("V " .. m.x):onReceive(pub, function() end)
            end)
            local B = ui.View("SpinB", function() return ui.Text("B " .. m.x) end)
            app = ui.mount(ui.VStack { V {}, B {} })
            """, name: "@cancel.lua")
        _ = try runtime.evaluate("m.x = 2")
        runtime.flush()
        let text = try runtime.evaluate("return app:tree()")[0]
        XCTAssertTrue(text.contains("body failed") && text.contains("B 2"), text)
        _ = try runtime.evaluate("m.x = 3")
        runtime.flush()
        XCTAssertTrue(try runtime.evaluate("return app:tree()")[0].contains("V 3"))
    }
}

/// The same script under `lunette run`, `lunette repl` and `lunette test`: the same verdict.
extension CommandLineTests {
    func testR26TheRunnersAgreeOnTheBudget() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("budget_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("slow.lua")
        try (slowViews + "\nreturn ui.VStack { Slow { i = 1 }, Slow { i = 2 }, Slow { i = 3 } }\n")
            .write(to: script, atomically: true, encoding: .utf8)
        let spec = directory.appendingPathComponent("slow_spec.lua")
        try (slowViews + """

            describe("slow", function()
              it("renders three slow bodies", function()
                local app = ui.mount(ui.VStack { Slow { i = 1 }, Slow { i = 2 }, Slow { i = 3 } })
                assert.truthy(app:find("slow 3"))
              end)
              it("taps into three slow bodies", function()
                local app = ui.mount(Three {})
                app:find("show"):tap()
                assert.truthy(app:find("slow 3"))
              end)
            end)
            """).write(to: spec, atomically: true, encoding: .utf8)
        let limits = ["--time-budget", "\(budget)"]
        let run = try lunette(["run"] + limits + [script.path])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("slow 3") && !run.output.contains("Error"), run.output)
        let test = try lunette(["test"] + limits + [spec.path])
        XCTAssertEqual(test.status, 0, test.output + test.errors)
        // The REPL runs each line as a chunk: its definitions must be globals.
        let lines = slowViews.replacingOccurrences(of: "local ", with: "")
        let repl = try lunette(["repl"] + limits, input: lines
                                + "\napp = ui.mount(ui.VStack { Slow { i = 1 }, Slow { i = 2 }, Slow { i = 3 } })\nprint(app:tree())\n")
        XCTAssertEqual(repl.status, 0, repl.output + repl.errors)
        XCTAssertTrue(repl.output.contains("slow 3") && !repl.output.contains("Error"), repl.output)
    }
}
