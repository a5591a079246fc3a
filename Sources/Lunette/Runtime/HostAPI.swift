// What a Swift host does besides running scripts: take an app down, hand
// Lua plain values. (Finding nodes is on `App`: Tree/Finding.swift.)
extension LunetteRuntime {
    /// Takes an app off the screen, as `app:unmount()` does in Lua: its views
    /// are disposed (their tasks stop, their subscriptions end), their
    /// onDisappear actions run, and the app leaves `apps`. Its nodes are no
    /// longer rendered: tapping one is an error. Unmounting an app twice does
    /// nothing.
    ///
    /// Thread: the runtime's. Call it from Swift, not from a method Lua calls.
    public func unmount(_ app: App) {
        guard mounting.appsByID[app.id] === app else { return }
        removeApp(app)
        flushState.changed[app.id] = nil
        releasePendingRefs()
        flush()
    }

    /// Sets the Lua global `name` to a copy of a plain value: a string, a
    /// number, a boolean, nil, a list or a table of them (nested), objects
    /// of registered types anywhere inside. Lua gets its own copy, as Swift
    /// values are copied: changing the Swift value later changes nothing in
    /// Lua (expose an `@Observable` class for values that change).
    ///
    /// ```swift
    /// try runtime.setGlobal("appName", to: .string("Inbox"))
    /// try runtime.setGlobal("limits", to: .table(["unread": .int(50), "ratio": .double(0.5)]))
    /// ```
    ///
    /// `LunetteBridge` adds `setGlobal(_:to:)` for any `LuaConvertible`
    /// value (`"Inbox"`, `50`, `["a", "b"]`, `["unread": 50]`).
    ///
    /// Thread: the runtime's. Throws `LunetteError.setup` for an object of a
    /// type not registered or a value nested more than 100 levels deep, and
    /// `LunetteError.script` if Lua runs out of memory making it.
    public func setGlobal(_ name: String, to value: LuaValue) throws {
        if case .object(let object) = value { return try setGlobal(name, to: object) }
        var literal = LuaLiteral()
        let expression = try literal.expression(for: value, depth: 0)
        // Objects cross by handle: each is set as a hidden global, taken into a local, and cleared.
        var source = ""
        for (index, object) in literal.objects.enumerated() {
            let hidden = "\u{1}lunette.setGlobal.\(index + 1)"
            try setGlobal(hidden, to: object)
            source += "local o\(index + 1) = _ENV[\(LuaLiteral.quoted(hidden))]; _ENV[\(LuaLiteral.quoted(hidden))] = nil\n"
        }
        source += "_ENV[\(LuaLiteral.quoted(name))] = \(expression)\n"
        try runChunk(source, name: "=(setGlobal \(name.prefix(40)))")
    }
}

/// A Swift value written as a Lua expression: strings byte-exact, integers
/// as integers and floats as floats (NaN, infinities and -0.0 included).
struct LuaLiteral {
    /// Objects the expression names as o1, o2, ... (locals the chunk defines).
    private(set) var objects: [AnyObject] = []

    static let maximumDepth = 100

    mutating func expression(for value: LuaValue, depth: Int) throws -> String {
        guard depth <= Self.maximumDepth else {
            throw LunetteError.setup("a value for a Lua global may be nested at most \(Self.maximumDepth) levels deep")
        }
        switch value {
        case .none: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return i == Int.min ? "(-9223372036854775807 - 1)" : "\(i)"
        case .double(let d):
            if d.isNaN { return "(0/0)" }
            if d.isInfinite { return d < 0 ? "(-1/0)" : "(1/0)" }
            return "(\(d))"                                   // Swift's shortest round-trip form, always a float ("1.0", "1e+16")
        case .string(let s): return Self.quoted(s)
        case .object(let object): return name(of: object)
        case .array(let objects): return "{" + objects.map { name(of: $0) }.joined(separator: ", ") + "}"
        case .list(let values):
            return "{" + (try values.map { try expression(for: $0, depth: depth + 1) }).joined(separator: ", ") + "}"
        case .table(let entries):
            let fields = try entries.sorted { $0.key < $1.key }.map { key, value in
                "[\(Self.quoted(key))] = \(try expression(for: value, depth: depth + 1))"
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    private mutating func name(of object: AnyObject) -> String {
        if let index = objects.firstIndex(where: { $0 === object }) { return "o\(index + 1)" }
        objects.append(object)
        return "o\(objects.count)"
    }

    /// A Lua string literal of exactly these bytes: printable ASCII as is, the rest as \ddd.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for byte in s.utf8 {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\" + String(repeating: "0", count: byte < 10 ? 2 : byte < 100 ? 1 : 0) + String(byte)
            }
        }
        return out + "\""
    }
}
