@testable import Lunette
import XCTest

/// The runtime's clock keeps what is due; what a script schedules and
/// cancels is bounded. A hostile read: a view whose task slept 10 s,
/// mounted and unmounted in a loop with nothing running what fell due (a
/// host's own loop, the loadable module), kept every cancelled sleep, and
/// each cancel scanned them all — 100 B a cycle, and quadratic time.
final class ClockTests: XCTestCase {
    func testCancelledEntriesDoNotAccumulateAndCostTheSame() {
        let clock = Clock(mode: .virtual)
        for id in Int32(1)...20_000 {
            clock.schedule(kind: 1, id: id, after: 10, every: 0)
            clock.cancel(kind: 1, id: id)
        }
        XCTAssertFalse(clock.hasPending)
        XCTAssertLessThanOrEqual(clock.waiting, 130, "the dead are dropped once they outnumber the live")
        clock.schedule(kind: 1, id: 7, after: 1, every: 0)
        XCTAssertTrue(clock.hasPending)
        clock.setVirtualNow(20)
        XCTAssertEqual(clock.popDue(upTo: 20)?.id, 7)
        XCTAssertNil(clock.popDue(upTo: 20))
    }

    /// An id scheduled again after a cancel (a task's slot taken by another)
    /// wakes at its own time, not at the cancelled entry's.
    func testAKeyScheduledAgainAfterACancelWakesOnlyAtItsOwnTime() {
        let clock = Clock(mode: .virtual)
        clock.schedule(kind: 2, id: 1, after: 1, every: 0)
        clock.cancel(kind: 2, id: 1)
        clock.schedule(kind: 2, id: 1, after: 5, every: 0)
        clock.setVirtualNow(2)
        XCTAssertNil(clock.popDue(upTo: 2), "the cancelled entry came back")
        clock.setVirtualNow(5)
        XCTAssertEqual(clock.popDue(upTo: 5)?.due, 5)
        XCTAssertFalse(clock.hasPending)
    }

    /// Live entries among many dead ones still come out in due order.
    func testEntriesComeOutInOrderAcrossCompactions() {
        let clock = Clock(mode: .virtual)
        for id in Int32(1)...1_000 { clock.schedule(kind: 1, id: id, after: Double(id % 97), every: 0) }
        for id in Int32(1)...1_000 where id % 3 != 0 { clock.cancel(kind: 1, id: id) }
        clock.setVirtualNow(1_000)
        var last = -1.0, count = 0
        while let entry = clock.popDue(upTo: 1_000) {
            XCTAssertEqual(entry.id % 3, 0)
            XCTAssertGreaterThanOrEqual(entry.due, last)
            last = entry.due
            count += 1
        }
        XCTAssertEqual(count, 333)
    }
}
