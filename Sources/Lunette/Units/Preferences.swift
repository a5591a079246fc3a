import CLunette

/// The host's side of preferences (T06; lun_preference.c reduces and
/// delivers): after a round, the list of `onPreferenceChange` handlers, each
/// followed by the preference values of its subtree in tree order.
struct PreferenceList {
    struct Item {
        let kind: Int32
        let recordRef: Int32
        let slot: Int32
        let text: String
    }

    /// Set once a view declared a handler: until then a round costs nothing here.
    var inUse = false
    /// A view whose output holds (or held) a preference value or handler ran
    /// or went away: only then can a reduced value have changed, so a round
    /// without one costs nothing here, however much is mounted.
    var dirty = false
    /// Walks of the mounted trees so far (for tests: they follow what changed).
    private(set) var walks = 0
    private(set) var items: [Item] = []

    mutating func prepare(apps: @autoclosure () -> [App]) -> Int32 {
        if !items.isEmpty { items = [] }
        guard inUse, dirty else { return 0 }
        dirty = false
        walks += 1
        for app in apps() {
            for (index, node) in app.nodes.enumerated() { collectHandlers(node, path: "\(app.idNumber)/\(index)") }
        }
        return Int32(items.count)
    }

    private mutating func collectHandlers(_ node: RenderNode, path: String) {
        for (name, value) in node.ownAttributes where name.hasPrefix("onPreferenceChange:") {
            guard let owner = node.owner, let slot = Int32(value) else { continue }
            let key = String(name.dropFirst("onPreferenceChange:".count))
            items.append(Item(kind: Int32(LUN_PREF_HANDLER), recordRef: owner.recordRef, slot: slot,
                              text: "\(key)\n\(owner.id):\(path)|\(key)\n\(owner.id)"))
            collectValues(node, key: "preference:" + key)
        }
        for (index, child) in node.children.enumerated() { collectHandlers(child, path: "\(path).\(index)") }
    }

    private mutating func collectValues(_ node: RenderNode, key: String) {
        for (name, value) in node.ownAttributes where name == key {
            if let owner = node.owner, let slot = Int32(value) {
                items.append(Item(kind: Int32(LUN_PREF_VALUE), recordRef: owner.recordRef, slot: slot, text: ""))
            }
        }
        for child in node.children { collectValues(child, key: key) }
    }
}
