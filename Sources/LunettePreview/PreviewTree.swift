import Foundation
import Lunette

/// The rendered trees as the page draws them: JSON whose nodes carry an id
/// (their path from the app, "1/0.2.1"), so a click names the node it was on
/// and the page patches only the nodes whose JSON changed.
enum PreviewTree {
    /// Every mounted app: `[{ "app": 1, "nodes": [...] }]`, and the
    /// milliseconds the last render took of each view named in `timed`, read
    /// on the way (one walk: no lookup by label per view).
    static func json(of runtime: LunetteRuntime, timing timed: Set<String> = []) -> Drawing {
        var walk = Walk(timed: timed, stackScreens: { NavigationPop(runtime: runtime).screens(of: $0, children: $1) })
        let apps: [[String: Any]] = runtime.apps.map { app in
            ["app": Int(app.idNumber), "nodes": walk.list(flattened(app.nodes), prefix: "\(app.idNumber)/")]
        }
        return Drawing(json: apps, costs: walk.costs, drawn: walk.drawn, hosted: walk.hosted)
    }

    /// The JSON of `node` and what it holds, drawn at `id` (a patch of one view's subtree).
    static func subtree(_ node: RenderNode, id: String, of runtime: LunetteRuntime, timing timed: Set<String>) -> Drawing {
        var walk = Walk(timed: timed, stackScreens: { NavigationPop(runtime: runtime).screens(of: $0, children: $1) })
        let json = walk.node(node, id: id)
        return Drawing(json: json, costs: walk.costs, drawn: walk.drawn, hosted: walk.hosted)
    }

    /// What a walk drew: the JSON, the render costs of the views asked for,
    /// where each view was drawn (its label → its node's id), and where
    /// each List's content and row was, by unit (a row drawn transparently:
    /// at the node that holds it; two Lists of one view share a label).
    struct Drawing {
        let json: Any
        let costs: [String: Double]
        let drawn: [String: String]
        let hosted: [Int32: String]
    }

    /// The node an id names, if it is still rendered.
    static func node(_ id: String, in runtime: LunetteRuntime) -> RenderNode? {
        path(id, in: runtime)?.last
    }

    /// The longest id a page may name: "app/i.j.k…", a place for each level
    /// of a tree at most `LUN_MAX_TREE_DEPTH` deep.
    static let longestID = 16 << 10

    /// Whether `id` is written as the preview writes ids: "app/i.j.k", each
    /// place decimal digits with no sign and no leading zero ("+1/00" named
    /// the node "1/0" did; an id the page never drew is not repaired into
    /// one it did), at most `longestID` bytes.
    static func isWellFormed(_ id: String) -> Bool {
        guard id.utf8.count <= longestID else { return false }
        var place = 0, places = 0, leadingZero = false
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if leadingZero { return false }
                if place == 0 && byte == UInt8(ascii: "0") { leadingZero = true }
                place += 1
            case UInt8(ascii: "/") where places == 0, UInt8(ascii: ".") where places > 0:
                guard place > 0 else { return false }
                places += 1
                place = 0
                leadingZero = false
            default: return false
            }
        }
        return places > 0 && place > 0
    }

    /// The nodes an id names, from the app's top to the node itself, if they
    /// are still rendered: each place a number, none empty ("1/0..2" names
    /// nothing: an id that was not drawn is not repaired into one that was).
    static func path(_ id: String, in runtime: LunetteRuntime) -> [RenderNode]? {
        guard isWellFormed(id) else { return nil }
        let parts = id.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let appID = Int(parts[0]), let app = runtime.apps.first(where: { Int($0.idNumber) == appID }) else { return nil }
        var nodes = flattened(app.nodes)
        var path: [RenderNode] = []
        for step in parts[1].split(separator: ".", omittingEmptySubsequences: false) {
            guard let index = Int(step), index < nodes.count else { return nil }
            path.append(nodes[index])
            nodes = flattened(nodes[index].children)
        }
        return path
    }

    /// Whether `node` hosts the unit `unit` (a traced run's), or holds it
    /// in a row drawn transparently at its place.
    static func hosts(_ node: RenderNode, _ unit: Int32) -> Bool {
        node.hostedUnit == unit || transparentRows(in: node.children).contains { $0.hostedUnit == unit }
    }

    /// The rows among `nodes`, and the rows inside those, drawn
    /// transparently (their content at their place), depth first.
    static func transparentRows(in nodes: [RenderNode]) -> [RenderNode] {
        var rows: [RenderNode] = [], stack = nodes.filter(\.isTransparent)
        while let row = stack.popLast() {
            rows.append(row)
            stack.append(contentsOf: row.children.filter(\.isTransparent))
        }
        return rows
    }

    /// The component node of the view labelled `label` ("BookView#2"), if it is rendered.
    static func view(_ label: String, in runtime: LunetteRuntime) -> RenderNode? {
        for app in runtime.apps {
            for node in app.nodes {
                if let found = descendants(of: node, including: true).first(where: { $0.viewLabel == label }) { return found }
            }
        }
        return nil
    }

    /// Every node under `node` (and it, with `including`), depth first, rows transparent.
    static func descendants(of node: RenderNode, including: Bool = false) -> [RenderNode] {
        var out: [RenderNode] = including ? [node] : []
        var stack = Array(flattened(node.children).reversed())
        while let next = stack.popLast() {
            out.append(next)
            stack.append(contentsOf: flattened(next.children).reversed())
        }
        return out
    }

    /// What a page knew of a node when it asked to act on it: its type and
    /// its label (a view's node has no label in the page's JSON).
    struct Identity {
        let type: String?
        let text: String?
        /// For a Row (no text of its own): the texts below it, as the page
        /// drew them — what tells one row from the row a later frame moved
        /// into its place.
        var label: String? = nil

        func matches(_ node: RenderNode) -> Bool {
            node.typeName == type && (node.kind == .component || node.text == text)
                && (label == nil || Identity.texts(below: node) == label)
        }

        /// The texts in `node`'s subtree, depth first, joined by U+001F:
        /// at most 32 of them within 256 nodes, a component's name not one
        /// (the page's JSON has none: `rowLabel` in preview.html reads the
        /// same).
        static func texts(below node: RenderNode) -> String? {
            var stack = Array(node.children.reversed()), seen = 0, found: [String] = []
            while let next = stack.popLast(), seen < 256, found.count < 32 {
                seen += 1
                if next.kind != .component, let text = next.text { found.append(text) }
                stack.append(contentsOf: next.children.reversed())
            }
            return found.isEmpty ? nil : found.joined(separator: "\u{1F}")
        }
    }

    /// Rows are transparent, as in the text and JSON trees.
    static func flattened(_ nodes: [RenderNode]) -> [RenderNode] {
        nodes.flatMap { $0.isTransparent ? flattened($0.children) : [$0] }
    }

    /// One walk over the trees: the JSON of each node, and the render
    /// costs of the views asked for.
    private struct Walk {
        let timed: Set<String>
        /// How many of a NavigationStack's children are pushed screens (nil for other nodes).
        var stackScreens: ((RenderNode, [RenderNode]) -> Int?)?
        var costs: [String: Double] = [:]
        var drawn: [String: String] = [:]
        var hosted: [Int32: String] = [:]

        mutating func list(_ nodes: [RenderNode], prefix: String) -> [[String: Any]] {
            nodes.enumerated().map { index, node in
                self.node(node, id: prefix + String(index))
            }
        }

        mutating func node(_ node: RenderNode, id: String) -> [String: Any] {
            var out: [String: Any] = ["id": id, "type": node.typeName, "kind": node.kind.name]
            if let text = node.text, node.kind != .component { out["text"] = text }
            if let label = node.viewLabel {
                out["view"] = label
                drawn[label] = id
                if timed.contains(label) { costs[label] = (node.lastRenderSeconds ?? 0) * 1000 }
            } else if let unit = node.hostedUnit {
                hosted[unit] = id                     // a List's content, a row shown as a node
            }
            noteRows(in: node.children, drawnAt: id)
            if !node.modifiers.isEmpty { out["modifiers"] = node.modifiers.map { ["name": $0.name, "value": $0.value] } }
            let attributes = node.attributes
            if !attributes.isEmpty {
                out["attributes"] = Dictionary(attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
            }
            let children = PreviewTree.flattened(node.children)
            if let stack = stackScreens?(node, children) { out["screens"] = stack }
            if !children.isEmpty { out["children"] = list(children, prefix: id + ".") }
            return out
        }

        /// Rows drawn transparently (their content at their place) are
        /// found at the node that holds them: a row's run patches its list.
        mutating func noteRows(in nodes: [RenderNode], drawnAt id: String) {
            for row in PreviewTree.transparentRows(in: nodes) {
                if let unit = row.hostedUnit { hosted[unit] = id }
            }
        }
    }
}
