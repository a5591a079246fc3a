import BookModels
import XCTest
@testable import Lunette
import LunetteBridge

/// Swift @Observable models seen from Lua through LunetteBridge.
final class BridgeTests: XCTestCase {
    private var runtime: LunetteRuntime!
    private var library: Library!

    override func setUpWithError() throws {
        runtime = try LunetteRuntime()
        try BookModels.register(in: runtime)
        library = Library(books: [Book(title: "Dune"), Book(title: "Emma"), Book(title: "Ulysses")])
        try runtime.setGlobal("library", to: library)
    }

    private let counterView = """
    local ui = require("lunette")
    Count = ui.View("Count", function()
      return ui.Text("Books available: " .. library.availableBooksCount)
    end)
    Titles = ui.View("Titles", function()
      local titles = {}
      for _, book in ipairs(library.books) do titles[#titles + 1] = book.title end
      return ui.Text(table.concat(titles, ","))
    end)
    return ui.VStack { Count(), Titles() }
    """

    func testLuaReadsSwiftProperties() throws {
        XCTAssertEqual(try runtime.evaluate("return library.books[1].title, #library.books, library.availableBooksCount"),
                       ["Dune", "3", "3"])
        XCTAssertEqual(try runtime.evaluate("return tostring(library), tostring(library.books[2])"),
                       ["Library#1", "Book#2"])
    }

    /// F08, F12: a property a Swift model does not have is an error naming the type, the name and the near one.
    func testF12AMisspeltSwiftPropertyIsAnErrorWithASuggestion() throws {
        XCTAssertThrowsError(try runtime.evaluate("return library.book")) { error in
            XCTAssertTrue("\(error)".contains("Library has no property 'book' visible to Lua to read (did you mean 'books'?)"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("library.books[1].titel = 'x'")) { error in
            XCTAssertTrue("\(error)".contains("Book has no property 'titel' visible to Lua to write (did you mean 'title'?)"), "\(error)")
        }
    }

    /// Names Lua could not tell apart or C would cut are refused (a hostile
    /// read: a line break split one property into two and every later one
    /// read the wrong key path; a NUL cut a type's or a global's name; a
    /// second type of one name replaced the first).
    func testRegisterRefusesNamesLuaCouldNotTellApart() throws {
        final class Thing {}
        final class Other {}
        func type(_ name: String, _ properties: [String], swiftType: AnyObject.Type = Thing.self) -> HostType {
            HostType(name: name, swiftType: swiftType, properties: properties.map {
                HostType.Property(name: $0, get: { _ in .int(1) }, set: nil, observe: { _, _ in })
            }, make: nil)
        }
        let cases: [(HostType, String)] = [
            (type("Thing", ["a\nb", "c"]), "property \"a\\nb\" must be a name without line breaks"),
            (type("Thing", ["a", "a"]), "\"a\" is named twice"),
            (type("Bad\0Name", ["a"]), "the type's name"),
            (type("Thing", [""]), "must be a name"),
        ]
        for (hostType, message) in cases {
            XCTAssertThrowsError(try runtime.register(hostType)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        try runtime.register(type("Thing", ["a"]))
        XCTAssertThrowsError(try runtime.register(type("Thing", ["b"], swiftType: Other.self))) { error in
            XCTAssertTrue("\(error)".contains("is registered under that name already"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.setGlobal("ab\0cd", to: library!)) { error in
            XCTAssertTrue("\(error)".contains("a name may not hold a NUL"), "\(error)")
        }
    }

    /// Issue 9: reading an element of a Swift array reads that element, not a copy of the whole
    /// array (ipairs over a Swift array was quadratic). The array getter is never called.
    func testElementsOfASwiftArrayAreReadOneAtATime() throws {
        final class Item {}
        final class Shelf { var items = (0..<1000).map { _ in Item() } }
        nonisolated(unsafe) var wholeArrayReads = 0
        let shelfType = HostType(name: "Shelf", swiftType: Shelf.self, properties: [
            HostType.Property(name: "items",
                              get: { object in wholeArrayReads += 1; return .array((object as! Shelf).items) },
                              set: nil, observe: { _, _ in },
                              elements: .init(count: { ($0 as! Shelf).items.count },
                                              element: { ($0 as! Shelf).items[$1] })),
        ], make: nil)
        try runtime.register(HostType(name: "Item", swiftType: Item.self, properties: [], make: nil))
        try runtime.register(shelfType)
        try runtime.setGlobal("shelf", to: Shelf())
        XCTAssertEqual(try runtime.evaluate("""
            local n = 0
            for _, item in ipairs(shelf.items) do n = n + 1 end
            return n, #shelf.items, tostring(shelf.items[1000] ~= nil), tostring(shelf.items[1001])
            """), ["1000", "1000", "true", "nil"])
        XCTAssertEqual(wholeArrayReads, 0)
    }

    /// Issue 12 (10): a host exposes methods; arguments convert and are checked as properties are.
    func testLuaCallsDeclaredSwiftMethods() throws {
        XCTAssertEqual(try runtime.evaluate("""
            library:add(ui.types.Book())
            return #library.books, library:countTitled("Dune"), library:countTitled("Sample Book Title")
            """.replacingOccurrences(of: "ui.types", with: "require('lunette').types")), ["4", "1", "1"])
        XCTAssertEqual(library.books.count, 4)
        XCTAssertThrowsError(try runtime.evaluate("library:add('not a book')")) { error in
            XCTAssertTrue("\(error)".contains("Library:add: expected Book as argument 1, got string"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("library:countTitled()")) { error in
            XCTAssertTrue("\(error)".contains("expected 1 argument, got 0"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.evaluate("local add = library.add; add(42)")) { error in
            XCTAssertTrue("\(error)".contains("Swift object"), "\(error)")   // a method checks its self
        }
    }

    func testLuaWritesSwiftProperties() throws {
        try runtime.run(source: "library.books[2].isAvailable = false; library.books[1].title = 'Dune Messiah'")
        XCTAssertFalse(library.books[1].isAvailable)
        XCTAssertEqual(library.books[0].title, "Dune Messiah")
        try runtime.run(source: "local ui = require('lunette'); table.insert(library.books, ui.types.Book()); table.remove(library.books, 1)")
        XCTAssertEqual(library.books.map(\.title), ["Emma", "Ulysses", "Sample Book Title"])
    }

    func testAChangeMadeInSwiftReRendersTheLuaViewsThatReadIt() throws {
        let app = try XCTUnwrap(try runtime.run(source: counterView))
        XCTAssertTrue(runtime.text(of: app).contains("Books available: 3"))
        library.books[0].isAvailable = false       // computed in Swift, tracked through what it reads
        runtime.flush()
        XCTAssertTrue(runtime.text(of: app).contains("Books available: 2"))
        XCTAssertEqual(app.renders(of: "Titles"), 1)
        library.books[2].title = "Odyssey"
        runtime.flush()
        XCTAssertTrue(runtime.text(of: app).contains("Dune,Emma,Odyssey"))
        XCTAssertEqual(app.renders(of: "Count"), 2)
        library.books.append(Book(title: "Beloved"))
        runtime.flush()
        XCTAssertTrue(runtime.text(of: app).contains("Books available: 3"))
        XCTAssertTrue(runtime.text(of: app).contains("Odyssey,Beloved"))
    }

    func testRendersThatReadAnUnchangedPropertyKeepOneRegistration() throws {
        try runtime.run(source: """
            local ui = require("lunette")
            Store = ui.Observable("Store", { n = 0 })
            store = Store()
            ui.mount(ui.View("Reader", function()
              return ui.Text(store.n .. " " .. library.books[1].title)
            end)())
            """)
        for i in 1...2_000 {
            try runtime.run(source: "store.n = \(i)")
            runtime.flush()
        }
        // the next Swift mutation is seen once, promptly
        library.books[0].title = "Changed"
        runtime.flush()
        XCTAssertTrue(runtime.text(of: runtime.apps[0]).contains("2000 Changed"))
        XCTAssertEqual(runtime.hosts.liveRegistrations, 2)  // books of library, title of books[0]
    }

    func testConversionErrorsNameThePropertyAndTheValue() {
        XCTAssertThrowsError(try runtime.run(source: "library.books[1].title = {}", name: "@edit.lua")) { error in
            XCTAssertEqual("\(error)", "edit.lua:1: cannot set 'title': expected string, got list")   // tables cross now (T09)
        }
        XCTAssertThrowsError(try runtime.run(source: "library.books[1].isAvailable = 'yes'", name: "@edit.lua")) { error in
            XCTAssertEqual("\(error)", "edit.lua:1: cannot set 'isAvailable': expected boolean, got string")
        }
        XCTAssertThrowsError(try runtime.run(source: "library.availableBooksCount = 1", name: "@edit.lua")) { error in
            XCTAssertEqual("\(error)", "edit.lua:1: 'availableBooksCount' is read-only")
        }
    }

    func testObjectsKeepTheirIdentityInLua() throws {
        XCTAssertEqual(try runtime.evaluate("local ui = require('lunette'); return library.books[1] == library.books[1], ui.id(library.books[1])"),
                       ["true", "Book#1"])
    }
}
