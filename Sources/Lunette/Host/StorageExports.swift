import CLunette

// App storage leaves (clunette.h, "App storage"): keys and values are bytes,
// handed to the StorageWriter; a failure is reported, never raised.

func lunhStorageRead(_ rt: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                     _ bytes: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                     _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    withRuntime(rt) { runtime in
        let key = bytesOf(key, length)
        do {
            // Half the budget: a store that does not answer leaves the run time to go on with the default.
            let wait = runtime.options.timeBudget > 0 ? min(runtime.options.timeBudget / 2, 5) : 5
            guard let value = try runtime.storage.read(key, wait: wait) else { return 0 }
            let (pointer, length) = runtime.storageText.set(value)
            bytes?.pointee = pointer
            count?.pointee = length
            return 1
        } catch {
            runtime.reportStorage(error, "cannot read \(StorageWriter.describe(key)); it starts from its default, "
                                  + "and its changes last until the script ends (what was kept is not written over)")
            return -1
        }
    }
}

func lunhStorageWrite(_ rt: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                      _ value: UnsafePointer<CChar>?, _ count: Int) {
    withRuntime(rt) { runtime in
        runtime.storage.stage(bytesOf(key, length), value.map { bytesOf($0, count) })
    }
}

/// The bytes at pointer, as C handed them.
func bytesOf(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> [UInt8] {
    guard let pointer, length > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: length))
}

extension LunetteRuntime {
    /// Records a store's failure once per cause: a broken store fails every key alike.
    func reportStorage(_ error: Error, _ what: String) {
        record(storageMessage: "app storage: \(what): \(error)", cause: "\(error)")
    }

    /// Reports what the store's queue failed to keep since the last call.
    func reportStorageFailures() {
        for failure in storage.takeFailures() { record(storageMessage: "app storage: \(failure.message)", cause: failure.cause) }
    }

    private func record(storageMessage message: String, cause: String) {
        guard !storageCauses.contains(cause), storageMessages.count < 100 else { return }
        storageCauses.insert(cause)
        storageMessages.append(message)
        problems.record(error: message)
    }
}
