/// Finding nodes in a rendered tree, in tree order.
enum TreeQuery {
    /// A found node and where it lives: the unit whose output holds it and its path there.
    struct Match {
        let node: RenderNode
        let unit: Unit
        let path: [Int]
    }

    /// Nodes whose text (Text content, Button/Toggle label, TextField
    /// placeholder) equals `text`, and whose type name equals `type`, where given.
    static func find(in unit: Unit, text: String?, type: String?) -> [Match] {
        var matches: [Match] = []
        visit(unit, text: text, type: type, into: &matches)
        return matches
    }

    private static func visit(_ unit: Unit, text: String?, type: String?, into matches: inout [Match]) {
        for (index, node) in unit.output.enumerated() {
            visit(node, unit: unit, path: [index], text: text, type: type, into: &matches)
        }
    }

    private static func visit(_ node: RenderNode, unit: Unit, path: [Int], text: String?, type: String?,
                              into matches: inout [Match]) {
        if isMatch(node, text: text, type: type) { matches.append(Match(node: node, unit: unit, path: path)) }
        if let child = node.unit {
            visit(child, text: text, type: type, into: &matches)
            return
        }
        for (index, child) in node.ownChildren.enumerated() {
            visit(child, unit: unit, path: path + [index], text: text, type: type, into: &matches)
        }
    }

    /// How many rows the lazy Lists under `unit` hold outside their windows.
    static func hiddenRows(in unit: Unit) -> Int {
        var total = 0
        func visit(_ node: RenderNode) {
            for name in ["rowsBefore", "hiddenRows"] { total += node.attribute(name).flatMap { Int($0) } ?? 0 }
            node.children.forEach(visit)
        }
        unit.output.forEach(visit)
        return total
    }

    private static func isMatch(_ node: RenderNode, text: String?, type: String?) -> Bool {
        if node.kind == .row { return false }
        if let type, node.typeName != type { return false }
        if let text {
            guard node.kind != .component, node.text == text else { return false }
        }
        return text != nil || type != nil
    }
}
