import CLunette

// App storage leaves (clunette.h, "App storage"): the runtime's store,
// asked on the runtime's thread; a failure is reported, never raised.

func lunhStorageRead(_ rt: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                     _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        let name = string(key, length)
        do {
            guard let value = try runtime.appStorage.value(forKey: name) else { return 0 }
            return runtime.fill(out!, with: value) ? 1 : 0
        } catch {
            runtime.reportStorage(error, "cannot read '\(name)'; it starts from its default")
            return 0
        }
    }
}

func lunhStorageWrite(_ rt: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                      _ value: UnsafePointer<lun_HostValue>?) {
    withRuntime(rt) { runtime in
        let name = string(key, length)
        guard let converted = runtime.value(of: value!.pointee) else { return }
        do {
            try runtime.appStorage.setValue(converted, forKey: name)
        } catch {
            runtime.reportStorage(error, "cannot keep '\(name)'; the change lasts until the script ends")
        }
    }
}

extension LunetteRuntime {
    /// Records a store's failure once per cause: a broken store fails every key alike.
    func reportStorage(_ error: Error, _ what: String) {
        let cause = "\(error)"
        guard !storageCauses.contains(cause), storageErrors.count < 100 else { return }
        storageCauses.insert(cause)
        let message = "app storage: \(what): \(cause)"
        storageErrors.append(message)
        problems.record(error: message)
    }
}
