import XCTest
@testable import Lunette

/// The tracer is a part of its own (issue 17, item 3: the trace group answers with it), and
/// what it keeps is bounded however long tracing stays on (R19).
final class TracerTests: XCTestCase {
    /// A task stepping with no view re-rendering records only events ("• task step"): they were
    /// kept without a bound before the tracer owned its lines (a run's line trimmed them, an
    /// event's did not).
    func testEventLinesAreBoundedWhenNothingReRenders() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.setTracing(true)
        let app = try runtime.run(source: """
            local ui = require("lunette")
            local V = ui.View("Ticker", function(self)
              return ui.Text("ticking"):task(function()
                for _ = 1, 16000 do ui.sleep(1) end
              end)
            end)
            return V {}
            """)!
        for _ in 0..<16_000 { runtime.advanceClock(by: 1) }
        let (lines, _, isWhole) = runtime.takeTrace()
        XCTAssertLessThanOrEqual(lines.count, Tracer.keptLines + Tracer.keptLines / 2)   // dropped in batches
        XCTAssertGreaterThanOrEqual(lines.count, Tracer.keptLines)
        XCTAssertFalse(isWhole)                          // the oldest went: a tool redrawing what ran must know
        XCTAssertEqual(lines.last, "• task step Ticker#1")
        XCTAssertEqual(runtime.trace(of: app).count, Tracer.keptLinesPerApp)
        XCTAssertEqual(runtime.takeTraceLines(), [])
    }

    /// The trace says when it is not every run since it was last taken: lines
    /// dropped, or tracing turned off or on meanwhile (a hostile read: the
    /// preview's patches left out the views that ran while tracing was off).
    /// A fresh user's report: the REPL's `:set` (a write no Lua code made)
    /// was said "set at" the line of the Lua write before it.
    func testAWriteNoLuaCodeMadeNamesNoEarlierWritesPlace() throws {
        let runtime = try LunetteRuntime()
        runtime.setTracing(true)
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Counter", { state = { n = 0 }, body = function(self)
              return ui.Button("inc " .. self.n, function() self.n = self.n + 1 end)
            end })()
            """, name: "@counter.lua"))
        try runtime.setGlobal("app", to: app)
        _ = runtime.takeTrace()
        _ = try runtime.evaluate("app:find('inc 0'):tap()")
        XCTAssertEqual(runtime.takeTrace().lines, ["↻ Counter#1  (Counter.state#1.n, set at counter.lua:3)"])
        try runtime.setState(of: "Counter", "n", to: "7")
        XCTAssertEqual(runtime.takeTrace().lines, ["↻ Counter#1  (Counter.state#1.n)"])
    }

    func testTheTraceSaysWhenItIsPartial() throws {
        let runtime = try LunetteRuntime()
        runtime.setTracing(true)
        _ = runtime.takeTrace()
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local S = ui.Observable("S", { n = 0 })
            s = S()
            return ui.View("V", function() return ui.Text("n " .. s.n) end)()
            """)
        XCTAssertTrue(runtime.takeTrace().isWhole)
        _ = try runtime.evaluate("local ui = require(\"lunette\"); ui.trace(false); s.n = 1; ui.flush(); ui.trace(true); s.n = 2; ui.flush()")
        let (lines, runs, isWhole) = runtime.takeTrace()
        XCTAssertEqual(lines.filter { $0.hasPrefix("↻ V#1") }.count, 1, "\(lines)")   // the run while off is not there
        XCTAssertEqual(runs.map { "\($0.label) \($0.isView) \($0.isNew)" }, ["V#1 true false"])
        XCTAssertFalse(isWhole)
        _ = try runtime.evaluate("s.n = 3; require(\"lunette\").flush()")
        XCTAssertTrue(runtime.takeTrace().isWhole)
    }

    /// The trace group reaches the tracer, not the runtime: a write's place and why a view ran.
    func testTheTraceGroupAnswersWithTheTracer() throws {
        let runtime = try LunetteRuntime()
        let app = try runtime.run(source: """
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            local V = ui.View("Shows", function(self) return ui.Text("n " .. box.n) end)
            ui.trace(true)
            return V {}
            """)!
        _ = runtime.takeTraceLines()
        _ = try runtime.evaluate("box.n = 1", name: "@edit.lua")
        runtime.flush()
        XCTAssertEqual(runtime.takeTraceLines(), ["↻ Shows#1  (Box#1.n, set at edit.lua:1)"])
        XCTAssertEqual(runtime.trace(of: app).last, "↻ Shows#1  (Box#1.n, set at edit.lua:1)")
        XCTAssertTrue(runtime.tracer.tracing)
        _ = try runtime.evaluate("ui = require('lunette'); ui.trace(false)")
        XCTAssertFalse(runtime.tracer.tracing)
    }

    /// A `ui.effect` is C's (issue 17): while tracing, C tells the tracer of each run, and the
    /// line says what moved, as a view's does.
    func testAnEffectsRunIsTracedWithWhatMoved() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            effect = ui.effect(function() local _ = box.n end)
            ui.trace(true)
            """)
        _ = runtime.takeTraceLines()
        _ = try runtime.evaluate("box.n = 1", name: "@edit.lua")
        runtime.flush()
        XCTAssertEqual(runtime.takeTraceLines(), ["↻ effect  (Box#1.n, set at edit.lua:1)"])
        _ = try runtime.evaluate("effect:cancel(); box.n = 2")
        runtime.flush()
        XCTAssertEqual(runtime.takeTraceLines(), [])
        _ = try runtime.evaluate("other = ui.effect(function() local _ = box.n end)")
        XCTAssertEqual(runtime.takeTraceLines(), ["↻ effect  (new)"])   // its first run, as a new view's
    }

    /// A line names at most 16 reasons and says how many more (the hostile read of session 8:
    /// a run whose thousands of dependencies moved kept a line of every one, unbounded).
    func testALineNamesAtMostSixteenReasons() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            boxes = {}
            for i = 1, 100 do boxes[i] = Box() end
            local V = ui.View("ReadsAll", function(self)
              local total = 0
              for i = 1, #boxes do total = total + boxes[i].n end
              return ui.Text("total " .. total)
            end)
            ui.trace(true)
            return V {}
            """)
        _ = runtime.takeTraceLines()
        _ = try runtime.evaluate("for i = 1, #boxes do boxes[i].n = 1 end")
        runtime.flush()
        let line = try XCTUnwrap(runtime.takeTraceLines().first)
        XCTAssertTrue(line.hasSuffix("; and 84 more)"), line)
        XCTAssertEqual(line.components(separatedBy: "; ").count, 17, line)
    }

    /// The check that follows a focus claim is the runtime's, not a view's
    /// event: it was traced as "• onAppear/onDisappear a view that is gone"
    /// on every node:focus().
    func testAFocusClaimTracesNoEventOfAViewThatIsGone() throws {
        let runtime = try LunetteRuntime()
        runtime.setTracing(true)
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local V = ui.View("Focuser", { focusState = { e = false }, body = function(self)
              return ui.TextField("a", ui.Binding.constant("")):focused(self["$e"])
            end })
            app = ui.mount(V {})
            app:find("a"):focus()
            """)
        let lines = runtime.takeTraceLines()
        XCTAssertFalse(lines.contains { $0.contains("a view that is gone") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("Focuser") }, lines.joined(separator: "\n"))
    }
}
