import CLunette

// The builder's leaves for the C walker (clunette.h, "building a unit's output").

func string(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
    guard let pointer else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
}

/// The longest error message Swift keeps a copy of (a script's error value
/// may be any string): the rest is cut, and the cut is said (R19).
let longestMessage = 16 * 1024

/// An error message from C, cut at `longestMessage` bytes.
func message(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
    guard length > longestMessage else { return string(pointer, length) }
    return string(pointer, longestMessage) + "… (\(length - longestMessage) more bytes)"
}

func lunhViewType(_ rt: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    withRuntime(rt) { runtime in
        runtime.labels.viewTypes.id(for: string(name, length))
    }
}

func lunhOutWrite(_ rt: UnsafeMutableRawPointer?, _ records: UnsafePointer<CChar>?, _ length: Int) {
    guard let records, length > 0 else { return }
    withRuntime(rt) { runtime in
        runtime.builder.write(UnsafeRawBufferPointer(start: records, count: length))
    }
}

func lunhOutUnit(_ rt: UnsafeMutableRawPointer?, _ kind: Int32, _ typeId: Int32, _ key: UnsafePointer<CChar>?,
                 _ klen: Int, _ unit: UnsafeMutablePointer<Int32>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let (child, isNew) = runtime.builder.child(kind: Unit.Kind(rawValue: kind) ?? .component, typeId: typeId,
                                                         key: key.map { string($0, klen) }) else { return LUN_TOO_DEEP }
        unit?.pointee = child.id
        return isNew ? 0 : child.recordRef
    }
}

func lunhOutTransaction(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.builder.transaction?.id ?? 0 }
}

func lunhTransactionBegin(_ rt: UnsafeMutableRawPointer?, _ animation: UnsafePointer<CChar>?, _ length: Int,
                          _ id: Int32) {
    withRuntime(rt) { runtime in
        runtime.schedulePendingEffects()              // made stale before it (or in the outer one): not in it
        runtime.flushState.transaction = Transaction(animation: length > 0 ? string(animation, length) : nil, id: id)
    }
}

func lunhTransactionEnd(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { runtime in
        runtime.schedulePendingEffects()              // made stale inside it: animated
        runtime.flushState.transaction = nil
    }
}

func lunhOutEnv(_ rt: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ klen: Int, _ slot: Int32) -> Int32 {
    withRuntime(rt) { $0.builder.environment(key: string(key, klen), slot: slot) }
}

func lunhEnvFind(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ key: UnsafePointer<CChar>?, _ klen: Int,
                 _ ref: UnsafeMutablePointer<Int32>?, _ slot: UnsafeMutablePointer<Int32>?,
                 _ node: UnsafeMutablePointer<Int32>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let entry = runtime.units[unit]?.environmentEntry(for: string(key, klen)) else { return 0 }
        ref?.pointee = entry.recordRef
        slot?.pointee = entry.slot
        node?.pointee = entry.node
        return 1
    }
}

func lunhUnitName(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        let (pointer, count) = runtime.text.set(runtime.units[unit]?.displayName ?? "view")
        length?.pointee = count
        return pointer
    }
}
