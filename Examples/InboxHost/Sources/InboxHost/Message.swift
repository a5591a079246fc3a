import Foundation
import LunetteBridge
import Observation
import Synchronization

/// Where a message is filed. Crosses to Lua as its raw value: `"inbox"`.
enum Folder: String, LuaConvertible, Sendable {
    case inbox, archive, spam
}

/// One message. The network thread marks messages read while Lua views read
/// them, so its state lives behind a `Mutex`: every property reads and writes
/// under the lock, inside Observation's `access` / `withMutation`, which is
/// what lets Lua views re-render when it changes. Having no unguarded stored
/// property, the class is `Sendable` — checked by the compiler, not promised.
@Observable final class Message: LuaExposed, Sendable {
    private struct State: Sendable {
        var subject: String
        var sender: String
        var date: Date
        var folder: Folder
        var isRead: Bool
    }

    @ObservationIgnored private let state: Mutex<State>

    init(subject: String, sender: String, date: Date, folder: Folder = .inbox, isRead: Bool = false) {
        state = Mutex(State(subject: subject, sender: sender, date: date, folder: folder, isRead: isRead))
    }

    var subject: String {
        get { read(\.subject, \.subject) }
        set { write(\.subject, \.subject, newValue) }
    }
    var sender: String {
        get { read(\.sender, \.sender) }
        set { write(\.sender, \.sender, newValue) }
    }
    var date: Date {
        get { read(\.date, \.date) }
        set { write(\.date, \.date, newValue) }
    }
    var folder: Folder {
        get { read(\.folder, \.folder) }
        set { write(\.folder, \.folder, newValue) }
    }
    var isRead: Bool {
        get { read(\.isRead, \.isRead) }
        set { write(\.isRead, \.isRead, newValue) }
    }

    private func read<T: Sendable>(_ property: KeyPath<Message, T>, _ field: KeyPath<State, T>) -> T {
        access(keyPath: property)
        return state.withLock { $0[keyPath: field] }
    }

    private func write<T: Sendable>(_ property: KeyPath<Message, T>, _ field: WritableKeyPath<State, T>, _ value: T) {
        withMutation(keyPath: property) { state.withLock { $0[keyPath: field] = value } }
    }

    // What Lua sees: `message.subject`, `message.date` (seconds since 1970), `message.folder` ("inbox").
    static let luaName = "Message"
    static var luaProperties: [LuaProperty<Message>] {
        [LuaProperty("subject", \.subject), LuaProperty("sender", \.sender), LuaProperty("date", \.date),
         LuaProperty("folder", \.folder), LuaProperty("isRead", \.isRead)]
    }
}
