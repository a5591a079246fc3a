import CLunette

/// A runtime's app storage, as the C module sees it: the owner of the host
/// table's `storage` group (its callbacks answer with this part, not with
/// the runtime). It reads keys through the `StorageWriter` (at most half the
/// time budget), stages what a flush wrote and hands it over when the flush
/// ends, and reports what the store failed to do once per cause — to
/// `messages` (`LunetteRuntime.storageErrors`) and to the runtime's problems.
final class AppStorageKeeper {
    /// Where values go, behind the queue that calls the store.
    let writer: StorageWriter
    /// How long a read waits for the store, in seconds.
    let readWait: Double
    /// What the store failed to read or keep, each cause once (at most 100).
    private(set) var messages: [String] = []
    private var causes: Set<String> = []
    /// Told each message as it is recorded (the runtime's problems).
    var report: (String) -> Void = { _ in }
    /// The bytes of the last read, handed to C (valid until the next read).
    private let text = CStringBuffer()

    init(store: AppStorageStore, timeBudget: Double) {
        writer = StorageWriter(store: store)
        // Half the budget: a store that does not answer leaves the run time to go on with the default.
        readWait = timeBudget > 0 ? min(timeBudget / 2, 5) : 5
    }

    /// The bytes kept for `key` in C's buffer, nil when the key holds
    /// nothing; throws when the store cannot say (reported here).
    func read(_ key: [UInt8]) throws -> (pointer: UnsafePointer<CChar>, length: Int)? {
        do {
            guard let value = try writer.read(key, wait: readWait) else { return nil }
            return text.set(value)
        } catch {
            record(error, "cannot read \(StorageWriter.describe(key)); it starts from its default, "
                   + "and its changes last until the script ends (what was kept is not written over)")
            throw error
        }
    }

    /// Stages a write of the running flush (nil: the key is removed).
    func stage(_ key: [UInt8], _ value: [UInt8]?) { writer.stage(key, value) }

    /// The flush ended: what it wrote goes to the store's queue (R21).
    func commit() {
        writer.commit()
        takeFailures()
    }

    /// Waits until the store keeps what was handed over, at most `timeout` seconds.
    @discardableResult
    func waitUntilWritten(timeout: Double) -> Bool {
        let finished = writer.waitUntilWritten(timeout: timeout)
        takeFailures()
        if !finished, timeout > 0 {
            let keys = writer.unconfirmedKeys()
            record(AppStorageError("the store has not finished after \(timeout) s"
                                   + (keys.isEmpty ? "" : "; not yet kept: \(keys)")), "changes may not be kept")
        }
        return finished
    }

    /// What another thread may wait on: the batches handed over (StorageWriter.waitForHandedOver).
    var handedOver: LunetteRuntime.StorageWait { LunetteRuntime.StorageWait(writer: writer) }

    /// A fresh start (`ui.reset`): nothing staged, nothing unreadable.
    func reset() { writer.reset() }

    /// Records what the store's queue failed to keep since the last call.
    func takeFailures() {
        for failure in writer.takeFailures() { record(message: "app storage: \(failure.message)", cause: failure.cause) }
    }

    /// Records a store's failure once per cause: a broken store fails every key alike.
    func record(_ error: Error, _ what: String) {
        record(message: "app storage: \(what): \(error)", cause: "\(error)")
    }

    private func record(message: String, cause: String) {
        guard !causes.contains(cause), messages.count < 100 else { return }
        causes.insert(cause)
        messages.append(message)
        report(message)
    }
}
