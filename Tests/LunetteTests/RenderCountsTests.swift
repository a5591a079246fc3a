import XCTest
@testable import Lunette

/// R19: what an app keeps to count renders (`app:renders`) grows with the
/// view types it rendered, not with the largest type id — a script that
/// defines 100,000 view types and mounts many apps of the last one made
/// each app keep 100,000 counts, outside the memory cap.
final class RenderCountsTests: XCTestCase {
    func testR19CountsGrowWithTheTypesRenderedNotTheLargestId() {
        var counts = RenderCounts()
        counts.add(3)
        counts.add(100_000)
        counts.add(100_000)
        XCTAssertEqual(counts[3], 1)
        XCTAssertEqual(counts[100_000], 2)
        XCTAssertEqual(counts[7], 0)
        XCTAssertEqual(counts[-1], 0)
        XCTAssertLessThanOrEqual(counts.slots, 4 + 1, "three slots for ids up to 3, one for the large id")
    }
}
