import Foundation
import Lunette

/// A Swift value that converts to and from Lua.
public protocol LuaConvertible {
    /// The value as Lua receives it (a copy; an exposed object is shared).
    var luaValue: LuaValue { get }
    /// The Swift value for what Lua gave; throws `LuaConversionError` naming what
    /// was expected when it does not fit.
    static func fromLua(_ value: LuaValue) throws -> Self
    /// How messages name the type: "string", "number", "Book".
    static var luaTypeName: String { get }
    /// Arrays of exposed objects: Lua reads their elements one at a time.
    static var isLuaArray: Bool { get }
    /// For an array of exposed objects: how many elements it has.
    static func luaCount(of value: Self) -> Int
    /// For an array of exposed objects: the element at a 0-based index.
    static func luaElement(of value: Self, at index: Int) -> AnyObject
}

extension LuaConvertible {
    /// False: a value crosses whole.
    public static var isLuaArray: Bool { false }
    /// 0: a value has no elements Lua reads one at a time.
    public static func luaCount(of value: Self) -> Int { 0 }
    /// Never called for a value (`isLuaArray` is false).
    public static func luaElement(of value: Self, at index: Int) -> AnyObject {
        preconditionFailure("\(Self.self) has no elements")
    }
}

extension String: LuaConvertible {
    /// A Lua string.
    public var luaValue: LuaValue { .string(self) }
    /// "string".
    public static var luaTypeName: String { "string" }
    /// A Lua string, or a number as text; throws `LuaConversionError` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> String {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

extension Int: LuaConvertible {
    /// A Lua integer.
    public var luaValue: LuaValue { .int(self) }
    /// "integer".
    public static var luaTypeName: String { "integer" }
    /// A Lua integer, or a float with an integral value; throws `LuaConversionError` otherwise.
    public static func fromLua(_ value: LuaValue) throws -> Int {
        switch value {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: return Int(d)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

extension Double: LuaConvertible {
    /// A Lua float.
    public var luaValue: LuaValue { .double(self) }
    /// "number".
    public static var luaTypeName: String { "number" }
    /// Any Lua number; throws `LuaConversionError` otherwise.
    public static func fromLua(_ value: LuaValue) throws -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

extension Bool: LuaConvertible {
    /// A Lua boolean.
    public var luaValue: LuaValue { .bool(self) }
    /// "boolean".
    public static var luaTypeName: String { "boolean" }
    /// A Lua boolean (no truthiness: 0 and "" are refused); throws `LuaConversionError` otherwise.
    public static func fromLua(_ value: LuaValue) throws -> Bool {
        guard case .bool(let b) = value else { throw LuaConversionError(expected: luaTypeName, got: value.typeName) }
        return b
    }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
    /// The wrapped value, or nil.
    public var luaValue: LuaValue { self?.luaValue ?? .none }
    /// "<type> or nil".
    public static var luaTypeName: String { "\(Wrapped.luaTypeName) or nil" }
    /// nil, or the wrapped type's conversion.
    public static func fromLua(_ value: LuaValue) throws -> Wrapped? {
        if case .none = value { return nil }
        return try Wrapped.fromLua(value)
    }
}

/// Arrays of exposed objects are shared with Lua and read one element at a
/// time; arrays of values (`[String]`, `[Int]`, ...) cross as Lua lists,
/// copied both ways, as Swift arrays are values.
extension Array: LuaConvertible where Element: LuaConvertible {
    private static var holdsObjects: Bool { Element.self is any LuaClass.Type }

    /// Exposed objects: the array itself, read one element at a time; values: a Lua list (a copy).
    public var luaValue: LuaValue {
        Self.holdsObjects ? .array(map { $0 as AnyObject }) : .list(map(\.luaValue))
    }
    /// True when the elements are exposed objects.
    public static var isLuaArray: Bool { holdsObjects }
    /// The array's count.
    public static func luaCount(of value: [Element]) -> Int { value.count }
    /// The element at a 0-based index.
    public static func luaElement(of value: [Element], at index: Int) -> AnyObject { value[index] as AnyObject }
    /// "array of <element type>".
    public static var luaTypeName: String { "array of \(Element.luaTypeName)" }
    /// A Lua list whose every element converts; a wrong one is named by its position (`at [2]`).
    public static func fromLua(_ value: LuaValue) throws -> [Element] {
        switch value {
        case .array(let objects): return try objects.map { try Element.fromLua(.object($0)) }
        case .list(let values):
            return try values.enumerated().map { index, element in
                do { return try Element.fromLua(element) } catch let error as LuaConversionError {
                    throw LuaConversionError(expected: "\(error.expected) at [\(index + 1)]", got: error.got)
                }
            }
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

/// `[String: V]` crosses as a Lua table with string keys, copied both ways.
extension Dictionary: LuaConvertible where Key == String, Value: LuaConvertible {
    /// A Lua table with string keys (a copy).
    public var luaValue: LuaValue { .table(mapValues(\.luaValue)) }
    /// "table of <value type>".
    public static var luaTypeName: String { "table of \(Value.luaTypeName)" }
    /// A Lua table whose every value converts (a wrong one is named `at .key`); an empty list is an empty dictionary.
    public static func fromLua(_ value: LuaValue) throws -> [String: Value] {
        switch value {
        case .table(let entries):
            return try entries.reduce(into: [:]) { result, entry in
                do { result[entry.key] = try Value.fromLua(entry.value) } catch let error as LuaConversionError {
                    throw LuaConversionError(expected: "\(error.expected) at .\(entry.key)", got: error.got)
                }
            }
        case .list(let values) where values.isEmpty: return [:]
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

/// A `Date` crosses as seconds since 1970 (what `os.time` counts).
extension Date: LuaConvertible {
    /// Seconds since 1970, as a float (what `os.time` counts).
    public var luaValue: LuaValue { .double(timeIntervalSince1970) }
    /// "date (seconds since 1970)".
    public static var luaTypeName: String { "date (seconds since 1970)" }
    /// A Lua number of seconds since 1970; throws `LuaConversionError` otherwise.
    public static func fromLua(_ value: LuaValue) throws -> Date {
        switch value {
        case .int(let i): return Date(timeIntervalSince1970: TimeInterval(i))
        case .double(let d): return Date(timeIntervalSince1970: d)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

/// An enum with a raw value crosses as its raw value: declare the
/// conformance (`enum Genre: String, LuaConvertible {...}`) and nothing else.
extension LuaConvertible where Self: RawRepresentable, RawValue: LuaConvertible {
    /// The raw value.
    public var luaValue: LuaValue { rawValue.luaValue }
    /// "<Enum> (<raw type>)".
    public static var luaTypeName: String { "\(Self.self) (\(RawValue.luaTypeName))" }
    /// A raw value of one of the cases; anything else throws `LuaConversionError` naming the enum.
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let made = Self(rawValue: try RawValue.fromLua(value)) else {
            throw LuaConversionError(expected: "one of \(Self.self)'s values", got: "\(value)")
        }
        return made
    }
}
