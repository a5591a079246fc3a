import CLunette

/// The records a unit's run wrote (`LUN_OUT_*` in clunette.h), as C hands
/// them over in one `output.write` call, read in order into the builder.
///
/// The buffer is C's and lives until the call returns: strings are copied
/// out (charged to the memory cap by the builder), nothing is kept.
struct OutputRecords {
    private let bytes: UnsafeRawBufferPointer
    private var at = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Applies every record to `builder`; a record C did not write whole ends
    /// the run as an error (a bug on C's side: shown, not swallowed).
    mutating func read(into builder: OutputBuilder) {
        while at < bytes.count {
            let op = Int32(bytes[at])
            at += 1
            guard apply(op, to: builder) else {
                builder.fail("internal: an output record (\(op)) was cut short or unknown")
                return
            }
        }
    }

    private mutating func apply(_ op: Int32, to builder: OutputBuilder) -> Bool {
        switch op {
        case Int32(LUN_OUT_BEGIN):
            guard let kind = int(), let text = text() else { return false }
            builder.open(kind: kind, text: text.pointer, length: text.count)
        case Int32(LUN_OUT_POSITION):
            guard let slot = text() else { return false }
            builder.nextPosition = slot.pointer.map { string($0, slot.count) }
        case Int32(LUN_OUT_MODIFIER):
            guard let name = text(), let value = text() else { return false }
            builder.modifier(name.pointer, name.count, value.pointer, value.count)
        case Int32(LUN_OUT_SLOT):
            guard let role = int(), let slot = int() else { return false }
            builder.current.slots.append((role, slot))
        case Int32(LUN_OUT_ATTR):
            guard let name = text(), let value = text() else { return false }
            builder.attribute(builder.copy(name.pointer, name.count), builder.copy(value.pointer, value.count))
        case Int32(LUN_OUT_END):
            builder.close()
        case Int32(LUN_OUT_SITE):
            guard let line = int() else { return false }
            builder.nextSite = line
        case Int32(LUN_OUT_UNIT_RECORD):
            guard let unit = int(), let ref = int() else { return false }
            builder.runtime.units[unit]?.recordRef = ref
        case Int32(LUN_OUT_UNIT_CHANGED):
            guard let unit = int() else { return false }
            builder.childChanged(unit)
        case Int32(LUN_OUT_ENV_CHANGED):
            builder.environmentChanged()
        case Int32(LUN_OUT_ANIMATE):
            guard let animation = text() else { return false }
            builder.current.animation = animation.count > 0 ? string(animation.pointer, animation.count) : nil
        default:
            return false
        }
        return true
    }

    /// The next int32 operand, or nil past the end.
    private mutating func int() -> Int32? {
        guard bytes.count - at >= MemoryLayout<Int32>.size else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: at, as: Int32.self)
        at += MemoryLayout<Int32>.size
        return value
    }

    /// The next string operand (pointer nil for `LUN_OUT_NONE`), or nil past the end.
    private mutating func text() -> (pointer: UnsafePointer<CChar>?, count: Int)? {
        guard bytes.count - at >= MemoryLayout<Int>.size else { return nil }
        let length = bytes.loadUnaligned(fromByteOffset: at, as: UInt.self)
        at += MemoryLayout<Int>.size
        if length == UInt.max { return (nil, 0) }
        guard length <= UInt(bytes.count - at), let base = bytes.baseAddress else { return nil }
        let pointer = (base + at).assumingMemoryBound(to: CChar.self)
        at += Int(length)
        return (UnsafePointer(pointer), Int(length))
    }
}
