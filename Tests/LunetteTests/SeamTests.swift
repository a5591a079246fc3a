import CLunette
import Foundation
import XCTest
@testable import Lunette

/// The seam between the C module and the Swift runtime (README, "The seam").
final class SeamTests: XCTestCase {
    /// The C module takes its host callbacks as a table, and refuses one with a hole.
    func testAnIncompleteHostTableIsRefused() throws {
        let state = try XCTUnwrap(lun_new_state(0))
        defer { lun_close_state(state) }
        var table = lun_Host()
        table.scheduler.context = UnsafeMutableRawPointer(bitPattern: 1)
        table.scheduler.render_write = { _, _ in }       // one of them: the rest are missing
        let graph = try XCTUnwrap(lun_graph_new())
        defer { lun_graph_free(graph) }
        let budget = try XCTUnwrap(lun_budget_new())
        defer { lun_budget_free(budget) }
        XCTAssertEqual(lun_install(state, &table, graph, budget), LUN_ERROR)
        var length = 0
        let message = String(cString: lun_last_error(state, &length))
        XCTAssertTrue(message.contains("incomplete"), message)
    }

    /// A write from Lua reaches the C graph without a call into Swift: a `ui.effect` waits in
    /// the graph's queue of effects, which C runs at the next flush; the scheduler's queue of
    /// view units never holds it (issue 17: no Swift work per effect).
    func testAWriteQueuesItsEffectInTheGraphForC() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            runs = 0
            effect = ui.effect(function() runs = runs + 1; local _ = box.n end)
            """)
        _ = try runtime.evaluate("box.n = 1")
        let graph = runtime.graph.handle.pointee
        XCTAssertEqual(graph.effects.count - graph.effectsHead, 1)   // queued for C, not yet run
        XCTAssertEqual(graph.pending.count, 0)                     // never the scheduler's
        XCTAssertEqual(try runtime.evaluate("return runs"), ["1"])
        runtime.flush()
        XCTAssertEqual(runtime.graph.handle.pointee.effects.count - runtime.graph.handle.pointee.effectsHead, 0)
        XCTAssertEqual(runtime.graph.handle.pointee.pending.count, 0)
        XCTAssertEqual(try runtime.evaluate("return runs"), ["2"])
    }

    /// An effect's failure and its stop at the render loop limit reach the host through one leaf
    /// (`inspect.effect_failed`), as "effect: …" in `effectErrors`; its successful runs do not
    /// cross at all.
    func testAnEffectsFailureAndItsStopAreReported() throws {
        let runtime = try LunetteRuntime(options: .init(renderLoopLimit: 5))
        _ = try runtime.evaluate("""
            ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            fails = ui.effect(function() if box.n == 1 then error("boom") end end)
            """, name: "@effects.lua")
        XCTAssertEqual(runtime.effectErrors, [])
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(runtime.effectErrors, ["effect: effects.lua:4: boom"])
        _ = try runtime.evaluate("fails:cancel(); runs = 0; loops = ui.effect(function() runs = runs + 1; box.n = box.n + 1 end)")
        XCTAssertEqual(try runtime.evaluate("return runs"), ["5"])
        XCTAssertEqual(runtime.effectErrors.last,
                       "effect: stopped after running 5 times in one flush: it keeps changing what it reads")
        XCTAssertEqual(runtime.effectErrors.count, 2)
    }

    /// An effect cancelled while its update is under way — by a computed its check recomputes,
    /// or by itself before a retry — does not run again, and nothing is reported (a hostile
    /// read: the update went on to call the registry slot its cancel had freed, "attempt to
    /// call a number value").
    func testAnEffectCancelledDuringItsUpdateDoesNotRun() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local m = ui.Observable("M", { v = 0 })()
            local e
            local d = ui.Observable("D", { x = ui.computed(function()
              if m.v == 1 and e then e:cancel() end
              return m.v
            end) })()
            runs = 0
            e = ui.effect(function() runs = runs + 1; local _ = d.x end)
            m.v = 1
            ui.flush()
            local props = {}
            for i = 1, 60 do
              local prev = i - 1
              props["c" .. i] = ui.computed(function(self)
                if prev == 0 then return m.v end
                return self["c" .. prev] + 1
              end)
            end
            local chain = ui.Observable("Chain", props)()
            local again
            count = 0
            again = ui.effect(function()
              count = count + 1
              if m.v == 2 then again:cancel(); local _ = chain.c60 end
            end)
            m.v = 2
            ui.flush()
            """)
        XCTAssertEqual(runtime.effectErrors, [])
        XCTAssertEqual(try runtime.evaluate("return runs, count"), ["1", "2"])
    }

    /// Units handing a slow body (stopped by the budget) on to each other by turns, each carried
    /// to the next flush once, make no endless chain of flushes: at most `LUN_CARRY_STREAK`
    /// flushes in a row carry (a tenth hostile read: two units were enough to carry forever, and a
    /// host that flushes on every wake would have spun).
    func testUnitsHandingOnByTurnsStopBeingCarried() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.1))
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local N = 2
            local t = {}
            for i = 1, N do t["slow" .. i] = false; t["x" .. i] = 0; t["trig" .. i] = false; t["step" .. i] = 0 end
            m = ui.Observable("Ring", t)()
            runs = 0
            local kids = {}
            for i = 1, N do
              local j = i % N + 1
              kids[#kids + 1] = ui.View("RingU" .. i, function()
                runs = runs + 1
                local x, slow = m["x" .. i], m["slow" .. i]
                if slow then m["trig" .. i] = true; local c = os.clock(); while os.clock() - c < 0.15 do end end
                local text = ui.Text("U" .. i .. " x " .. x)
                if x == 4 then text = text:onAppear(function()
                  m["x" .. j] = 0; m["trig" .. j] = false; m["slow" .. j] = true; m["step" .. j] = 1
                end) end
                return text
              end) {}
            end
            \(carryDrivers(named: "Ring"))
            ui.mount(ui.VStack(kids))
            m.slow1 = true; m.step1 = 1
            """)
        for _ in 0..<Int(LUN_CARRY_STREAK) + 1 { runtime.flush() }
        _ = try runtime.evaluate("runs = 0")
        for _ in 0..<3 { runtime.flush() }
        XCTAssertEqual(try runtime.evaluate("return runs"), ["0"])
    }

    /// The Lua both carrying scenarios share (`m`, `N` and `kids` theirs): an effect that moves
    /// a triggered unit's `x` to 1, and a view whose onChange ends each unit's slow step.
    private func carryDrivers(named name: String) -> String {
        """
        ui.effect(function()
          for i = 1, N do if m["trig" .. i] and m["x" .. i] == 0 then m["x" .. i] = 1 end end
        end)
        kids[#kids + 1] = ui.View("\(name)Stepper", function()
          local text = ui.Text("steps")
          for i = 1, N do
            local s = m["step" .. i]
            text = text:onChange(s, function()
              if m["step" .. i] == 1 then m["slow" .. i] = false; m["x" .. i] = 4; m["step" .. i] = 2 end
            end)
          end
          return text
        end) {}
        """
    }

    /// Unrelated slow units, each started by a change from outside before its own flush, are
    /// each carried: the count of carrying flushes in a row starts again at a flush that begins
    /// with an outside change (an eleventh hostile read: the fourth was let go and kept showing
    /// its budget error).
    func testAnOutsideChangeStartsTheCarryCountAgain() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.1))
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local N = 4
            local t = {}
            for i = 1, N do t["slow" .. i] = false; t["x" .. i] = 0; t["trig" .. i] = false; t["step" .. i] = 0 end
            m = ui.Observable("Legit", t)()
            local kids = {}
            for i = 1, N do
              kids[#kids + 1] = ui.View("LegitU" .. i, function()
                local x, slow = m["x" .. i], m["slow" .. i]
                if slow then m["trig" .. i] = true; local c = os.clock(); while os.clock() - c < 0.15 do end end
                return ui.Text("U" .. i .. " x " .. x)
              end) {}
            end
            \(carryDrivers(named: "Legit"))
            app = ui.mount(ui.VStack(kids))
            """)
        for i in 1...4 {
            _ = try runtime.evaluate("m.slow\(i) = true; m.step\(i) = 1")   // a user's action before each flush
            runtime.flush()
        }
        runtime.flush()
        XCTAssertEqual(try runtime.evaluate("return app:find('U4 x 4') ~= nil"), ["true"])
    }

    /// View kinds and their names are C's list (LUN_VIEW_KINDS); Swift reads it, and a kind
    /// outside it is no kind at all (it becomes an error node, never a Group).
    func testViewKindsComeFromTheCList() {
        XCTAssertEqual(RenderNode.Kind.allCases.count, Int(LUN_VIEW_KIND_COUNT) - 1)
        XCTAssertEqual(RenderNode.Kind.allCases.map(\.name).first, "Text")
        XCTAssertEqual(RenderNode.Kind.alert.name, "Alert")
        XCTAssertEqual(RenderNode.Kind.component.name, String(cString: lun_view_kind_name(Int32(LUN_VIEW_COMPONENT))))
        XCTAssertNil(RenderNode.Kind(rawValue: Int32(LUN_VIEW_KIND_COUNT)))
        XCTAssertNil(RenderNode.Kind(rawValue: 0))
    }

    /// A kind carries its constructor (issue 17, item 5): the list registers `ui.<name>` for
    /// each kind a script makes; the kinds a modifier or the walk makes have no constructor.
    func testEachKindCarriesItsConstructor() throws {
        let runtime = try LunetteRuntime()
        let madeByOthers: Set<String> = ["Row", "Error", "Sheet", "Alert", "SwipeActions", "Toolbar"]
        for kind in RenderNode.Kind.allCases {
            let type = try runtime.evaluate("return type(require('lunette')[\(luaQuoted(kind.name))])")
            XCTAssertEqual(type, [madeByOthers.contains(kind.name) ? "nil" : "function"], kind.name)
        }
        XCTAssertEqual(try runtime.evaluate("return require('lunette').Text('a').kind == require('lunette').ProgressView().kind"), ["false"])
    }

    /// A run's output crosses as records in one call (issue 17, "output as data"): a component
    /// with a VStack of three Texts with a modifier each is one hand-over, not twenty calls.
    func testARunsOutputCrossesInOneCall() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            local V = ui.View("V", function(self)
              return ui.VStack { ui.Text("a " .. box.n):bold(), ui.Text("b"):padding(2), ui.Text("c"):font("title") }
            end)
            app = ui.mount(V {})
            """)
        let before = runtime.builder.handOvers
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(runtime.builder.handOvers - before, 1)
        XCTAssertEqual(try runtime.evaluate("return app:find('a 1') ~= nil"), ["true"])
    }

    /// A re-render whose output is nodes only ends in one call (issue 17, "no Swift per run whose
    /// output kept its shape"): no unit_begin, output.write and unit_end. A run that needs the
    /// host after all (a child view appears, it raises, it writes what it read) takes the full
    /// path from that moment, and comes back to the plain one when it no longer does.
    func testAPlainReRenderEndsInOneCall() throws {
        let runtime = try LunetteRuntime()
        var heard: [[String]] = []
        runtime.onTreeChange { heard.append($0.views) }
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            local Child = ui.View("Child", function() return ui.Text("child") end)
            local V = ui.View("V", function(self)
              if box.n == 2 then return ui.VStack { ui.Text("n 2"), Child {} } end
              if box.n == 3 then error("three") end
              if box.n == 4 then box.n = 5 end
              if box.n == 6 then return ui.VStack { ui.Text(string.rep("x", 70000)) } end
              return ui.VStack { ui.Text("n " .. box.n):bold() }
            end)
            app = ui.mount(V {})
            """)
        func step(_ n: Int) throws -> (plain: Int, tree: String) {
            let before = runtime.builder.plainRuns
            _ = try runtime.evaluate("box.n = \(n)")
            runtime.flush()
            return (runtime.builder.plainRuns - before, try runtime.evaluate("return app:tree()")[0])
        }
        heard = []
        var (plain, tree) = try step(1)
        XCTAssertEqual(plain, 1)
        XCTAssertTrue(tree.contains("Text \"n 1\" .bold()"), tree)
        XCTAssertEqual(heard, [["V#1"]], "the host hears of a plain re-render as of any other")
        XCTAssertEqual(try runtime.evaluate("return app:renders('V')"), ["2"])
        (plain, tree) = try step(2)
        XCTAssertEqual(plain, 1, "a child view appeared: the full path (the child's own first run is plain)")
        XCTAssertTrue(tree.contains("Text \"child\""), tree)
        (plain, tree) = try step(3)
        XCTAssertEqual(plain, 0, "it has a child: not plain")
        XCTAssertTrue(tree.contains("three"), tree)
        (plain, tree) = try step(1)
        XCTAssertEqual(plain, 1, "no child any more: plain again")
        XCTAssertFalse(tree.contains("child"), tree)
        (plain, _) = try step(4)
        XCTAssertTrue(try runtime.evaluate("return app:warnings()[1] or ''")[0].contains("during its body"),
                      "a write during a plain run is reported, as on the full path")
        XCTAssertEqual(try runtime.evaluate("return app:renders('V')"), ["7"])
        (plain, tree) = try step(6)
        XCTAssertEqual(plain, 0, "records past the buffer C keeps are handed over as they come: the full path")
        XCTAssertTrue(tree.contains(String(repeating: "x", count: 70000)))
    }

    /// Plain re-renders of one batch cross once (`units_done`), in the order they ran: a
    /// thousand views re-rendered is one call, not a thousand; a sibling that raises, one that
    /// writes what it read (the full path, mid-batch), one whose output has a life list (its
    /// entry crosses alone: C updates the list at once) and one that gains a child leave every
    /// other sibling's output right.
    func testPlainReRendersOfABatchCrossOnce() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            boxes = {}
            for i = 1, 300 do boxes[i] = Box() end
            local Child = ui.View("Child", function() return ui.Text("child") end)
            local Row = ui.View("Row", function(self)
              local n = self.box.n
              if self.i == 50 and n == 2 then error("fifty") end
              if self.i == 100 and n == 2 then self.box.n = 3 end
              if self.i == 150 and n == 2 then return ui.Text("r150 " .. n):onChange(n, function() end) end
              if self.i == 200 and n == 2 then return ui.VStack { ui.Text("r200 " .. n), Child {} } end
              return ui.Text("r" .. self.i .. " " .. n)
            end)
            local rows = {}
            for i = 1, 300 do rows[i] = Row { box = boxes[i], i = i } end
            app = ui.mount(ui.VStack(rows))
            function set(n) for i = 1, 300 do boxes[i].n = n end end
            """)
        func step(_ n: Int) throws -> (plain: Int, batches: Int, tree: String) {
            let runs = runtime.builder.plainRuns, batches = runtime.builder.plainBatches
            _ = try runtime.evaluate("set(\(n))")
            runtime.flush()
            return (runtime.builder.plainRuns - runs, runtime.builder.plainBatches - batches,
                    try runtime.evaluate("return app:tree()")[0])
        }
        var (plain, batches, tree) = try step(1)
        XCTAssertEqual(plain, 300)
        XCTAssertEqual(batches, 1, "one call for the batch's 300 plain runs")
        XCTAssertLessThanOrEqual(lun_state(runtime.L)!.pointee.doneCap, Int(LUN_DONE_KEEP),
                                 "between flushes the held entries' buffer keeps little of the memory cap")
        for i in [1, 50, 150, 300] { XCTAssertTrue(tree.contains("Text \"r\(i) 1\""), tree) }
        XCTAssertEqual(try runtime.evaluate("return app:renders('Row')"), ["600"])
        (plain, batches, tree) = try step(2)
        XCTAssertTrue(tree.contains("fifty"), tree)
        XCTAssertTrue(tree.contains("Text \"child\""), tree)
        XCTAssertTrue(tree.contains("Text \"r150 2\""), tree)
        for i in [1, 49, 51, 99, 101, 149, 151, 199, 201, 300] {
            XCTAssertTrue(tree.contains("Text \"r\(i) 2\""), "row \(i): \(tree)")
        }
        XCTAssertGreaterThan(batches, 1, "the full paths mid-batch send what was held before them")
        XCTAssertLessThan(batches, 10)
        (plain, batches, tree) = try step(4)
        XCTAssertFalse(tree.contains("fifty"), "the raising row recovered")
        for i in [1, 50, 100, 150, 200, 300] { XCTAssertTrue(tree.contains("Text \"r\(i) 4\""), "row \(i): \(tree)") }
        XCTAssertFalse(tree.contains("child"), tree)
    }

    /// A run's nodes are built only when something reads them; the records are kept until then.
    func testNodesAreBuiltOnlyWhenRead() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            app = ui.mount(ui.View("V", function() return ui.Text("n " .. box.n):padding(4) end) {})
            """)
        let app = try XCTUnwrap(runtime.apps.first)
        let view = try XCTUnwrap(app.root.children.first?.unit)
        XCTAssertNil(view.last.nodes)
        XCTAssertFalse(view.last.records.isEmpty)
        XCTAssertEqual(app.nodes.first?.children.first?.text, "n 0")
        XCTAssertEqual(app.nodes.first?.children.first?.modifiers, [.init(name: "padding", value: "4")])
        XCTAssertNotNil(view.last.nodes)
        XCTAssertTrue(view.last.records.isEmpty, "the nodes hold the text now")
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertNil(view.last.nodes)
        XCTAssertEqual(app.nodes.first?.children.first?.text, "n 1")
    }

    /// An output larger than C's buffer keeps (64 KiB) arrives whole and in order.
    func testAnOutputLargerThanTheBufferArrivesWholeAndInOrder() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local rows = {}
            for i = 1, 3000 do rows[i] = ui.Text(("%05d "):format(i) .. string.rep("x", 100)):padding(i) end
            app = ui.mount(ui.VStack(rows))
            """)
        let texts = try XCTUnwrap(runtime.apps.first?.nodes.first?.children)
        XCTAssertEqual(texts.count, 3000)
        XCTAssertTrue(texts.enumerated().allSatisfy { i, node in
            node.text?.hasPrefix(String(format: "%05d ", i + 1)) == true && node.modifiers.first?.value == String(i + 1)
        })
    }

    /// Records are read with every length checked: one cut short reads as invalid, never past the end.
    func testARecordCutShortReadsAsInvalid() {
        var bytes: [UInt8] = [UInt8(LUN_OUT_BEGIN)]
        withUnsafeBytes(of: Int32(LUN_VIEW_TEXT)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt(50)) { bytes.append(contentsOf: $0) }   // says 50 bytes of text follow
        bytes.append(contentsOf: Array("short".utf8))
        bytes.withUnsafeBytes { raw in
            var reader = OutputRecords(raw)
            guard case .invalid = reader.next() else { return XCTFail("a cut record was read") }
            XCTAssertNil(reader.next())
        }
        [UInt8(200)].withUnsafeBytes { raw in
            var reader = OutputRecords(raw)
            guard case .invalid = reader.next() else { return XCTFail("an unknown operation was read") }
        }
    }

    /// Nothing is process-wide: interrupting one runtime leaves another's running line alone.
    func testInterruptingOneRuntimeLeavesAnotherAlone() throws {
        let running = try LunetteRuntime(options: .init(timeBudget: 0))
        let other = try LunetteRuntime(options: .init(timeBudget: 0))
        let otherStop = other.interrupter, runningStop = running.interrupter
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { otherStop.interrupt() }
        // A line of ~0.3 s: the other runtime's interrupt falls in it and must not stop it.
        XCTAssertEqual(try running.evaluateInterruptibly("""
            local t = os.clock() while os.clock() - t < 0.3 do end return "finished"
            """, name: "=line"), ["finished"])
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { runningStop.interrupt() }
        XCTAssertThrowsError(try running.evaluateInterruptibly("while true do end", name: "=line")) { error in
            XCTAssertTrue("\(error)".contains("interrupted"), "\(error)")
        }
    }

    /// R18: many children of one identity (one `:id` on every row) cost what
    /// as many different ones do: the n-th finds its copy number in one step.
    /// It took n steps, so 20,000 such rows took 20 s to mount — Swift's
    /// time, which no Lua hook could stop.
    func testR18ChildrenOfOneIdentityTakeOneStepEach() throws {
        let runtime = try LunetteRuntime()
        let before = runtime.builder.copyProbes
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Leaf = ui.View("SameIdLeaf", function() return ui.Text("l") end)
            local rows = {}
            for i = 1, 2000 do rows[i] = Leaf():id(1) end
            app = ui.mount(ui.VStack(rows))
            """)
        XCTAssertEqual(try runtime.evaluate("return app:renders('SameIdLeaf')")[0], "2000")
        let probes = runtime.builder.copyProbes - before
        XCTAssertGreaterThanOrEqual(probes, 1999, "each later child is a copy")
        XCTAssertLessThanOrEqual(probes, 2 * 2000, "one step each, not one per earlier copy")
        _ = try runtime.evaluate("app:unmount()")
    }

    /// `app:findAll` asks the runtime for the first match, the next, … : the
    /// tree is searched once for them all. It was searched once per match,
    /// so finding the 4,000 rows of a list ran past the time budget.
    func testFindAllSearchesTheTreeOnce() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Row = ui.View("FindAllRow", function() return ui.Text("row") end)
            local rows = {}
            for i = 1, 300 do rows[i] = Row() end
            app = ui.mount(ui.VStack(rows))
            """)
        let app = try XCTUnwrap(runtime.apps.first)
        let before = app.searches
        XCTAssertEqual(try runtime.evaluate("return #app:findAll('row')")[0], "300")
        XCTAssertEqual(app.searches - before, 1)
        XCTAssertEqual(try runtime.evaluate("return #app:findAll{ type = 'FindAllRow' }")[0], "300")
        XCTAssertEqual(app.searches - before, 2, "another query searches anew")
        weak var row = runtime.units.ids.compactMap { runtime.units[$0] }.first { $0.kind == .component }
        XCTAssertNotNil(row)
        _ = try runtime.evaluate("app:unmount()")
        runtime.flush()
        XCTAssertNil(row, "the remembered matches let their units go with the app (R8)")
    }

    /// An app's remembered find keeps handles (a weak unit and a path), not
    /// nodes: a single `app:find` held its matches' whole output alive after
    /// every re-render replaced it, outside the memory cap (a hostile read:
    /// 3.4 MB an app of 20,000 rows).
    func testARememberedFindHoldsNoNodeOfAReplacedOutput() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local M = ui.Observable("FindKeepModel", { n = 3 })
            m = M()
            app = ui.mount(ui.View("FindKeep", function()
              local rows = {}
              for i = 1, m.n do rows[i] = ui.Text("row") end
              return ui.VStack(rows)
            end) {})
            """)
        let app = try XCTUnwrap(runtime.apps.first)
        XCTAssertEqual(try runtime.evaluate("return app:find('row') ~= nil")[0], "true")
        weak var node = app.find("row")
        XCTAssertNotNil(node)
        _ = try runtime.evaluate("m.n = 1; require('lunette').flush()")
        XCTAssertNil(node, "no node of an output replaced since is kept")
        _ = try runtime.evaluate("app:unmount()")
    }
}
