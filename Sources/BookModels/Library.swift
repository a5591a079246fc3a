import Lunette
import LunetteBridge
import Observation

/// The library of the seeds' book reader: books, and how many are available.
/// Thread-safe, like `Book`.
@Observable
public final class Library: LuaConstructible, @unchecked Sendable {
    @ObservationIgnored private let storage: Locked<[Book]>

    public var books: [Book] {
        get {
            access(keyPath: \.books)
            return storage.withLock { $0 }
        }
        set {
            withMutation(keyPath: \.books) { storage.withLock { $0 = newValue } }
        }
    }

    /// Tracked through `books` and each book's `isAvailable`.
    public var availableBooksCount: Int {
        books.filter(\.isAvailable).count
    }

    public convenience init() {
        self.init(books: [Book(), Book(), Book()])
    }

    public init(books: [Book]) {
        storage = Locked(books)
    }

    /// Adds a book (one locked step, safe from any thread).
    public func add(_ book: Book) {
        withMutation(keyPath: \.books) { storage.withLock { $0.append(book) } }
    }

    /// How many books have `title`.
    public func count(titled title: String) -> Int {
        books.filter { $0.title == title }.count
    }

    public static var luaMethods: [LuaMethod<Library>] {
        [LuaMethod("add", Library.add), LuaMethod("countTitled", Library.count(titled:))]
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
