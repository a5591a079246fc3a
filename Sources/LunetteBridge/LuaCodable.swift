import Foundation
import Lunette

/// A `Codable` struct that crosses to Lua as a table of its fields, copied
/// both ways (a value, as the struct is): declare the conformance and
/// nothing else. `struct Address: LuaCodable { var street: String; var zip: Int }`.
public protocol LuaCodable: Codable, LuaConvertible {}

extension LuaCodable {
    /// A Lua table of the struct's fields (a copy), through its `Codable` encoding.
    public var luaValue: LuaValue {
        guard let data = try? JSONEncoder().encode(self),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return .none }
        return LuaCodableValues.value(of: object)
    }

    /// "<Struct> (a table)".
    public static var luaTypeName: String { "\(Self.self) (a table)" }

    /// The struct decoded from a Lua table; a missing or mistyped field throws
    /// `LuaConversionError` naming it (`missing 'zip'`).
    public static func fromLua(_ value: LuaValue) throws -> Self {
        do {
            let data = try JSONSerialization.data(withJSONObject: LuaCodableValues.object(of: value), options: [.fragmentsAllowed])
            return try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw LuaConversionError(expected: "\(luaTypeName): \(LuaCodableValues.describe(error))", got: value.typeName)
        }
    }
}

/// JSON-shaped values and Lua values, one into the other.
enum LuaCodableValues {
    static func value(of object: Any) -> LuaValue {
        switch object {
        case let n as NSNumber:
            switch String(cString: n.objCType) {
            case "c", "B": return .bool(n.boolValue)
            case "d", "f": return .double(n.doubleValue)
            default: return .int(n.intValue)
            }
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map(value(of:)))
        case let d as [String: Any]: return .table(d.mapValues(value(of:)))
        default: return .none
        }
    }

    static func object(of value: LuaValue) -> Any {
        switch value {
        case .none: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .list(let values): return values.map(object(of:))
        case .table(let entries): return entries.mapValues(object(of:))
        case .object, .array: return NSNull()
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing '\(key.stringValue)'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' must be \(type)"
        default: return "\(error)"
        }
    }
}
