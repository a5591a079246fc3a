import CLunette
import XCTest
@testable import Lunette

/// The dependency graph on its own: linking, re-tracking, propagation, the refresh walk.
final class GraphTests: XCTestCase {
    private func run(_ graph: Graph, _ sub: Int32, reading deps: [Int32]) {
        graph.beginRun(sub)
        for dep in deps { graph.track(sub: sub, dep: dep) }
        graph.endRun(sub)
    }

    func testRepeatedReadsLinkOnce() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, e, reading: [a, a, a])
        XCTAssertEqual(graph.dependencies(of: e), [a])
        XCTAssertEqual(graph.subscribers(of: a), [e])
    }

    func testRerunReadingTheSameThingsReusesLinks() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let b = graph.newNode(.signal, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, e, reading: [a, b])
        let first = graph.node(e).deps
        run(graph, e, reading: [a, b])
        XCTAssertEqual(graph.node(e).deps, first)
        XCTAssertEqual(graph.dependencies(of: e), [a, b])
    }

    func testDependenciesNotReadAgainAreDropped() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let b = graph.newNode(.signal, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, e, reading: [a, b])
        run(graph, e, reading: [b])
        XCTAssertEqual(graph.dependencies(of: e), [b])
        XCTAssertEqual(graph.subscribers(of: a), [])
    }

    func testAChangeMarksEffectsPendingOnce() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let c = graph.newNode(.computed, owner: 0, slot: 0)
        let e1 = graph.newNode(.effect, owner: 0, slot: 0)
        let e2 = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, c, reading: [a])
        graph.computedDone(c, changed: true)
        run(graph, e1, reading: [c, a])
        run(graph, e2, reading: [a])
        graph.changed(a)
        graph.changed(a)
        XCTAssertEqual(graph.takePending().sorted(), [e1, e2])
        XCTAssertEqual(graph.takePending(), [])
    }

    /// T02: inside a transaction a change reaches effects already pending
    /// (through a pending computed too) and queues them again — once per
    /// transaction, however many writes it makes; outside one, never.
    func testT02ATransactionQueuesWhatAlreadyWaitsOncePerTransaction() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let b = graph.newNode(.signal, owner: 0, slot: 0)
        let c = graph.newNode(.computed, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, c, reading: [a, b])
        graph.computedDone(c, changed: true)
        run(graph, e, reading: [c])
        graph.changed(a)                                  // a plain write: c and e wait
        XCTAssertEqual(graph.takePending(), [e])
        graph.changed(b)
        XCTAssertEqual(graph.takePending(), [], "outside a transaction, what waits is not queued again")
        lun_graph_transaction(graph.handle, 1)
        graph.changed(b)
        graph.changed(b)
        graph.changed(a)
        XCTAssertEqual(graph.takePending(), [e], "once per transaction, through the pending computed")
        lun_graph_transaction(graph.handle, 1)            // another transaction takes its place
        graph.changed(a)
        XCTAssertEqual(graph.takePending(), [e])
        lun_graph_transaction(graph.handle, 0)
        graph.changed(a)
        XCTAssertEqual(graph.takePending(), [])
        XCTAssertEqual(graph.node(e).flags & UInt16(LUN_GRAPH_RESENT), 0, "the marks go when it ends")
    }

    func testRefreshWalkRecomputesDeepestFirstAndStopsWhenNothingChanged() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let b = graph.newNode(.computed, owner: 0, slot: 0)
        let c = graph.newNode(.computed, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, b, reading: [a]); graph.computedDone(b, changed: true)
        run(graph, c, reading: [b]); graph.computedDone(c, changed: true)
        run(graph, e, reading: [c])
        graph.changed(a)
        // b is recomputed first; its value did not change, so neither c nor e needs to run
        guard case .recompute(let first) = graph.refreshBegin(e) else { return XCTFail("expected a recompute") }
        XCTAssertEqual(first, b)
        graph.beginRun(b); graph.track(sub: b, dep: a)
        graph.computedDone(b, changed: false)
        guard case .done = graph.refreshResume() else { return XCTFail("expected the walk to finish") }
        XCTAssertTrue(graph.isFresh(c))
    }

    func testRefreshWalkNamesTheEffectWhenAnInputChanged() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, e, reading: [a])
        graph.changed(a)
        guard case .recompute(let node) = graph.refreshBegin(e) else { return XCTFail("expected the effect") }
        XCTAssertEqual(node, e)
        graph.refreshAbort(to: 0)
        XCTAssertEqual(graph.refreshFrame, 0)
    }

    func testFreeingANodeUnlinksItAndRecyclesItsId() {
        let graph = Graph()
        let a = graph.newNode(.signal, owner: 0, slot: 0)
        let e = graph.newNode(.effect, owner: 0, slot: 0)
        run(graph, e, reading: [a])
        graph.freeNode(a)
        XCTAssertEqual(graph.dependencies(of: e), [])
        XCTAssertFalse(graph.isLive(a))
        XCTAssertEqual(graph.newNode(.signal, owner: 0, slot: 0), a)
    }

    func testLongChainsNeedNoRecursion() {
        let graph = Graph()
        let source = graph.newNode(.signal, owner: 0, slot: 0)
        var previous = source
        var chain: [Int32] = []
        for _ in 0..<100_000 {
            let c = graph.newNode(.computed, owner: 0, slot: 0)
            run(graph, c, reading: [previous])
            graph.computedDone(c, changed: true)
            chain.append(c)
            previous = c
        }
        graph.changed(source)
        var step = graph.refreshBegin(previous)
        var recomputed = 0
        while case .recompute(let node) = step {
            recomputed += 1
            graph.computedDone(node, changed: false)
            step = graph.refreshResume()
        }
        XCTAssertEqual(recomputed, 1)          // the first computed did not change: the rest are clean
        XCTAssertTrue(graph.isFresh(previous))
    }

    /// A collected ObservableObject gives back its whole-object node too (the
    /// node a view observing it reads): session 13's hostile read saw one
    /// leak per instance, the graph growing without bound outside the
    /// memory cap while Lua's heap stayed flat.
    func testACollectedObservableObjectGivesBackItsWholeObjectNode() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            Old = ui.ObservableObject("LeakOld", { p = ui.Published(1) })
            holder = ui.Observable("LeakHolder", { cur = false })()
            local V = ui.View("LeakView", { observedObject = { "o" }, body = function(self) return ui.Text(tostring(self.o.p)) end })
            app = ui.mount(ui.View("LeakRoot", function() return holder.cur and V { o = holder.cur } or ui.Text("none") end)())
            function replace(n)
              for _ = 1, n do holder.cur = Old(); ui.flush() end
              collectgarbage(); collectgarbage(); ui.flush()
            end
            """)
        _ = try runtime.evaluate("replace(20)")
        let settled = runtime.graph.liveNodes
        _ = try runtime.evaluate("replace(500)")
        XCTAssertLessThanOrEqual(runtime.graph.liveNodes, settled + 4,
                                 "500 more instances, each observed once and collected, left their nodes")
    }
}
