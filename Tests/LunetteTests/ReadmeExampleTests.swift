import Lunette
import LunetteBridge
import Observation
import XCTest

/// The README's embedding example, kept working.
@Observable final class ReadmeBook: LuaConstructible {
    var title = "Sample Book Title"
    var isAvailable = true
    static let luaName = "Book"
    static var luaProperties: [LuaProperty<ReadmeBook>] {
        [LuaProperty("title", \.title), LuaProperty("isAvailable", \.isAvailable)]
    }
}

final class ReadmeExampleTests: XCTestCase {
    func testTheEmbeddingExample() throws {
        let runtime = try LunetteRuntime()
        try runtime.register(ReadmeBook.self)
        let book = ReadmeBook()
        try runtime.setGlobal("book", to: book)
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Title", function() return ui.Text(book.title) end)()
            """))
        book.title = "Dune"
        runtime.flush()
        XCTAssertEqual(runtime.text(of: app), "Title\n  Text \"Dune\"\n")
    }

    /// The README's REPL session (section "Exploring: lunette repl"), run as
    /// written: what it shows is what the REPL prints. Before, it had drifted
    /// (the example gained a NavigationStack, and a stack rendered twice in a
    /// flush), and a reader's own session disagreed with it.
    func testTheReadmesReplSessionIsWhatTheReplPrints() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let opening = "$ cd Examples/BookReader && lunette repl\n"
        let start = try XCTUnwrap(readme.range(of: opening), "the README's session").upperBound
        let end = try XCTUnwrap(readme.range(of: "\n```", range: start..<readme.endIndex)).lowerBound
        let shown = String(readme[start..<end]) + "\n"
        let input = shown.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { $0.dropFirst(2) }.joined(separator: "\n") + "\n"
        var printed = try pipedRepl([], in: "Examples/BookReader", input: input).output
        if printed.hasSuffix("> \n") { printed.removeLast(3) }   // the prompt after the last line
        XCTAssertEqual(printed, shown)
    }
}
