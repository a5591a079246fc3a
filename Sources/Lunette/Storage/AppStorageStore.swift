import Foundation

/// Where a runtime keeps `appStorage` values, as SwiftUI's `@AppStorage`
/// keeps them in `UserDefaults`.
///
/// The runtime calls its store on its own thread only: when a view first
/// reads a key, and at the end of each flush for the keys written in it.
/// Values are booleans, numbers, strings, and lists and tables of them
/// (`LuaValue` without objects or arrays); `.none` means "remove the key".
/// A store that throws never stops the script: a failed read gives the
/// default, and either failure is reported (`LunetteRuntime.storageErrors`).
public protocol AppStorageStore: AnyObject {
    /// The value kept for `key`, or nil if none is.
    func value(forKey key: String) throws -> LuaValue?
    /// Keeps `value` for `key`; `.none` removes the key.
    func setValue(_ value: LuaValue, forKey key: String) throws
    /// `ui.reset()`, between two tests: a store for tests empties itself; a
    /// persistent store keeps what it holds (the default).
    func reset()
}

extension AppStorageStore {
    public func reset() {}
}

/// Values kept in memory for the store's life: a runtime's default store,
/// and the one `lunette test` gives each test (emptied by `ui.reset()`).
public final class MemoryAppStorage: AppStorageStore {
    private var values: [String: LuaValue] = [:]

    public init() {}

    public func value(forKey key: String) -> LuaValue? { values[key] }

    public func setValue(_ value: LuaValue, forKey key: String) {
        if case .none = value { values[key] = nil } else { values[key] = value }
    }

    public func reset() { values = [:] }
}

/// A store could not read or keep a value; the message says what to do.
public struct AppStorageError: Error, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
