import Foundation
import XCTest

/// The `lunette` executable, run as a person would (needs `swift build` first, as scripts/test does).
final class CommandLineTests: XCTestCase {
    private var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private func lunette(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    func testRunningTheBookReaderExampleShowsItsLibrary() throws {
        let result = try lunette(["run", "Examples/BookReader/BookReader.lua"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("List .navigationTitle(\"Books available: 3\")"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "Button \"Check out\"").count, 4)
    }

    func testASyntaxErrorIsReportedWithItsLineAndExitCode1() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken_\(UUID().uuidString).lua")
        try "local ui = require('lunette')\nreturn ui.Text('x'\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("\(file.lastPathComponent):3:"), result.errors)
    }

    func testTheTestRunnerCountsAndFailsOnFailure() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sample_\(UUID().uuidString)_spec.lua")
        try """
        describe("sample", function()
          it("passes", function() assert.equal(1, 1) end)
          it("fails", function() assert.equal(1, 2) end)
          pending("later")
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 1 failed, 1 skipped\n"), result.output)
        XCTAssertTrue(result.output.contains(":3: expected 1, got 2"), result.output)
    }
}
