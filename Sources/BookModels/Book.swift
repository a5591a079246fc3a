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
        get { read(\.title, \.title) }
        set { write(\.title, \.title, newValue) }
    }

    public var author: Author {
        get { read(\.author, \.author) }
        set { write(\.author, \.author, newValue) }
    }

    public var isAvailable: Bool {
        get { read(\.isAvailable, \.isAvailable) }
        set { write(\.isAvailable, \.isAvailable, newValue) }
    }

    /// Reads a field under the lock, registering the access with Observation.
    private func read<T>(_ property: KeyPath<Book, T>, _ field: KeyPath<State, T>) -> T {
        access(keyPath: property)
        return storage.withLock { $0[keyPath: field] }
    }

    /// Writes a field under the lock, inside Observation's willSet/didSet.
    private func write<T>(_ property: KeyPath<Book, T>, _ field: WritableKeyPath<State, T>, _ value: T) {
        withMutation(keyPath: property) { storage.withLock { $0[keyPath: field] = value } }
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
