import BookModels
import Dispatch
import Lunette
import Synchronization
import XCTest

/// Swift models changed from other threads while Lua views render (SEMANTICS S35, TARGETS R7).
final class ThreadTests: XCTestCase {
    func testS35ChangesFromOtherThreadsAreSafeAndRenderedAtTheNextFlush() throws {
        let runtime = try LunetteRuntime()
        try BookModels.register(in: runtime)
        let books = (0..<8).map { Book(title: "Book \($0)") }
        let library = Library(books: books)
        try runtime.setGlobal("library", to: library)
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            local Row = ui.View("Row", function(self)
              return ui.Text(self.book.title .. (self.book.isAvailable and " in" or " out"))
            end)
            return ui.View("Shelf", function()
              return ui.VStack {
                ui.Text("available " .. library.availableBooksCount),
                ui.ForEach(library.books, function(book) return Row { book = book } end),
              }
            end)()
            """))
        let posts = Atomic<Int>(0)
        runtime.onModelChange { posts.add(1, ordering: .relaxed) }
        let group = DispatchGroup()
        for (t, book) in books.enumerated() {
            DispatchQueue.global().async(group: group) {
                for i in 0..<2_000 {
                    book.title = "T\(t)-\(i)"
                    if i % 3 == 0 { book.isAvailable.toggle() }
                }
            }
        }
        while group.wait(timeout: .now() + .milliseconds(1)) == .timedOut { runtime.flush() }
        runtime.flush()
        let tree = runtime.text(of: app)
        for (t, book) in books.enumerated() {
            XCTAssertTrue(tree.contains("T\(t)-1999" + (book.isAvailable ? " in" : " out")), tree)
        }
        XCTAssertTrue(tree.contains("available \(library.availableBooksCount)"), tree)
        XCTAssertGreaterThan(posts.load(ordering: .relaxed), 0)
    }

    /// A host author's report: a model changed after its runtime was let go
    /// still called the runtime's `onModelChange` (its observations held the
    /// inbox, which held the host's callback): a wake for no one.
    func testAModelChangedAfterItsRuntimeWentWakesNoOne() throws {
        let book = Book(title: "Kept")
        let posts = Atomic<Int>(0)
        do {
            let runtime = try LunetteRuntime()
            try BookModels.register(in: runtime)
            try runtime.setGlobal("book", to: book)
            _ = try runtime.run(source: """
                local ui = require("lunette")
                return ui.View("Title", function() return ui.Text(book.title) end)()
                """)
            runtime.onModelChange { posts.add(1, ordering: .relaxed) }
        }
        book.title = "After"                             // its view's observation was still registered
        XCTAssertEqual(posts.load(ordering: .relaxed), 0, "the runtime is gone: no wake")
    }
}
