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

extension Array: LuaConvertible where Element: LuaClass {
    public var luaValue: LuaValue { .array(map { $0 as AnyObject }) }
    public static var isLuaArray: Bool { true }
    public static func luaCount(of value: [Element]) -> Int { value.count }
    public static func luaElement(of value: [Element], at index: Int) -> AnyObject { value[index] }
    public static var luaTypeName: String { "array of \(Element.luaName)" }
    public static func fromLua(_ value: LuaValue) throws -> [Element] {
        guard case .array(let objects) = value else {
            throw LuaConversionError(expected: luaTypeName, got: value.typeName)
        }
        return try objects.map { try Element.fromLua(.object($0)) }
    }
}
