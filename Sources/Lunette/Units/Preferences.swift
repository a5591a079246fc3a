import CLunette

/// The host's side of preferences (T06; lun_preference.c reduces and
/// delivers): after a round, the list of `onPreferenceChange` handlers and
/// the preference values, each handler naming its subtree's values, handed
/// to C as one buffer (`prefs_prepare` in clunette.h).
struct PreferenceList {
    /// Set once a view declared a handler: until then a round costs nothing here.
    var inUse = false
    /// A view whose output holds (or held) a preference value or handler ran
    /// or went away: only then can a reduced value have changed, so a round
    /// without one costs nothing here, however much is mounted.
    var dirty = false
    /// Walks of the mounted trees so far, and the items the last one listed
    /// (for tests: they follow what changed, and what is mounted).
    private(set) var walks = 0
    private(set) var lastListed = 0
    /// Units the last walk visited: those on the way to a preference, not
    /// every mounted one (`Unit.childrenWithPreferences`).
    private(set) var lastVisited = 0
    private var visited = 0
    /// The list C reads (valid until the next `prepare`).
    let buffer = PreferenceBuffer()
    /// A walk's scratch: each key's values in tree order, and the handlers in
    /// tree order with the range of their key's values that their subtree holds.
    private var values: [[UInt8]: [lun_PrefItem]] = [:]        // by the key's bytes, as Lua tells keys apart
    private var handlers: [(item: lun_PrefItem, key: [UInt8])] = []

    /// Lists the handlers and their values if a view that holds one ran or
    /// went since the last call; returns how many items. Each value is listed
    /// once (a handler names the range of its key's values its subtree
    /// holds, as a subtree is one run of a walk in tree order), so the list
    /// grows with the values and handlers mounted, not with handlers times
    /// values; the walk skips the views whose subtrees hold none.
    mutating func prepare(apps: @autoclosure () -> [App]) -> Int32 {
        buffer.removeAll()
        guard inUse, dirty else { return 0 }
        dirty = false
        walks += 1
        visited = 0
        for app in apps() {
            if let root = app.root, root.preferencesInSubtree { collect(root) }
        }
        lastVisited = visited
        var base: [[UInt8]: Int32] = [:]                  // where each key's values start in the buffer
        var at = Int32(clamping: handlers.count)
        for (key, list) in values where list.count > 0 {
            base[key] = at
            at = at &+ Int32(clamping: list.count)
        }
        for (item, key) in handlers {
            var item = item
            item.first = item.first &+ (base[key] ?? 0)
            buffer.appendHandler(item, key: key)
        }
        for (key, list) in values where base[key] != nil {
            for value in list { buffer.appendValue(value) }
        }
        values.removeAll(keepingCapacity: true)
        handlers.removeAll(keepingCapacity: true)
        lastListed = buffer.count
        return Int32(clamping: buffer.count)
    }

    /// The handlers and values at and below `unit`, in tree order: a unit
    /// whose output holds none is passed through to its children that hold
    /// some (`unit.children` is in output order); one whose output holds
    /// some is read from its layout. The tree is at most
    /// `LUN_MAX_TREE_DEPTH` deep (R18): the recursion is bounded.
    private mutating func collect(_ unit: Unit) {
        visited += 1
        guard unit.hasPreferences else {
            for entry in unit.children where entry.unit.preferencesInSubtree { collect(entry.unit) }
            return
        }
        let layout = PreferenceLayout.of(unit)
        var opened: [Int] = []
        for entry in layout.entries {
            switch entry {
            case let .open(slot, key):
                let key = layout.keys[Int(key)]
                handlers.append((lun_PrefItem(kind: Int32(LUN_PREF_HANDLER), recordRef: unit.recordRef, slot: slot,
                                              unit: unit.id, first: Int32(clamping: values[key]?.count ?? 0), count: 0,
                                              keyLen: 0, keyAt: 0), key))
                opened.append(handlers.count - 1)
            case let .value(slot, key):
                values[layout.keys[Int(key)], default: []]
                    .append(lun_PrefItem(kind: Int32(LUN_PREF_VALUE), recordRef: unit.recordRef, slot: slot,
                                         unit: unit.id, first: 0, count: 0, keyLen: 0, keyAt: 0))
            case .close:
                let index = opened.removeLast()
                let key = handlers[index].key
                handlers[index].item.count = Int32(clamping: values[key]?.count ?? 0) &- handlers[index].item.first
            case let .child(child):
                if child.preferencesInSubtree { collect(child) }
            }
        }
    }
}

/// Where a unit's output holds preference handlers and values, and child
/// units, in tree order: a handler's range opens at its node, before the
/// node's own values, and closes after the node's subtree. Each key's bytes
/// are kept once; an entry is a slot and a key's index, so a layout is
/// smaller than the output records it describes (which the memory cap
/// counts).
final class PreferenceLayout {
    enum Entry {
        case open(slot: Int32, key: Int32)
        case value(slot: Int32, key: Int32)
        case close
        case child(Unit)
    }

    private(set) var keys: [[UInt8]] = []
    private(set) var entries: [Entry] = []
    private var keyIndex: [[UInt8]: Int32] = [:]

    /// The layout of `unit`'s output, made from its nodes once a run (every
    /// node of an output is its unit's: its slots are in the unit's record).
    static func of(_ unit: Unit) -> PreferenceLayout {
        if let made = unit.last.rare?.preferenceLayout { return made }
        let layout = PreferenceLayout()
        for node in unit.output { layout.add(node) }
        layout.keyIndex = [:]
        unit.last.makeRare().preferenceLayout = layout
        return layout
    }

    /// The index of the key `name` names past `prefix`.
    private func key(_ name: String, after prefix: String) -> Int32 {
        let bytes = Array(name.utf8.dropFirst(prefix.utf8.count))
        if let index = keyIndex[bytes] { return index }
        let index = Int32(clamping: keys.count)
        keys.append(bytes)
        keyIndex[bytes] = index
        return index
    }

    /// The entries of `node` and the nodes below it in the same output
    /// (bounded by the tree's depth, R18).
    private func add(_ node: RenderNode) {
        var opens = 0
        for (name, value) in node.ownAttributes where name.utf8.starts(with: "onPreferenceChange:".utf8) {
            guard let slot = Int32(value) else { continue }
            entries.append(.open(slot: slot, key: key(name, after: "onPreferenceChange:")))
            opens += 1
        }
        for (name, value) in node.ownAttributes where name.utf8.starts(with: "preference:".utf8) {
            guard let slot = Int32(value) else { continue }
            entries.append(.value(slot: slot, key: key(name, after: "preference:")))
        }
        if let hosted = node.unit { entries.append(.child(hosted)) }   // its view's output stands here
        for child in node.ownChildren { add(child) }                   // then what was presented on it
        for _ in 0..<opens { entries.append(.close) }
    }
}

/// The items and key bytes of one preference list, in storage that stays
/// where it is until the list is made again (C reads it by pointer).
final class PreferenceBuffer {
    private let items = PinnedBuffer<lun_PrefItem>(capacity: 16)
    private let keyBytes = PinnedBuffer<CChar>(capacity: 256)

    /// Items listed.
    var count: Int { items.count }
    /// Bytes of the handlers' keys.
    var keyCount: Int { keyBytes.count }
    /// The items C reads.
    var base: UnsafePointer<lun_PrefItem> { items.base }
    /// The handlers' keys, each at its item's `keyAt`.
    var keys: UnsafePointer<CChar> { keyBytes.base }

    /// Empties the list, keeping its storage (a large one is given back).
    func removeAll() {
        items.removeAll(keepingUpTo: 4096)
        keyBytes.removeAll(keepingUpTo: 65536)
    }

    /// Adds a handler, its key's bytes kept beside the items.
    func appendHandler(_ item: lun_PrefItem, key: [UInt8]) {
        var item = item
        item.keyAt = Int64(keyBytes.count)
        for byte in key { keyBytes.append(CChar(bitPattern: byte)) }
        item.keyLen = Int32(clamping: key.count)
        items.append(item)
    }

    func appendValue(_ item: lun_PrefItem) {
        items.append(item)
    }
}
