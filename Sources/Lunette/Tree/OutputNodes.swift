import CLunette

/// Builds a unit's render nodes from the records of its last run, when
/// something first reads them (`Unit.output`): the kinds, texts, modifiers,
/// attributes and slots C wrote, and the child units the builder linked.
enum OutputNodes {
    static func build(_ unit: Unit) -> [RenderNode] {
        let root = RenderNode(kind: .group, text: nil)
        var stack = [root]
        unit.last.records.withUnsafeBytes { bytes in
            var reader = OutputRecords(bytes)
            while let record = reader.next() {
                let current = stack[stack.count - 1]
                switch record {
                case let .begin(kind, text):
                    // A kind C does not list is a bug on C's side: shown, not swallowed.
                    let known = RenderNode.Kind(rawValue: kind)
                    let node = RenderNode(kind: known ?? .error,
                                          text: known == nil ? "internal: unknown view kind \(kind)" : text.string)
                    node.animation = current === root ? unit.last.animation : current.animation
                    node.owner = unit
                    node.generation = unit.last.generation
                    current.ownChildren.append(node)
                    stack.append(node)
                case .end:
                    if stack.count > 1 { stack.removeLast() }
                case let .modifier(name, value):
                    current.modifiers.append(.init(name: name.string ?? "", value: value.string ?? ""))
                case let .slot(role, slot):
                    current.slots.append((role, slot))
                case let .attribute(name, value):
                    // The whole output's own (no node open) are the unit's outputAttributes already.
                    if current !== root { current.ownAttributes.append((name.string ?? "", value.string ?? "")) }
                case let .animate(animation):
                    current.animation = animation.count > 0 ? animation.string : nil
                case let .link(index):
                    if index >= 0, index < unit.last.links.count { current.unit = unit.last.links[Int(index)] }
                case .position, .site, .unitRecord, .unitChanged, .environmentChanged:
                    break
                case .invalid:
                    let node = RenderNode(kind: .error, text: "internal: a view's output records were cut short")
                    node.owner = unit
                    root.ownChildren = [node]
                    return
                }
            }
        }
        return root.ownChildren
    }
}
