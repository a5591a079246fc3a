import CLunette

// The output group's leaves for the C walker (clunette.h, "building a unit's
// output"): they answer with the OutputBuilder, the owner of a run's output.

@inline(__always)
private func withBuilder<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (OutputBuilder) -> T) -> T {
    Unmanaged<OutputBuilder>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

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

func lunhViewType(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    withBuilder(context) { $0.viewTypes.id(for: string(name, length)) }
}

func lunhOutWrite(_ context: UnsafeMutableRawPointer?, _ records: UnsafePointer<CChar>?, _ length: Int) {
    guard let records, length > 0 else { return }
    withBuilder(context) { $0.write(UnsafeRawBufferPointer(start: records, count: length)) }
}

func lunhOutUnit(_ context: UnsafeMutableRawPointer?, _ kind: Int32, _ typeId: Int32, _ key: UnsafePointer<CChar>?,
                 _ klen: Int, _ unit: UnsafeMutablePointer<Int32>?) -> Int32 {
    withBuilder(context) { builder in
        guard let (child, isNew) = builder.child(kind: Unit.Kind(rawValue: kind) ?? .component, typeId: typeId,
                                                         key: key.map { string($0, klen) }) else { return LUN_TOO_DEEP }
        unit?.pointee = child.id
        return isNew ? 0 : child.recordRef
    }
}

func lunhOutTransaction(_ context: UnsafeMutableRawPointer?) -> Int32 {
    withBuilder(context) { $0.transaction?.id ?? 0 }
}

func lunhOutEnv(_ context: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ klen: Int, _ slot: Int32) -> Int32 {
    withBuilder(context) { $0.environment(key: string(key, klen), slot: slot) }
}

func lunhEnvFind(_ context: UnsafeMutableRawPointer?, _ unit: Int32, _ key: UnsafePointer<CChar>?, _ klen: Int,
                 _ tracked: Int32, _ ref: UnsafeMutablePointer<Int32>?, _ slot: UnsafeMutablePointer<Int32>?,
                 _ node: UnsafeMutablePointer<Int32>?, _ probe: UnsafeMutablePointer<Int32>?) -> Int32 {
    withBuilder(context) { builder in
        guard let unit = builder.runtime.unitOrReleased(unit) else { return 0 }   // a gone view's record keeps
                                                                                 // what its environment held
        let key = string(key, klen)
        if tracked != 0 { probe?.pointee = builder.runtime.environmentProbe(of: unit, key: key) }
        guard let entry = unit.environmentEntry(for: key) else { return 0 }
        ref?.pointee = entry.recordRef
        slot?.pointee = entry.slot
        node?.pointee = entry.node
        return 1
    }
}

func lunhUnitName(_ context: UnsafeMutableRawPointer?, _ unit: Int32, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withBuilder(context) { builder in
        let (pointer, count) = builder.text.set(builder.runtime.unitOrReleased(unit)?.displayName ?? "view")
        length?.pointee = count
        return pointer
    }
}

func lunhOutPath(_ context: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withBuilder(context) { builder in
        let (pointer, count) = builder.text.set(builder.position)
        length?.pointee = count
        return pointer
    }
}
