import Lunette
import LunetteBridge
import Observation

/// A book's author (the seeds' `Author`).
///
/// Like every model here, its storage is behind a lock, so a host may change
/// it from any thread while Lua views read it (SEMANTICS S35).
@Observable
public final class Author: LuaConstructible, @unchecked Sendable {
    @ObservationIgnored private let storage: Locked<String>

    public var name: String {
        get {
            access(keyPath: \.name)
            return storage.withLock { $0 }
        }
        set {
            withMutation(keyPath: \.name) { storage.withLock { $0 = newValue } }
        }
    }

    public convenience init() {
        self.init(name: "Unknown Author")
    }

    public init(name: String) {
        storage = Locked(name)
    }

    public static let luaName = "Author"
    public static var luaProperties: [LuaProperty<Author>] {
        [LuaProperty("name", \.name)]
    }
}
