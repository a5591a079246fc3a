import LunetteBridge
import Observation

/// A book in the library (the seeds' `Book`).
@Observable
public final class Book: Identifiable, LuaConstructible {
    public var title = "Sample Book Title"
    public var author = Author()
    public var isAvailable = true

    public init() {}

    public init(title: String, author: Author = Author(), isAvailable: Bool = true) {
        self.title = title
        self.author = author
        self.isAvailable = isAvailable
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
