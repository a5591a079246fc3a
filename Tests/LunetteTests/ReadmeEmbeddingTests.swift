import Foundation
import XCTest

/// Issue 18: the README's "Embedding in Swift" shows the code that runs —
/// every line of its Swift blocks is a line of Examples/InboxHost, which
/// scripts/test builds in Swift 6 mode and runs against its expected output.
final class ReadmeEmbeddingTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    private func section() throws -> String {
        let readme = try read("README.md")
        let start = try XCTUnwrap(readme.range(of: "## Embedding in Swift\n"))
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    private func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```swift" { current = [] }
            else if current != nil, line == "```" { blocks.append(current!); current = nil }
            else if current != nil { current!.append(line) }
        }
        return blocks
    }

    func testEveryLineOfTheEmbeddingSectionsCodeIsInTheExampleHost() throws {
        let host = "Examples/InboxHost"
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("\(host)/Sources/InboxHost").path)
            .filter { $0.hasSuffix(".swift") }.map { "\(host)/Sources/InboxHost/\($0)" }
        let lines = Set(try (["\(host)/Package.swift"] + sources).flatMap { try read($0).components(separatedBy: "\n") }
            .map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = swiftBlocks(in: try section())
        XCTAssertGreaterThanOrEqual(blocks.count, 5)
        for line in blocks.joined() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            XCTAssertTrue(lines.contains(line.trimmingCharacters(in: .whitespaces)), "not in \(host): \(line)")
        }
    }

    func testTheOutputItQuotesIsTheHostsOutput() throws {
        let output = try read("Examples/InboxHost/expected-output.txt")
        for quoted in ["refused: (evaluate):1: Inbox:move: no message is titled 'Nope'",
                       "stopped: hostile:1: ran longer than its time budget (0.5s)", "stopped: not enough memory",
                       "archived Welcome: redrawn Header#1, InboxView#1"] {
            XCTAssertTrue(output.contains(quoted), quoted)
        }
    }
}
