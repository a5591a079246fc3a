import Foundation
import XCTest
import Lunette

/// Issue 16 from the command line: options that could trap or keep nothing
/// are refused with a message naming the option and the value.
extension CommandLineTests {
    private func script(_ source: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("safety_\(UUID().uuidString).lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testR19OptionsOutOfRangeAreRefusedNamingTheValue() throws {
        let file = try script("return require('lunette').Text('x')")
        defer { try? FileManager.default.removeItem(at: file) }
        let cases: [([String], String)] = [
            (["run", "--memory-limit", "8796093022208", file.path], "--memory-limit must be a number of megabytes from 1 to"),
            (["repl", "--memory-limit", "8796093022208"], "got 8796093022208"),
            (["preview", "--memory-limit", "8796093022208", file.path], "--memory-limit"),
            (["run", "--time-budget", "1e300", file.path], "--time-budget must be a number of seconds"),
            (["run", "--time-budget", "1e-10", file.path], "--time-budget must be a number of seconds from 0.001"),
            (["run", "--for", "nan", file.path], "--for must be a number of seconds"),
            (["run", "--storage", "", file.path], "--storage needs a file name"),
            (["test", "--timeout=-1", file.path], "--timeout must be"),
        ]
        for (arguments, message) in cases {
            let result = try lunette(arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)")
            XCTAssertFalse(result.errors.contains("Fatal error"), result.errors)
        }
    }
}
