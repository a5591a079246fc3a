import Foundation
import Lunette

/// A Swift value that converts to and from Lua.
public protocol LuaConvertible {
    var luaValue: LuaValue { get }
    static func fromLua(_ value: LuaValue) throws -> Self
    /// How messages name the type: "string", "number", "Book".
    static var luaTypeName: String { get }
    /// Arrays of exposed objects: Lua reads their elements one at a time.
    static var isLuaArray: Bool { get }
    static func luaCount(of value: Self) -> Int
    static func luaElement(of value: Self, at index: Int) -> AnyObject
}

extension LuaConvertible {
    public static var isLuaArray: Bool { false }
    public static func luaCount(of value: Self) -> Int { 0 }
    public static func luaElement(of value: Self, at index: Int) -> AnyObject {
        preconditionFailure("\(Self.self) has no elements")
    }
}

extension String: LuaConvertible {
    public var luaValue: LuaValue { .string(self) }
    public static var luaTypeName: String { "string" }
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
    public var luaValue: LuaValue { .int(self) }
    public static var luaTypeName: String { "integer" }
    public static func fromLua(_ value: LuaValue) throws -> Int {
        switch value {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: return Int(d)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

extension Double: LuaConvertible {
    public var luaValue: LuaValue { .double(self) }
    public static var luaTypeName: String { "number" }
    public static func fromLua(_ value: LuaValue) throws -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
    }
}

extension Bool: LuaConvertible {
    public var luaValue: LuaValue { .bool(self) }
    public static var luaTypeName: String { "boolean" }
    public static func fromLua(_ value: LuaValue) throws -> Bool {
        guard case .bool(let b) = value else { throw LuaConversionError(expected: luaTypeName, got: value.typeName) }
        return b
    }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
    public var luaValue: LuaValue { self?.luaValue ?? .none }
    public static var luaTypeName: String { "\(Wrapped.luaTypeName) or nil" }
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

    public var luaValue: LuaValue {
        Self.holdsObjects ? .array(map { $0 as AnyObject }) : .list(map(\.luaValue))
    }
    public static var isLuaArray: Bool { holdsObjects }
    public static func luaCount(of value: [Element]) -> Int { value.count }
    public static func luaElement(of value: [Element], at index: Int) -> AnyObject { value[index] as AnyObject }
    public static var luaTypeName: String { "array of \(Element.luaTypeName)" }
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
    public var luaValue: LuaValue { .table(mapValues(\.luaValue)) }
    public static var luaTypeName: String { "table of \(Value.luaTypeName)" }
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
    public var luaValue: LuaValue { .double(timeIntervalSince1970) }
    public static var luaTypeName: String { "date (seconds since 1970)" }
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
    public var luaValue: LuaValue { rawValue.luaValue }
    public static var luaTypeName: String { "\(Self.self) (\(RawValue.luaTypeName))" }
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let made = Self(rawValue: try RawValue.fromLua(value)) else {
            throw LuaConversionError(expected: "one of \(Self.self)'s values", got: "\(value)")
        }
        return made
    }
}
