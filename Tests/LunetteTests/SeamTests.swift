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
        table.scheduler.render_write = { _, _ in }       // one of 73: the rest are missing
        let graph = try XCTUnwrap(lun_graph_new())
        defer { lun_graph_free(graph) }
        let budget = try XCTUnwrap(lun_budget_new())
        defer { lun_budget_free(budget) }
        XCTAssertEqual(lun_install(state, &table, graph, budget), LUN_ERROR)
        var length = 0
        let message = String(cString: lun_last_error(state, &length))
        XCTAssertTrue(message.contains("incomplete"), message)
    }

    /// A write from Lua reaches the C graph without a call into Swift: the effect waits in the
    /// graph's queue until the scheduler takes it.
    func testAWriteQueuesItsEffectInTheGraphForTheScheduler() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            runs = 0
            effect = ui.effect(function() runs = runs + 1; local _ = box.n end)
            """)
        _ = try runtime.evaluate("box.n = 1")
        XCTAssertEqual(runtime.graph.handle.pointee.pending.count, 1)   // queued, not yet scheduled
        XCTAssertEqual(try runtime.evaluate("return runs"), ["1"])
        runtime.flush()
        XCTAssertEqual(runtime.graph.handle.pointee.pending.count, 0)
        XCTAssertEqual(try runtime.evaluate("return runs"), ["2"])
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
}
