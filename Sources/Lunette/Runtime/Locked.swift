import Foundation

/// A value behind a lock (a pthread mutex, which ThreadSanitizer understands).
///
/// For state shared across threads: the inbox, observation registrations,
/// and models that hosts change from any thread (see `BookModels`). Never
/// call out to other code while holding it.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
