import Foundation
import Lunette
import XCTest

/// Issue 16, the Swift side: what a host or Swift does for a script stays
/// bounded (TARGETS R18-R26). Each case failed before its mechanism.
final class SafetyTests: XCTestCase {
    func testR19AnEmbeddingsOptionsOutOfRangeAreRefusedNotTrapped() {
        let bad: [LunetteRuntime.Options] = [
            .init(memoryLimit: -1), .init(memoryLimit: Int.max), .init(timeBudget: -1),
            .init(timeBudget: .infinity), .init(timeBudget: .nan), .init(renderLoopLimit: 0),
        ]
        for options in bad {
            XCTAssertThrowsError(try LunetteRuntime(options: options)) { error in
                XCTAssertTrue("\(error)".hasPrefix("Options."), "\(error)")
            }
        }
        XCTAssertNoThrow(try LunetteRuntime(options: .init(memoryLimit: 0, timeBudget: 0)))
    }
}
