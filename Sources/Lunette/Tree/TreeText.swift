/// A rendered tree as indented text: one node a line, modifiers shown as
/// they were written. Row nodes are transparent (their content is shown at
/// the row's place), but for a row with attributes of its own (a selection,
/// onDelete, onMove: `Row selected=true tag="b"`).
///
///     LibraryView
///       NavigationStack
///         List .navigationTitle("Books available: 3")
///           BookView
///             Text "Sample Book Title"
enum TreeText {
    static func render(_ nodes: [RenderNode]) -> String {
        var out = ""
        for node in nodes { append(node, depth: 0, to: &out) }
        return out
    }

    /// The line of one node, without indentation.
    static func line(_ node: RenderNode) -> String {
        var line = node.typeName
        switch node.kind {
        case .component, .row, .list, .forEach, .vStack, .hStack, .group, .spacer, .emptyView, .sheet, .divider, .scrollView:
            break
        case .error:
            line += " \(node.attribute("view") ?? "view"): \(node.text ?? "")"
        default:
            if let text = node.text { line += " " + quoted(text) }
        }
        if let value = node.attribute("value") {
            line += node.kind == .textField || node.kind == .secureField ? " = \(quoted(value))" : " \(value)"
        }
        for modifier in node.modifiers {
            line += " .\(modifier.name)(\(modifier.value))"
        }
        if let animated = node.attribute("animated") { line += " [animated: \(animated)]" }
        for attribute in node.attributes where !["value", "format", "view", "location", "hiddenRows", "rowsBefore", "animated", "id"].contains(attribute.name)
            && !attribute.name.utf8.starts(with: "preference:".utf8)
            && !attribute.name.utf8.starts(with: "onPreferenceChange:".utf8) {
            line += " \(attribute.name)=\(attribute.value)"
        }
        return line
    }

    private static func append(_ node: RenderNode, depth: Int, to out: inout String) {
        if node.isTransparent {
            for child in node.children { append(child, depth: depth, to: &out) }
            return
        }
        out += String(repeating: "  ", count: depth) + line(node) + "\n"
        let inner = String(repeating: "  ", count: depth + 1)
        if let before = node.attribute("rowsBefore") { out += inner + "… \(before) rows before\n" }
        for child in node.children { append(child, depth: depth + 1, to: &out) }
        if let after = node.attribute("hiddenRows") { out += inner + "… \(after) more rows\n" }
    }

    /// `s` in double quotes, escaped as the runtime's descriptions are
    /// (`\"`, `\\`, `\n`, `\r`, `\t`, other control characters as `\ddd`):
    /// one line a script cannot break, nor fill with a terminal's escapes.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let digits = String(scalar.value)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
