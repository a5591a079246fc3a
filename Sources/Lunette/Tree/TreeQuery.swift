/// Finding nodes in a rendered tree, in tree order.
enum TreeQuery {
    /// A found node and where it lives: the unit whose output holds it and its path there.
    struct Match {
        let node: RenderNode
        let unit: Unit
        let path: [Int]
    }

    /// The matches of an app's last query, and the round they were found
    /// in: `app:findAll` asks for the first match, then the next, … — each
    /// answered from here while nothing rendered since, so n matches cost
    /// one search of the tree, not n. Kept as handles (a weak unit and a
    /// path), so they hold no node or unit alive after a re-render.
    struct Remembered {
        let query: Query
        let round: Int
        let found: [NodeHandles.Handle]
    }

    /// What to look for; each given part must hold.
    struct Query: Equatable {
        /// Equals the node's text (Text content, Button/Toggle label, TextField placeholder).
        var text: String?
        /// Equals the node's type name ("Button", "BookView").
        var type: String?
        /// Equals the identity its `:id(v)` gave it.
        var id: String?

        var isEmpty: Bool { text == nil && type == nil && id == nil }
    }

    /// Nodes whose text equals `text`, and whose type name equals `type`, where given.
    static func find(in unit: Unit, text: String?, type: String?) -> [Match] {
        find(in: unit, Query(text: text, type: type, id: nil))
    }

    /// Nodes matching the query, in tree order.
    static func find(in unit: Unit, _ query: Query) -> [Match] {
        var matches: [Match] = []
        visit(unit, query, into: &matches)
        return matches
    }

    private static func visit(_ unit: Unit, _ query: Query, into matches: inout [Match]) {
        for (index, node) in unit.output.enumerated() {
            visit(node, unit: unit, path: [index], query, into: &matches)
        }
    }

    private static func visit(_ node: RenderNode, unit: Unit, path: [Int], _ query: Query, into matches: inout [Match]) {
        if isMatch(node, query) { matches.append(Match(node: node, unit: unit, path: path)) }
        if let child = node.unit { visit(child, query, into: &matches) }
        for (index, child) in node.ownChildren.enumerated() {    // with a unit: what its parent presented on it
            visit(child, unit: unit, path: path + [index], query, into: &matches)
        }
    }

    /// Where `node` sits in `unit`'s output (indices through nodes the unit
    /// built), or nil if it is not there.
    static func path(of node: RenderNode, in unit: Unit) -> [Int]? {
        func search(_ nodes: [RenderNode], _ prefix: [Int]) -> [Int]? {
            for (index, candidate) in nodes.enumerated() {
                if candidate === node { return prefix + [index] }
                if let found = search(candidate.ownChildren, prefix + [index]) { return found }
            }
            return nil
        }
        return search(unit.output, [])
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

    static func isMatch(_ node: RenderNode, _ query: Query) -> Bool {
        if node.isTransparent || query.isEmpty { return false }
        if let type = query.type, node.typeName != type { return false }
        if let text = query.text {
            guard node.kind != .component, node.text == text else { return false }
        }
        if let id = query.id, node.ownAttributes.first(where: { $0.name == "id" })?.value != id { return false }
        return true
    }
}
