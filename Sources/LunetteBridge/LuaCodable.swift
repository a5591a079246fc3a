import Foundation
import Lunette

/// A `Codable` struct that crosses to Lua as a table of its fields, copied
/// both ways (a value, as the struct is): declare the conformance and
/// nothing else. `struct Address: LuaCodable { var street: String; var zip: Int }`.
public protocol LuaCodable: Codable, LuaConvertible {}

extension LuaCodable {
    /// A Lua table of the struct's fields (a copy), through its `Codable`
    /// encoding (`LuaValueEncoder`: a `Date` as seconds since 1970, a
    /// `Double` as a float). A struct whose own `encode(to:)` throws reads as nil.
    public var luaValue: LuaValue { (try? LuaValueEncoder.encode(self)) ?? .none }

    /// "<Struct> (a table)".
    public static var luaTypeName: String { "\(Self.self) (a table)" }

    /// The struct decoded from a Lua table; a missing or mistyped field throws
    /// `LuaConversionError` naming it (`missing 'zip'`).
    public static func fromLua(_ value: LuaValue) throws -> Self {
        let object = LuaCodableValues.object(of: value)
        guard JSONSerialization.isValidJSONObject([object]) else {   // NaN or an infinity: no field takes it
            throw LuaConversionError(expected: "\(luaTypeName): finite numbers", got: "a NaN or infinite number")
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970  // as a Date crosses to Lua
            return try decoder.decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw LuaConversionError(expected: "\(luaTypeName): \(LuaCodableValues.describe(error))", got: value.typeName)
        } catch {                                        // the JSON between them refused it: said, not raw
            throw LuaConversionError(expected: "\(luaTypeName) (\(error.localizedDescription))", got: value.typeName)
        }
    }
}

/// Lua values as JSON-shaped objects (a struct is decoded from them), and decoding errors described.
enum LuaCodableValues {
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
        case .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "'\(path)': ") + context.debugDescription
        default: return "\(error)"
        }
    }
}
