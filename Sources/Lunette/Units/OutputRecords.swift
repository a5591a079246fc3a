import CLunette

/// Reads the records of a unit's run (`LUN_OUT_*` in clunette.h), as C
/// writes them and the builder keeps them, one at a time. Every read is
/// checked against the end: a record cut short reads as `.invalid`.
struct OutputRecords {
    /// A string operand: bytes in the records (nil pointer: no string).
    struct Text {
        let pointer: UnsafePointer<CChar>?
        let count: Int

        /// A copy, or nil for no string.
        var string: String? { pointer.map { Lunette.string($0, count) } }

        /// Whether the bytes begin with `prefix` (no copy made).
        func hasPrefix(_ prefix: StaticString) -> Bool {
            guard let pointer, count >= prefix.utf8CodeUnitCount else { return false }
            let start = prefix.utf8Start
            for i in 0..<prefix.utf8CodeUnitCount where UInt8(bitPattern: pointer[i]) != start[i] { return false }
            return true
        }
    }

    /// One record.
    enum Record {
        case begin(kind: Int32, text: Text)
        case position(Text)
        case modifier(name: Text, value: Text)
        case slot(role: Int32, slot: Int32)
        case attribute(name: Text, value: Text)
        case end
        case site(file: Int32, line: Int32)
        case unitRecord(unit: Int32, ref: Int32)
        case unitChanged(unit: Int32)
        case environmentChanged
        case animate(Text)
        /// The builder's own: the open node hosts the child unit at this index of `Unit.outputLinks`.
        case link(index: Int32)
        case invalid
    }

    /// The operation byte of `.link`, which only the builder writes (past C's).
    static let linkOp = UInt8(LUN_OUT_OP_COUNT)

    private let bytes: UnsafeRawBufferPointer
    private var at = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next record, or nil at the end; after `.invalid`, nil.
    mutating func next() -> Record? {
        guard at < bytes.count else { return nil }
        let op = bytes[at]
        at += 1
        let record = read(op) ?? .invalid
        if case .invalid = record { at = bytes.count }
        return record
    }

    private mutating func read(_ op: UInt8) -> Record? {
        switch Int32(op) {
        case Int32(LUN_OUT_BEGIN):
            guard let kind = int(), let text = text() else { return nil }
            return .begin(kind: kind, text: text)
        case Int32(LUN_OUT_POSITION):
            return text().map { .position($0) }
        case Int32(LUN_OUT_MODIFIER):
            guard let name = text(), let value = text() else { return nil }
            return .modifier(name: name, value: value)
        case Int32(LUN_OUT_SLOT):
            guard let role = int(), let slot = int() else { return nil }
            return .slot(role: role, slot: slot)
        case Int32(LUN_OUT_ATTR):
            guard let name = text(), let value = text() else { return nil }
            return .attribute(name: name, value: value)
        case Int32(LUN_OUT_END):
            return .end
        case Int32(LUN_OUT_SITE):
            guard let file = int(), let line = int() else { return nil }
            return .site(file: file, line: line)
        case Int32(LUN_OUT_UNIT_RECORD):
            guard let unit = int(), let ref = int() else { return nil }
            return .unitRecord(unit: unit, ref: ref)
        case Int32(LUN_OUT_UNIT_CHANGED):
            return int().map { .unitChanged(unit: $0) }
        case Int32(LUN_OUT_ENV_CHANGED):
            return .environmentChanged
        case Int32(LUN_OUT_ANIMATE):
            return text().map { .animate($0) }
        case Int32(Self.linkOp):
            return int().map { .link(index: $0) }
        default:
            return nil
        }
    }

    /// The next int32 operand, or nil past the end.
    private mutating func int() -> Int32? {
        guard bytes.count - at >= MemoryLayout<Int32>.size else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: at, as: Int32.self)
        at += MemoryLayout<Int32>.size
        return value
    }

    /// The next string operand (pointer nil for `LUN_OUT_NONE`), or nil past the end.
    private mutating func text() -> Text? {
        guard bytes.count - at >= MemoryLayout<UInt>.size else { return nil }
        let length = bytes.loadUnaligned(fromByteOffset: at, as: UInt.self)
        at += MemoryLayout<UInt>.size
        if length == UInt.max { return Text(pointer: nil, count: 0) }
        guard length <= UInt(bytes.count - at), let base = bytes.baseAddress else { return nil }
        let pointer = (base + at).assumingMemoryBound(to: CChar.self)
        at += Int(length)
        return Text(pointer: UnsafePointer(pointer), count: Int(length))
    }
}
