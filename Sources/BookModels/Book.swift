import Lunette
import LunetteBridge
import Observation

/// A book in the library (the seeds' `Book`). Thread-safe, like `Author`.
@Observable
public final class Book: Identifiable, LuaConstructible, @unchecked Sendable {
    private struct State {
        var title: String
        var author: Author
        var isAvailable: Bool
    }

    @ObservationIgnored private let storage: Locked<State>

    public var title: String {
        get {
            access(keyPath: \.title)
            return storage.withLock { $0.title }
        }
        set {
            withMutation(keyPath: \.title) { storage.withLock { $0.title = newValue } }
        }
    }

    public var author: Author {
        get {
            access(keyPath: \.author)
            return storage.withLock { $0.author }
        }
        set {
            withMutation(keyPath: \.author) { storage.withLock { $0.author = newValue } }
        }
    }

    public var isAvailable: Bool {
        get {
            access(keyPath: \.isAvailable)
            return storage.withLock { $0.isAvailable }
        }
        set {
            withMutation(keyPath: \.isAvailable) { storage.withLock { $0.isAvailable = newValue } }
        }
    }

    public convenience init() {
        self.init(title: "Sample Book Title")
    }

    public init(title: String, author: Author = Author(), isAvailable: Bool = true) {
        storage = Locked(State(title: title, author: author, isAvailable: isAvailable))
    }

    public static let luaName = "Book"
    public static var luaProperties: [LuaProperty<Book>] {
        [
            LuaProperty("title", \.title),
            LuaProperty("author", \.author),
            LuaProperty("isAvailable", \.isAvailable),
        ]
    }
}
