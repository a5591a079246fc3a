import Foundation
import LunetteBridge
import Observation
import Synchronization

/// A mailbox: its messages (an array of objects Lua reads one at a time), and
/// what a script may ask of it — one method of each shape.
@Observable final class Inbox: LuaExposed, Sendable {
    /// A method refused what Lua asked: its message becomes the Lua error's.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    @ObservationIgnored private let storage = Mutex<[Message]>([])

    /// Messages arrive on the network thread: the array is guarded like a message's fields.
    var messages: [Message] {
        get {
            access(keyPath: \.messages)
            return storage.withLock { $0 }
        }
        set { withMutation(keyPath: \.messages) { storage.withLock { $0 = newValue } } }
    }

    /// Read by views: tracked through `messages` and each message's `isRead` and `folder`.
    var unreadCount: Int { messages.filter { !$0.isRead && $0.folder == .inbox }.count }

    /// A message from the network (any thread): one locked step.
    func receive(_ message: Message) {
        withMutation(keyPath: \.messages) { storage.withLock { $0.append(message) } }
    }

    // One method of each shape. Views read properties (tracked); actions call methods.

    /// () -> Void
    func archiveRead() {
        for message in messages where message.isRead && message.folder == .inbox { message.folder = .archive }
    }

    /// () -> Int
    func total() -> Int { messages.count }

    /// (Folder) -> Void
    func markAllRead(in folder: Folder) {
        for message in messages where message.folder == folder { message.isRead = true }
    }

    /// (Folder) -> Int
    func count(in folder: Folder) -> Int { messages.filter { $0.folder == folder }.count }

    /// (String, Folder) throws -> Void
    func move(_ subject: String, to folder: Folder) throws {
        guard let message = messages.first(where: { $0.subject == subject }) else {
            throw Refusal(description: "no message is titled '\(subject)'")
        }
        message.folder = folder
    }

    /// (String, String, String) -> Message
    func reply(to subject: String, from sender: String, saying text: String) -> Message {
        let reply = Message(subject: "Re: \(subject)", sender: sender, date: Date(), isRead: true)
        receive(reply)
        return reply
    }

    /// (String, String, Int, Folder) throws -> Message
    func schedule(_ subject: String, from sender: String, inMinutes minutes: Int, to folder: Folder) throws -> Message {
        guard minutes >= 0 else { throw Refusal(description: "cannot schedule \(minutes) minutes ago") }
        let message = Message(subject: subject, sender: sender, date: Date().addingTimeInterval(Double(minutes) * 60),
                              folder: folder)
        receive(message)
        return message
    }

    static let luaName = "Inbox"
    static var luaProperties: [LuaProperty<Inbox>] {
        [LuaProperty("messages", \.messages), LuaProperty("unreadCount", readOnly: \.unreadCount)]
    }
    static var luaMethods: [LuaMethod<Inbox>] {
        [LuaMethod("archiveRead", Inbox.archiveRead), LuaMethod("total", Inbox.total),
         LuaMethod("markAllRead", Inbox.markAllRead), LuaMethod("count", Inbox.count),
         LuaMethod("move", Inbox.move), LuaMethod("reply", Inbox.reply), LuaMethod("schedule", Inbox.schedule)]
    }
}
