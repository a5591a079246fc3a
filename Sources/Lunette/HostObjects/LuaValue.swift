/// A value crossing between a Swift host object and Lua.
///
/// Swift properties exposed to Lua convert to and from these: strings,
/// numbers, booleans, other exposed objects, arrays of exposed objects
/// (shared, read one element at a time), and lists and dictionaries of
/// values (copied both ways, as Swift values are).
public enum LuaValue {
    case none
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case object(AnyObject)
    case array([AnyObject])
    /// A Lua sequence: `{ "a", "b" }`.
    case list([LuaValue])
    /// A Lua table with string keys: `{ a = 1 }`.
    case table([String: LuaValue])

    /// What a person would call this value's type, for error messages.
    public var typeName: String {
        switch self {
        case .none: return "nil"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .object(let object): return String(describing: type(of: object))
        case .array: return "array"
        case .list: return "list"
        case .table: return "table"
        }
    }
}

/// A conversion failed: the value Lua gave does not fit the Swift property.
public struct LuaConversionError: Error, CustomStringConvertible {
    /// What the property or argument needed: "number", "2 arguments", "Folder (string)".
    public let expected: String
    /// What Lua gave: a type name or the value.
    public let got: String

    /// A conversion error; a `LuaConvertible` type throws it from `fromLua`.
    public init(expected: String, got: String) {
        self.expected = expected
        self.got = got
    }

    /// "expected number, got string": the text Lua's error shows after the property's name.
    public var description: String { "expected \(expected), got \(got)" }
}
