import Foundation
import Lunette

/// A NavigationStack as the page draws it: which of its children are pushed
/// screens, and the back control's pop.
///
/// The runtime's stack (prelude.lua) renders its content, then one Group per
/// element of its path; the runtime exposes neither the path's length nor
/// the pushed screens' `dismiss`, so both are read from what an inspector
/// sees: the stack's `path` input (a binding) or its own `own` state, and
/// the state the binding reads. A pop writes that state without its last
/// element, through the normal write path, as writing the path from a
/// script does.
struct NavigationPop {
    let runtime: LunetteRuntime

    /// How many of `children` (a NavigationStack's, rows flattened) are
    /// pushed screens; nil if `node` is no NavigationStack.
    func screens(of node: RenderNode, children: [RenderNode]) -> Int? {
        guard node.kind == .component, node.typeName == "NavigationStack" else { return nil }
        let trailingGroups = children.reversed().prefix { $0.kind.name == "Group" }.count
        guard let (_, _, description) = path(of: node), let count = Self.elements(of: description)?.count else {
            return trailingGroups           // the path is too long to read: every trailing Group is a screen
        }
        return min(count, trailingGroups)
    }

    /// Pops the stack's top screen, as its `dismiss` does.
    func pop(_ node: RenderNode) throws {
        guard node.kind == .component, node.typeName == "NavigationStack" else {
            throw PreviewError("back: \(node.typeName) is no NavigationStack")
        }
        guard let (view, name, description) = path(of: node) else {
            throw PreviewError("back: could not find the state this NavigationStack's path binding writes "
                + "(a model's property?); pop it from the script (dismiss, or writing the path)")
        }
        try runtime.setState(of: view, name, to: try prefix(of: description, stack: node))
    }

    /// The path without its last element, as Lua source. The runtime
    /// describes values for people, so only elements that read back as the
    /// same value (strings, numbers, booleans) can be written again; a path
    /// one screen deep pops to `{}` whatever it holds (a link's view).
    private func prefix(of description: String, stack: RenderNode) throws -> String {
        if let elements = Self.elements(of: description), elements.allSatisfy(Self.isLiteral) {
            return "{" + elements.dropLast().joined(separator: ", ") + "}"
        }
        if screens(of: stack, children: PreviewTree.flattened(stack.children)) == 1 { return "{}" }
        throw PreviewError("back: the preview pops paths of strings, numbers and booleans, or one screen deep; "
            + "this one is \(description); pop it from the script (dismiss, or writing the path)")
    }

    /// The state holding the stack's path: (view label, state name, the value as described).
    private func path(of stack: RenderNode) -> (String, String, String)? {
        guard let inspection = runtime.inspect(stack) else { return nil }
        let inputs = inspection.inputs.split(separator: "\n").map(String.init)
        guard let bound = inputs.first(where: { $0.hasPrefix("path = Binding(") && $0.hasSuffix(")") }) else {
            let own = inspection.state.split(separator: "\n").first { $0.hasPrefix("own = ") }
            return own.map { (inspection.label, "own", String($0.dropFirst("own = ".count))) }
        }
        let description = String(bound.dropFirst("path = Binding(".count).dropLast())
        // The binding reads some view's state: the stack depends on it ("Library.state#1.path").
        for dependency in inspection.dependencies {
            guard let (view, name) = Self.stateOwner(dependency),
                  let state = try? runtime.state(of: view),
                  state.split(separator: "\n").contains(Substring("\(name) = \(description)")) else { continue }
            return (view, name, description)
        }
        return nil
    }

    /// "Library.state#1.path" → ("Library#1", "path"); a view's name may
    /// hold dots ("My.Library.state#1.path").
    static func stateOwner(_ dependency: String) -> (String, String)? {
        let parts = dependency.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let at = parts.indices.dropFirst().first(where: {
            parts[$0].hasPrefix("state#") && Int(parts[$0].dropFirst("state#".count)) != nil
        }), at + 1 < parts.count else { return nil }
        let view = parts[..<at].joined(separator: "."), name = parts[(at + 1)...].joined(separator: ".")
        return (view + "#" + parts[at].dropFirst("state#".count), name)
    }

    /// The elements of a list as the runtime describes it (`{"Dune", 3}`),
    /// split at its top level; nil if it is not a list or was cut short.
    static func elements(of description: String) -> [String]? {
        guard description.hasPrefix("{"), description.hasSuffix("}") else { return nil }
        let inner = description.dropFirst().dropLast()
        var parts: [String] = [], current = "", depth = 0, quoted = false, escaped = false
        for character in inner {
            if escaped { escaped = false; current.append(character); continue }   // \" inside a string
            if quoted && character == "\\" { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if "{([".contains(character) { depth += 1 }
                if "})]".contains(character) { depth -= 1 }
                if character == "," && depth == 0 {
                    parts.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue
                }
            }
            current.append(character)
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || !parts.isEmpty { parts.append(last) }
        if parts.contains("...") || parts.contains(where: { $0.contains("=") && !$0.hasPrefix("\"") }) { return nil }
        return parts
    }

    /// Whether a described element reads back as the same Lua value: a
    /// string the description did not need to escape, a number, a boolean.
    static func isLiteral(_ element: String) -> Bool {
        if element == "true" || element == "false" { return true }
        if element.range(of: #"^-?\d+(\.\d+)?([eE][-+]?\d+)?$"#, options: .regularExpression) != nil { return true }
        return element.range(of: #"^"[^"\\\n\r]*"$"#, options: .regularExpression) != nil
    }
}
