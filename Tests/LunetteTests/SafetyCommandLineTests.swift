import Foundation
import XCTest
import Lunette

/// Issue 16 from the command line: options that could trap or keep nothing
/// are refused with a message naming the option and the value.
extension CommandLineTests {

    /// string.find, match, gmatch and gsub are Lunette's (their matching
    /// looks at the budget): on thousands of generated subjects, patterns,
    /// starts and replacements they answer as Lua's own do, errors included
    /// (Tests/Patterns/differential.lua prints every answer; the stock
    /// interpreter and `lunette run` must print the same).
    func testPatternMatchingAnswersAsLuasOwn() throws {
        let script = root.appendingPathComponent("Tests/Patterns/differential.lua").path
        let stock = Process()
        stock.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/lua5.4"), "lua5.4 is not installed")
        stock.arguments = [script, "17", "8000"]
        let out = Pipe()
        stock.standardOutput = out
        try stock.run()
        let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        stock.waitUntilExit()
        let ours = try lunette(["run", "--time-budget", "600", script, "17", "8000"])
        XCTAssertEqual(ours.status, 0, ours.errors)
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = ours.output.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) where x != y { XCTFail("stock: \(x)\nours:  \(y)"); break }
    }
    private func script(_ source: String) throws -> URL { try temporaryScript(source, named: "safety") }

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
