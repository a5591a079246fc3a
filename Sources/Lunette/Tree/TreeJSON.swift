/// A rendered tree as JSON: `{ "app": 1, "nodes": [ { "type", "text",
/// "modifiers": [{ "name", "value" }], "attributes": {...}, "children": [...] } ] }`.
/// Row nodes are transparent, as in the text form.
/// Component nodes also carry their `dependencies`; the app carries its
/// `warnings` and its why-re-rendered `trace` (when tracing).
enum TreeJSON {
    /// Labels a component node's dependencies ("Book#3.title").
    typealias Dependencies = (Unit) -> [String]

    static func render(_ app: App, dependencies: Dependencies) -> String {
        var out = "{\"app\":\(app.id),\"nodes\":"
        appendList(app.nodes, dependencies, to: &out)
        out += ",\"warnings\":[" + app.warnings.map(string).joined(separator: ",") + "]"
        out += ",\"trace\":[" + app.trace.map(string).joined(separator: ",") + "]"
        return out + "}"
    }

    private static func appendList(_ nodes: [RenderNode], _ dependencies: Dependencies, to out: inout String) {
        out += "["
        var first = true
        for node in flattened(nodes) {
            if !first { out += "," }
            first = false
            append(node, dependencies, to: &out)
        }
        out += "]"
    }

    private static func flattened(_ nodes: [RenderNode]) -> [RenderNode] {
        nodes.flatMap { $0.isTransparent ? flattened($0.children) : [$0] }
    }

    private static func append(_ node: RenderNode, _ dependencies: Dependencies, to out: inout String) {
        out += "{\"type\":\(string(node.typeName))"
        if node.kind == .component, let unit = node.unit {
            out += ",\"component\":true,\"dependencies\":[" + dependencies(unit).map(string).joined(separator: ",") + "]"
        }
        if let text = node.text, node.kind != .component { out += ",\"text\":\(string(text))" }
        if !node.modifiers.isEmpty {
            out += ",\"modifiers\":[" + node.modifiers.map {
                "{\"name\":\(string($0.name)),\"value\":\(string($0.value))}"
            }.joined(separator: ",") + "]"
        }
        if !node.attributes.isEmpty {
            out += ",\"attributes\":{" + node.attributes.map { "\(string($0.name)):\(string($0.value))" }
                .joined(separator: ",") + "}"
        }
        let children = node.children
        if !children.isEmpty {
            out += ",\"children\":"
            appendList(children, dependencies, to: &out)
        }
        out += "}"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
