import LunetteBridge
import Observation

/// A book's author (the seeds' `Author`).
@Observable
public final class Author: LuaConstructible {
    public var name: String

    public init() {
        name = "Unknown Author"
    }

    public init(name: String) {
        self.name = name
    }

    public static let luaName = "Author"
    public static var luaProperties: [LuaProperty<Author>] {
        [LuaProperty("name", \.name)]
    }
}
