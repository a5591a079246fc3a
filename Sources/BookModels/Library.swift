import Lunette
import LunetteBridge
import Observation

/// The library of the seeds' book reader: books, and how many are available.
@Observable
public final class Library: LuaConstructible {
    public var books: [Book] = [Book(), Book(), Book()]

    /// Tracked through `books` and each book's `isAvailable`.
    public var availableBooksCount: Int {
        books.filter(\.isAvailable).count
    }

    public init() {}

    public init(books: [Book]) {
        self.books = books
    }

    public static let luaName = "Library"
    public static var luaProperties: [LuaProperty<Library>] {
        [
            LuaProperty("books", \.books),
            LuaProperty("availableBooksCount", readOnly: \.availableBooksCount),
        ]
    }
}

/// The seeds' models, for hosts that want them all.
public enum BookModels {
    /// Registers `Library`, `Book` and `Author` with a runtime.
    public static func register(in runtime: LunetteRuntime) throws {
        try runtime.register(Author.self)
        try runtime.register(Book.self)
        try runtime.register(Library.self)
    }
}
