import Foundation

/// Where a runtime keeps `appStorage` values, as SwiftUI's `@AppStorage`
/// keeps them in `UserDefaults`.
///
/// Keys and values are bytes (R24): a Lua string is bytes, so a key comes
/// as the script wrote it, and a value comes encoded by the runtime with its
/// types (booleans, integers, floats with NaN and -0.0, strings as bytes,
/// tables with their key types). A store keeps the bytes and gives them back
/// exactly; it need not understand them.
///
/// The runtime calls its store on one serial queue of its own, never on two
/// threads at once and never on the runtime's thread: writes are handed
/// over at the end of a flush, in batches, so a slow or locked store never
/// holds the scripts' thread (R21); a read waits at most the time budget.
/// A store that throws never stops the script: a failed read gives the
/// default, a failed write keeps the value for the run; either failure is
/// reported (`LunetteRuntime.storageErrors`).
public protocol AppStorageStore: AnyObject {
    /// The bytes kept for `key`, or nil if none are.
    func value(forKey key: [UInt8]) throws -> [UInt8]?
    /// Keeps every change of one flush, in order: new bytes for a key, or
    /// nil to remove it. All or nothing, where the store can.
    func write(_ changes: [AppStorageChange]) throws
    /// `ui.reset()`, between two tests: a store for tests empties itself; a
    /// persistent store keeps what it holds (the default).
    func reset()
}

extension AppStorageStore {
    public func reset() {}
}

/// One change a flush made to app storage.
public struct AppStorageChange: Sendable, Equatable {
    /// The key, as the script's string's bytes.
    public let key: [UInt8]
    /// The new value's bytes, or nil: the key is removed.
    public let value: [UInt8]?

    public init(key: [UInt8], value: [UInt8]?) {
        self.key = key
        self.value = value
    }
}

/// Values kept in memory for the store's life: a runtime's default store,
/// and the one `lunette test` gives each test (emptied by `ui.reset()`).
public final class MemoryAppStorage: AppStorageStore, @unchecked Sendable {
    private let values = Locked<(entries: [[UInt8]: [UInt8]], bytes: Int)>(([:], 0))
    /// The most bytes (keys and values) it holds; a write past it fails whole.
    public let limit: Int

    /// A store in memory holding at most `limit` bytes (64 MiB by default:
    /// what scripts keep here is memory they make Swift hold, R19).
    public init(limit: Int = 64 << 20) { self.limit = limit }

    public func value(forKey key: [UInt8]) -> [UInt8]? { values.withLock { $0.entries[key] } }

    public func write(_ changes: [AppStorageChange]) throws {
        try values.withLock { held in
            var bytes = held.bytes, sizes: [[UInt8]: Int] = [:]    // what each key holds as the batch goes
            for change in changes {
                let old = sizes[change.key] ?? held.entries[change.key].map { change.key.count + $0.count } ?? 0
                let new = change.value.map { change.key.count + $0.count } ?? 0
                bytes += new - old
                sizes[change.key] = new
            }
            guard bytes <= limit else { throw AppStorageError("the app storage in memory holds at most \(limit >> 20) MiB") }
            for change in changes { held.entries[change.key] = change.value }
            held.bytes = bytes
        }
    }

    public func reset() { values.withLock { $0 = ([:], 0) } }
}

/// A store could not read or keep a value; the message says what to do.
public struct AppStorageError: Error, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
