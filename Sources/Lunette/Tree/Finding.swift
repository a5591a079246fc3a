import Foundation

/// Finding nodes from Swift with the queries scripts use (`app:find`,
/// `app:findAll`): by text, by type name, by the identity `:id(v)` gave.
extension App {
    /// The first node, in tree order, whose text is `text` (a Text's content,
    /// a Button's or Toggle's label, a TextField's placeholder), as
    /// `app:find("Archive")` in Lua; nil if none is rendered.
    ///
    /// Thread: the runtime's (the tree changes at each flush).
    public func find(_ text: String) -> RenderNode? {
        findAll(text: text).first
    }

    /// The first node, in tree order, that matches every part given, as
    /// `app:find{ type = "Button", text = "Archive" }` in Lua: `text` as in
    /// `find(_:)`, `type` the type name ("Button", "MessageRow"), `id` the
    /// value `:id(v)` gave it (`.string("m2")`, `.int(2)`: a string, a number
    /// or a boolean; 2 and "2" are different ids, as in Lua). Nil if none
    /// matches or no part is given.
    ///
    /// Thread: the runtime's.
    public func find(text: String? = nil, type: String? = nil, id: LuaValue? = nil) -> RenderNode? {
        findAll(text: text, type: type, id: id).first
    }

    /// Every node that matches every part given, in tree order, as
    /// `app:findAll{ ... }` in Lua (see `find(text:type:id:)`).
    ///
    /// Thread: the runtime's.
    public func findAll(text: String? = nil, type: String? = nil, id: LuaValue? = nil) -> [RenderNode] {
        guard let root, let query = TreeQuery.Query(text: text, type: type, id: id) else { return [] }
        return TreeQuery.find(in: root, query).map(\.node)
    }
}

extension RenderNode {
    /// The first node below this one (not itself), in tree order, that
    /// matches every part given, as `App.find(text:type:id:)` does for a
    /// whole app: the Archive button of one row is
    /// `row.find(text: "Archive", type: "Button")`.
    ///
    /// Thread: the runtime's.
    public func find(text: String? = nil, type: String? = nil, id: LuaValue? = nil) -> RenderNode? {
        findAll(text: text, type: type, id: id).first
    }

    /// Every node below this one that matches every part given, in tree order.
    ///
    /// Thread: the runtime's.
    public func findAll(text: String? = nil, type: String? = nil, id: LuaValue? = nil) -> [RenderNode] {
        guard let query = TreeQuery.Query(text: text, type: type, id: id) else { return [] }
        var found: [RenderNode] = []
        func visit(_ nodes: [RenderNode], depth: Int) {
            guard depth <= 2_000 else { return }                       // trees are at most 1000 views deep (R18)
            for node in nodes {
                if TreeQuery.isMatch(node, query) { found.append(node) }
                visit(node.children, depth: depth + 1)
            }
        }
        visit(children, depth: 0)
        return found
    }
}

extension TreeQuery.Query {
    /// A query from Swift's arguments; nil when `id` is a value no node can have (a table, an object).
    init?(text: String?, type: String?, id: LuaValue?) {
        var key: String?
        if let id {
            guard let identity = Self.identityKey(id) else { return nil }
            key = identity
        }
        self.init(text: text, type: type, id: key)
    }

    /// The key `:id(v)` files a node under (lun_identity_key in C): "s:m2", "v:2", "v:true".
    static func identityKey(_ id: LuaValue) -> String? {
        switch id {
        case .string(let s): return "s:" + s
        case .int(let i): return "v:\(i)"
        case .bool(let b): return "v:\(b)"
        case .double(let d):
            if d.isNaN { return d.sign == .minus ? "v:-nan" : "v:nan" }
            if d.isInfinite { return d < 0 ? "v:-inf" : "v:inf" }
            let text = String(format: "%.14g", d)                                // as Lua's tostring writes it:
            return "v:" + text + (text.allSatisfy { $0.isNumber || $0 == "-" } ? ".0" : "")   // "2.0", "1e+15"
        default: return nil
        }
    }
}
