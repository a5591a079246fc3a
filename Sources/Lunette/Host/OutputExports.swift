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
        // One id per name: a script run again (:reload, --watch) keeps its views' identities.
        let name = string(name, length)
        if let id = runtime.labels.viewTypeIDs[name] { return id }
        runtime.labels.viewTypeNames.append(name)
        let id = Int32(runtime.labels.viewTypeNames.count)
        runtime.labels.viewTypeIDs[name] = id
        return id
    }
}

func lunhOutBegin(_ rt: UnsafeMutableRawPointer?, _ kind: Int32, _ text: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { $0.builder.open(kind: kind, text: text, length: length) }
}

func lunhOutPosition(_ rt: UnsafeMutableRawPointer?, _ slot: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { $0.builder.nextPosition = slot.map { string($0, length) } }
}

func lunhOutModifier(_ rt: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ nlen: Int,
                     _ value: UnsafePointer<CChar>?, _ vlen: Int) {
    withRuntime(rt) { $0.builder.modifier(name, nlen, value, vlen) }
}

func lunhOutSlot(_ rt: UnsafeMutableRawPointer?, _ role: Int32, _ slot: Int32) {
    withRuntime(rt) { $0.builder.current.slots.append((role, slot)) }
}

func lunhOutAttr(_ rt: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ nlen: Int,
                 _ value: UnsafePointer<CChar>?, _ vlen: Int) {
    withRuntime(rt) { runtime in
        let builder = runtime.builder
        builder.attribute(builder.copy(name, nlen), builder.copy(value, vlen))
    }
}

func lunhOutEnd(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { $0.builder.close() }
}

func lunhOutError(_ rt: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { $0.builder.fail(Lunette.message(message, length)) }
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

func lunhOutSite(_ rt: UnsafeMutableRawPointer?, _ line: Int32) {
    withRuntime(rt) { $0.builder.nextSite = line }
}

func lunhOutUnitRecord(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ ref: Int32) {
    withRuntime(rt) { $0.units[unit]?.recordRef = ref }
}

func lunhOutUnitChanged(_ rt: UnsafeMutableRawPointer?, _ unit: Int32) {
    withRuntime(rt) { runtime in
        guard let child = runtime.units[unit] else { return }
        child.needsRender = true
        if runtime.tracer.tracing, child.renderCause == nil, let parent = runtime.builder.unit {
            child.renderCause = "inputs from \(parent.label)"
        }
        if child.pendingTransaction == nil { child.pendingTransaction = runtime.builder.transaction }
        runtime.scheduler.schedule(child)
    }
}

func lunhOutAnimate(_ rt: UnsafeMutableRawPointer?, _ animation: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { $0.builder.current.animation = length > 0 ? string(animation, length) : nil }
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

func lunhOutEnvChanged(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { $0.builder.environmentChanged() }
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
