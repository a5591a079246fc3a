import CLunette

/// The host's side of preferences (T06; lun_preference.c reduces and
/// delivers): after a round, the list of `onPreferenceChange` handlers, each
/// followed by the preference values of its subtree in tree order, handed
/// to C as one buffer (`prefs_prepare` in clunette.h).
struct PreferenceList {
    /// Set once a view declared a handler: until then a round costs nothing here.
    var inUse = false
    /// A view whose output holds (or held) a preference value or handler ran
    /// or went away: only then can a reduced value have changed, so a round
    /// without one costs nothing here, however much is mounted.
    var dirty = false
    /// Walks of the mounted trees so far (for tests: they follow what changed).
    private(set) var walks = 0
    /// The list C reads (valid until the next `prepare`).
    let buffer = PreferenceBuffer()
    /// Handlers counted so far in this walk, by owner: a handler's ordinal.
    private var ordinals: [Int32: Int32] = [:]

    /// Lists the handlers and their values if a view that holds one ran or
    /// went since the last call; returns how many items.
    mutating func prepare(apps: @autoclosure () -> [App]) -> Int32 {
        buffer.removeAll()
        guard inUse, dirty else { return 0 }
        dirty = false
        walks += 1
        for app in apps() {
            for node in app.nodes { collectHandlers(node) }
        }
        ordinals.removeAll(keepingCapacity: true)
        return Int32(buffer.count)
    }

    /// The handlers at and below `node` (the tree is at most
    /// `LUN_MAX_TREE_DEPTH` deep, R18: the recursion is bounded).
    private mutating func collectHandlers(_ node: RenderNode) {
        for (name, value) in node.ownAttributes where name.hasPrefix("onPreferenceChange:") {
            guard let owner = node.owner, let slot = Int32(value) else { continue }
            let key = name.dropFirst("onPreferenceChange:".count)
            let ordinal = ordinals[owner.id, default: 0]
            ordinals[owner.id] = ordinal &+ 1
            buffer.appendHandler(recordRef: owner.recordRef, slot: slot, unit: owner.id, ordinal: ordinal, key: key)
            collectValues(node, key: "preference:" + key)
        }
        for child in node.children { collectHandlers(child) }
    }

    private func collectValues(_ node: RenderNode, key: String) {
        for (name, value) in node.ownAttributes where name == key {
            if let owner = node.owner, let slot = Int32(value) {
                buffer.appendValue(recordRef: owner.recordRef, slot: slot, unit: owner.id)
            }
        }
        for child in node.children { collectValues(child, key: key) }
    }
}

/// The items and key bytes of one preference list, in storage that stays
/// where it is until the list is made again (C reads it by pointer).
final class PreferenceBuffer {
    private var items: UnsafeMutablePointer<lun_PrefItem>
    private var capacity = 16
    private(set) var count = 0
    private var keyBytes: UnsafeMutablePointer<CChar>
    private var keyCapacity = 256
    private(set) var keyCount = 0

    init() {
        items = .allocate(capacity: capacity)
        keyBytes = .allocate(capacity: keyCapacity)
    }

    deinit {
        items.deallocate()
        keyBytes.deallocate()
    }

    /// The items C reads.
    var base: UnsafePointer<lun_PrefItem> { UnsafePointer(items) }
    /// The handlers' keys, each at its item's `keyAt`.
    var keys: UnsafePointer<CChar> { UnsafePointer(keyBytes) }

    /// Empties the list, keeping its storage (a large one is given back).
    func removeAll() {
        count = 0
        keyCount = 0
        if capacity > 4096 {
            items.deallocate()
            capacity = 16
            items = .allocate(capacity: capacity)
        }
        if keyCapacity > 65536 {
            keyBytes.deallocate()
            keyCapacity = 256
            keyBytes = .allocate(capacity: keyCapacity)
        }
    }

    func appendHandler(recordRef: Int32, slot: Int32, unit: Int32, ordinal: Int32, key: Substring) {
        let at = keyCount
        var length = 0
        for byte in key.utf8 {
            appendKeyByte(CChar(bitPattern: byte))
            length += 1
        }
        append(lun_PrefItem(kind: Int32(LUN_PREF_HANDLER), recordRef: recordRef, slot: slot, unit: unit,
                            ordinal: ordinal, keyLen: Int32(clamping: length), keyAt: Int64(at)))
    }

    func appendValue(recordRef: Int32, slot: Int32, unit: Int32) {
        append(lun_PrefItem(kind: Int32(LUN_PREF_VALUE), recordRef: recordRef, slot: slot, unit: unit,
                            ordinal: 0, keyLen: 0, keyAt: 0))
    }

    private func append(_ item: lun_PrefItem) {
        if count == capacity {
            let larger = UnsafeMutablePointer<lun_PrefItem>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: items, count: count)
            items.deallocate()
            items = larger
            capacity *= 2
        }
        (items + count).initialize(to: item)
        count += 1
    }

    private func appendKeyByte(_ byte: CChar) {
        if keyCount == keyCapacity {
            let larger = UnsafeMutablePointer<CChar>.allocate(capacity: keyCapacity * 2)
            larger.moveInitialize(from: keyBytes, count: keyCount)
            keyBytes.deallocate()
            keyBytes = larger
            keyCapacity *= 2
        }
        keyBytes[keyCount] = byte
        keyCount += 1
    }
}
