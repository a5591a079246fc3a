/// Recording animations on the nodes a change altered.
///
/// After a run whose nodes carry an animation (from a transaction, or from
/// `view:animation(a, value)`), the new output is compared with the old one
/// position by position; each modifier whose value changed is recorded on
/// the node: `animated: scaleEffect 1 -> 1.5, easeInOut 0.3s`. Text and
/// other content are not animated (as in SwiftUI, strings do not interpolate).
enum Animations {
    static func record(old: [RenderNode], new: [RenderNode]) {
        for (index, node) in new.enumerated() where index < old.count {
            compare(old[index], node)
        }
    }

    private static func compare(_ old: RenderNode, _ new: RenderNode) {
        guard old.kind == new.kind, old.typeName == new.typeName else { return }
        if let animation = new.animation {
            let changes = new.modifiers.compactMap { modifier -> String? in
                guard let before = old.modifiers.first(where: { $0.name == modifier.name }),
                      before.value != modifier.value else { return nil }
                return "\(modifier.name) \(before.value) -> \(modifier.value)"
            }
            if !changes.isEmpty {
                new.ownAttributes.append(("animated", changes.joined(separator: "; ") + ", " + animation))
            }
        }
        record(old: old.ownChildren, new: new.ownChildren)
    }
}
