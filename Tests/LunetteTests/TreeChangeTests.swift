import BookModels
import Dispatch
import Lunette
import XCTest

/// Issue 18, item 6: `onTreeChange` reports exactly the views that rendered anew, once.
final class TreeChangeTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        local Box = ui.Observable("Box", { n = 0 })
        box = Box()
        local Title = ui.View("Title", function() return ui.Text(book.title) end)
        local Count = ui.View("Count", function() return ui.Text("n " .. box.n) end)
        return ui.VStack { Title {}, Count {} }
        """

    private func makeRuntime() throws -> (LunetteRuntime, Book) {
        let runtime = try LunetteRuntime()
        try BookModels.register(in: runtime)
        let book = Book(title: "Emma")
        try runtime.setGlobal("book", to: book)
        return (runtime, book)
    }

    /// The mount of `run` is reported when it happens, and does not leak into the next flush's report.
    func testTheMountIsReportedAndTheNextFlushReportsOnlyWhatChanged() throws {
        let (runtime, _) = try makeRuntime()
        var heard: [[String]] = []
        runtime.onTreeChange { heard.append($0.views) }
        try runtime.run(source: script)
        XCTAssertEqual(heard, [["Title#1", "Count#1"]])
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(heard, [["Title#1", "Count#1"], ["Count#1"]])
        runtime.flush()
        XCTAssertEqual(heard.count, 2)                       // nothing new: not called
    }

    /// A change made on another thread is reported at the flush that renders it, and
    /// not again at the next, unrelated flush (which settles it once more).
    func testAChangeFromAnotherThreadIsReportedOnce() throws {
        let (runtime, book) = try makeRuntime()
        try runtime.run(source: script)
        var heard: [[String]] = []
        runtime.onTreeChange { heard.append($0.views) }
        let changed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            book.title = "Dune"
            changed.signal()
        }
        changed.wait()
        runtime.flush()
        XCTAssertEqual(heard, [["Title#1"]])
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(heard, [["Title#1"], ["Count#1"]])
        runtime.flush()
        XCTAssertEqual(heard.count, 2)
    }

    /// A view whose body ran again to the same output is not news.
    func testABodyThatRendersTheSameOutputIsNotReported() throws {
        let runtime = try LunetteRuntime()
        try runtime.run(source: """
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            local Parity = ui.View("Parity", function() return ui.Text(box.n % 2 == 0 and "even" or "odd") end)
            return Parity {}
            """)
        var heard: [[String]] = []
        runtime.onTreeChange { heard.append($0.views) }
        _ = try runtime.evaluate("box.n = 2")
        runtime.flush()
        XCTAssertEqual(heard, [])
        _ = try runtime.evaluate("box.n = 3")
        runtime.flush()
        XCTAssertEqual(heard, [["Parity#1"]])
    }
}
