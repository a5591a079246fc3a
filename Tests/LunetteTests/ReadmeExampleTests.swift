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
}
