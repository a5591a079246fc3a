import Foundation
import Lunette
import XCTest

/// Every entry into Lua is bounded by the time budget (TARGETS R2, R6, R15),
/// whichever way a script tries to run past it. Each case must stop well
/// within a few budgets; the figures themselves are printed by
/// scripts/reliability, not asserted tightly here (the machine is shared).
final class RunawayTests: XCTestCase {
    private let budget = 0.3

    /// Runs `source` in a fresh runtime, then flushes and runs due work;
    /// returns the seconds it took and every message the host saw.
    private func stop(_ source: String, tap: String? = nil, sandboxed: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line) throws -> (seconds: Double, messages: String) {
        let runtime = try LunetteRuntime(options: .init(sandboxed: sandboxed, virtualClock: true, timeBudget: budget))
        let started = Date()
        var messages: [String] = []
        do {
            if let app = try runtime.run(source: source, name: "@runaway.lua") {
                runtime.flush()
                if let tap, let node = find(tap, in: app.nodes) {
                    do { try runtime.tap(node) } catch { messages.append("\(error)") }
                }
                _ = runtime.advanceClock(by: 1)
            }
            for app in runtime.apps { messages += app.errors + runtime.warnings(of: app) }
        } catch {
            messages.append("\(error)")
        }
        messages += runtime.effectErrors
        let seconds = Date().timeIntervalSince(started)
        XCTAssertLessThan(seconds, 10 * budget + 1, "not stopped in time: \(messages)", file: file, line: line)
        XCTAssertEqual(try runtime.evaluate("return 40 + 2"), ["42"], "the runtime stays usable", file: file, line: line)
        return (seconds, messages.joined(separator: "\n"))
    }

    private func find(_ text: String, in nodes: [RenderNode]) -> RenderNode? {
        for node in nodes {
            if node.text == text { return node }
            if let found = find(text, in: node.children) { return found }
        }
        return nil
    }

    private func assertStopped(_ result: (seconds: Double, messages: String), file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.messages.contains("ran longer than its time budget"), result.messages, file: file, line: line)
    }

    func testR2ALoopAtTheTopLevelOfAScriptIsStopped() throws {
        assertStopped(try stop("while true do end"))
    }

    func testR2ALoopInsidePcallInABodyIsStopped() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            return ui.View("V", function() while true do pcall(function() while true do end end) end end)()
            """))
    }

    func testR15ALoopInACoroutineResumedByABodyIsStopped() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            return ui.View("V", function()
              coroutine.resume(coroutine.create(function() while true do end end))
              return ui.Text("x")
            end)()
            """))
    }

    func testR15ALoopInACoroutineWrapCalledByABodyIsStopped() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            return ui.View("V", function()
              coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()
              return ui.Text("x")
            end)()
            """))
    }

    func testR15ALoopInAnXpcallMessageHandlerIsStopped() throws {
        let result = try stop("""
            local ui = require("lunette")
            return ui.View("V", function()
              xpcall(function() error("boom") end, function() while true do end end)
              while true do end
            end)()
            """)
        XCTAssertTrue(result.messages.contains("time budget") || result.messages.contains("error in error handling"),
                      result.messages)
    }

    func testR15AnErrorWhoseTostringLoopsIsStopped() throws {
        let result = try stop("""
            local ui = require("lunette")
            return ui.View("V", function()
              error(setmetatable({}, { __tostring = function() while true do end end }))
            end)()
            """)
        XCTAssertTrue(result.messages.contains("cannot be shown") || result.messages.contains("time budget"), result.messages)
    }

    func testR15AScriptErrorWhoseTostringLoopsIsStopped() throws {
        let result = try stop("error(setmetatable({}, { __tostring = function() while true do end end }))")
        XCTAssertTrue(result.messages.contains("could not be described") || result.messages.contains("cannot be shown")
                      || result.messages.contains("time budget"), result.messages)
    }

    func testR15FinalizersAreRefusedSoNoGcLoopCanRun() throws {
        let result = try stop("setmetatable({}, { __gc = function() while true do end end }) collectgarbage()")
        XCTAssertTrue(result.messages.contains("finalizers (__gc) are not available"), result.messages)
    }

    func testR15AButtonActionTappedByTheHostIsStopped() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            return ui.Button("Spin", function() while true do end end)
            """, tap: "Spin"))
    }

    func testR15AButtonActionTappedFromLuaIsStopped() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            local app = ui.mount(ui.Button("Spin", function() while true do end end))
            app:find("Spin"):tap()
            """))
    }

    func testR15OnAppearOnChangeAndTaskLoopsAreStopped() throws {
        for modifier in ["onAppear(function() while true do end end)",
                         "task(function() while true do end end)",
                         "onChange(1, function() while true do end end, { initial = true })"] {
            let result = try stop("""
                local ui = require("lunette")
                return ui.Text("x"):\(modifier)
                """)
            XCTAssertTrue(result.messages.contains("ran longer than its time budget"), "\(modifier): \(result.messages)")
        }
    }

    func testR6ABodyThatWritesWhatItReadsAndLoopsIsStoppedOnceNotAHundredTimes() throws {
        let result = try stop("""
            local ui = require("lunette")
            return ui.View("V", { state = { n = 0 }, body = function(self)
              self.n = self.n + 1
              while true do end
            end })()
            """)
        assertStopped(result)
        XCTAssertLessThan(result.seconds, 5 * budget + 1, "re-run after its budget stopped it")
    }

    func testR15AComputedThatLoopsWhileItsReaderIsCheckedIsStoppedOnceAndShown() throws {
        let result = try stop("""
            local ui = require("lunette")
            local M = ui.Observable("M", { n = 1, c = ui.computed(function(self)
              if self.n == 2 then while true do end end
              return self.n
            end) })
            local m = M()
            local app = ui.mount(ui.View("Reader", function() return ui.Text("c " .. m.c) end)())
            m.n = 2
            ui.flush()
            return ui.Text(app:tree())
            """)
        assertStopped(result)
        XCTAssertLessThan(result.seconds, 5 * budget + 1)
    }

    func testR15ToBeClosedVariablesOfClosedCoroutinesAndCancelledTasksAreStopped() throws {
        let loop = "local x <close> = setmetatable({}, { __close = function() while true do end end })"
        assertStopped(try stop("""
            local co = coroutine.create(function() \(loop) coroutine.yield() end)
            coroutine.resume(co)
            coroutine.close(co)
            while true do end
            """))
        // stop() fails the test if the task's closing runs past its budget.
        _ = try stop("""
            local ui = require("lunette")
            local V = ui.View("V", { state = { on = true }, body = function(self)
              return ui.VStack { self.on and ui.Text("t"):task(function() \(loop) ui.sleep(100) end) or nil,
                                 ui.Button("off", function() self.on = false end) }
            end })
            return V()
            """, tap: "off")
    }

    /// A coroutine stopped by the budget is left with hooks off by Lua: its
    /// to-be-closed variables must never run (found by the fuzzer, seed 5038).
    func testR15ACoroutineStoppedByTheBudgetNeverRunsItsCloseHandlers() throws {
        let loop = "local x <close> = setmetatable({}, { __close = function() while true do end end })"
        _ = try stop("""
            local ui = require("lunette")
            return ui.Text("x"):task(function() \(loop) ui.sleep(0.1) while true do end end)
            """)
        let runtime = try LunetteRuntime(options: .init(timeBudget: budget))
        XCTAssertThrowsError(try runtime.run(source: "co = coroutine.create(function() \(loop) while true do end end) coroutine.resume(co)"))
        let started = Date()
        let closed = try runtime.evaluate("return coroutine.close(co)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10 * budget + 1)
        XCTAssertEqual(closed.first, "false")
    }

    /// A stop armed for an outer run while an inner run (a flush) was running
    /// still holds once the inner run unwinds (found by the fuzzer, seed 5125).
    func testR15AStopForTheOuterRunOutlivesTheInnerRunItInterrupted() throws {
        assertStopped(try stop("""
            local ui = require("lunette")
            local t0 = os.clock() while os.clock() - t0 < \(budget * 0.6) do end
            ui.mount(ui.View("V", function() while true do end end)())
            while true do end
            """))
    }

    func testR15AScriptCanLowerTheBudgetButNotLiftOrRemoveIt() throws {
        for request in ["1e-10", "math.huge", "1e300", "3600"] {
            assertStopped(try stop("""
                local ui = require("lunette")
                ui.configure { timeBudget = \(request) }
                return ui.View("V", function() while true do end end)()
                """))
        }
        for bad in ["0", "-1", "0/0", "'x'"] {
            let result = try stop("require('lunette').configure { timeBudget = \(bad) }")
            XCTAssertTrue(result.messages.contains("timeBudget must be"), "\(bad): \(result.messages)")
            XCTAssertTrue(result.messages.contains("runaway.lua:1:"), "\(bad): \(result.messages)")
        }
    }

    func testR15DebugSethookCannotTakeTheBudgetAway() throws {
        let result = try stop("while true do debug.sethook() end", sandboxed: false)
        XCTAssertTrue(result.messages.contains("debug.sethook is not available"), result.messages)
    }
}
