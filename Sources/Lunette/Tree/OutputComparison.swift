/// Whether a unit's new output shows the same thing as its old one: the same
/// kinds, texts, modifiers and attributes, node for node, hosting the same
/// child views (whose own outputs are compared on their own). Actions and
/// bindings are not compared: a host draws neither.
enum OutputComparison {
    static func same(_ old: [RenderNode], _ new: [RenderNode]) -> Bool {
        guard old.count == new.count else { return false }
        return zip(old, new).allSatisfy { same($0, $1) }
    }

    static func same(_ old: [(name: String, value: String)], _ new: [(name: String, value: String)]) -> Bool {
        old.count == new.count && zip(old, new).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private static func same(_ old: RenderNode, _ new: RenderNode) -> Bool {
        if old === new { return true }
        return old.kind == new.kind && old.text == new.text && old.unit === new.unit
            && old.modifiers == new.modifiers && same(old.ownAttributes, new.ownAttributes)
            && same(old.ownChildren, new.ownChildren)
    }
}
