import Foundation

/// Stands between a runtime and its `AppStorageStore` (R21): the store is
/// called on one serial queue, never on the runtime's thread, so a store
/// waiting on another process's lock never holds the scripts.
///
/// A flush's writes are staged, then handed over as one batch when the flush
/// ends; until the store has them, a read of a key sees the value handed
/// over. A read asks the store and waits at most `readWait` seconds. What
/// the store fails to do is collected here and reported on the runtime's
/// thread (`takeFailures`), never dropped.
final class StorageWriter: @unchecked Sendable {
    private let store: AppStorageStore
    private let queue = DispatchQueue(label: "Lunette app storage")
    /// Changes of the running flush, not yet handed over (runtime's thread only).
    @exclusivity(unchecked) private var staged: [AppStorageChange] = []
    /// Handed over, not yet confirmed: the latest value per key, and its batch.
    private let pending = Locked<[[UInt8]: (value: [UInt8]?, batch: Int)]>([:])
    private let failures = Locked<[(message: String, cause: String)]>([])
    private var batches = 0
    /// A change was ever staged (runtime's thread only): until then no failure can exist.
    @exclusivity(unchecked) private var staging = false
    /// Bytes staged or handed over and not yet kept: at most `inFlightLimit` (R19).
    private let inFlight = Locked(0)
    let inFlightLimit = 64 << 20

    init(store: AppStorageStore) {
        self.store = store
    }

    /// Keys whose stored value could not be read: their writes are dropped, so
    /// the default a script started from never replaces what was kept (R21).
    private var unreadable = Set<[UInt8]>()

    /// The bytes kept for `key`: handed over and pending, or the store's.
    /// Throws the store's error, or says it did not answer in time; the key
    /// is then not written over for the rest of the run.
    func read(_ key: [UInt8], wait readWait: Double) throws -> [UInt8]? {
        do {
            return try readThrough(key, wait: readWait)
        } catch {
            unreadable.insert(key)
            throw error
        }
    }

    private func readThrough(_ key: [UInt8], wait readWait: Double) throws -> [UInt8]? {
        if let change = staged.last(where: { $0.key == key }) { return change.value }
        if let entry = pending.withLock({ $0[key] }) { return entry.value }
        let answer = Locked<Result<[UInt8]?, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let store = self.store
        queue.async {
            let result = Result { try store.value(forKey: key) }
            answer.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + readWait) == .success, let result = answer.withLock({ $0 }) else {
            throw AppStorageError("the store did not answer within \(readWait) s (another process holds it?)")
        }
        return try result.get()
    }

    /// A change made in this flush, handed over when it ends; refused (and
    /// reported) when more than `inFlightLimit` bytes wait to be kept.
    func stage(_ key: [UInt8], _ value: [UInt8]?) {
        staging = true
        guard !unreadable.contains(key) else { return }  // reported when its read failed
        let size = key.count + (value?.count ?? 0)
        let admitted = inFlight.withLock { total -> Bool in
            guard total + size <= inFlightLimit else { return false }
            total += size
            return true
        }
        guard admitted else {
            let cause = "more than \(inFlightLimit >> 20) MiB of app storage wait to be kept"
            failures.withLock { $0.append(("cannot keep \(Self.describe(key)); the change lasts until the script ends: \(cause)", cause)) }
            return
        }
        staged.append(AppStorageChange(key: key, value: value))
    }

    /// Hands the flush's changes to the store's queue as one batch.
    func commit() {
        guard !staged.isEmpty else { return }
        let changes = staged
        staged = []
        batches += 1
        let batch = batches
        pending.withLock { pending in for change in changes { pending[change.key] = (change.value, batch) } }
        let store = self.store, pending = self.pending, failures = self.failures, inFlight = self.inFlight
        let size = changes.reduce(0) { $0 + $1.key.count + ($1.value?.count ?? 0) }
        queue.async {
            defer { inFlight.withLock { $0 -= size } }
            do {
                try store.write(changes)
            } catch {
                let keys = changes.map { Self.describe($0.key) }.joined(separator: ", ")
                failures.withLock { $0.append(("cannot keep \(keys); the change lasts until the script ends: \(error)", "\(error)")) }
            }
            pending.withLock { pending in
                for change in changes where pending[change.key]?.batch == batch { pending[change.key] = nil }
            }
        }
    }

    /// `ui.reset()`: what was staged is handed over first (a persistent
    /// store keeps it: an action's `self.k = 1; ui.reset()` lost the write),
    /// then the store resets after every batch (a store for tests empties
    /// itself). Reads from here on ask the store, on its queue, after both.
    func reset() {
        commit()
        unreadable = []
        pending.withLock { $0 = [:] }
        let store = self.store
        queue.async { store.reset() }
    }

    /// Waits until the store has every batch handed over (at most `timeout`
    /// seconds); false if it has not.
    @discardableResult
    func waitUntilWritten(timeout: Double) -> Bool {
        let timeout = timeout.isNaN || timeout < 0 ? 0 : min(timeout, 86_400)   // NaN waited for ever
        commit()
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Waits until the store has every batch handed over (at most `timeout`
    /// seconds), from any thread: it stages nothing (what the running flush
    /// has not handed over is not waited for). False if it has not finished.
    func waitForHandedOver(timeout: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + max(0, min(timeout.isNaN ? 0 : timeout, 86_400))) == .success
    }

    /// The keys handed over whose writes the store has not confirmed, as a
    /// person reads them (at most `most`, then how many more).
    func unconfirmedKeys(most: Int = 5) -> String {
        let keys = pending.withLock { $0.keys.map { Self.describe($0) } }.sorted()
        let shown = keys.prefix(most).joined(separator: ", ")
        return keys.count > most ? "\(shown) and \(keys.count - most) more" : shown
    }

    /// Failures since the last call, and their causes (for the runtime's thread to report).
    func takeFailures() -> [(message: String, cause: String)] {
        guard staging else { return [] }
        return failures.withLock { taken in defer { taken = [] }; return taken }
    }

    /// A key as a person reads it: quoted, bytes outside printable ASCII as \xNN
    /// unless the key is valid UTF-8 text.
    static func describe(_ key: [UInt8]) -> String {
        if let text = String(bytes: key, encoding: .utf8), !text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            return "'\(text)'"
        }
        return "'" + key.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined() + "'"
    }
}
