import Foundation
import GRDB
import Lunette

/// How a `LuaValue` is kept in a row: its kind, and a SQLite value.
enum StoredValue {
    static func encode(_ value: LuaValue) throws -> (String, DatabaseValue) {
        switch value {
        case .bool(let b): return ("boolean", b.databaseValue)
        case .int(let i): return ("integer", i.databaseValue)
        case .double(let d): return ("float", d.databaseValue)
        case .string(let s): return ("string", s.databaseValue)
        case .list, .table:
            let data = try JSONEncoder().encode(JSONValue(value))
            return ("table", String(decoding: data, as: UTF8.self).databaseValue)
        case .none, .object, .array:
            throw AppStorageError("app storage cannot keep \(value.typeName)")
        }
    }

    static func decode(kind: String?, _ stored: DatabaseValue) throws -> LuaValue {
        switch (kind, stored.storage) {
        case ("boolean", .int64(let i)): return .bool(i != 0)
        case ("integer", .int64(let i)): return .int(Int(i))
        case ("float", .double(let d)): return .double(d)
        case ("float", .int64(let i)): return .double(Double(i))
        case ("string", .string(let s)): return .string(s)
        case ("table", .string(let s)):
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(s.utf8)) else {
                throw AppStorageError("the stored table is not valid JSON")
            }
            return json.luaValue
        default:
            throw AppStorageError("a stored value of kind '\(kind ?? "?")' cannot be read")
        }
    }
}

/// A list or table as JSON: booleans, numbers (integers when whole), strings.
private enum JSONValue: Codable {
    case null, bool(Bool), int(Int), double(Double), string(String), list([JSONValue]), table([String: JSONValue])

    init(_ value: LuaValue) {
        switch value {
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .list(let items): self = .list(items.map(JSONValue.init))
        case .table(let entries): self = .table(entries.mapValues(JSONValue.init))
        case .none, .object, .array: self = .null
        }
    }

    var luaValue: LuaValue {
        switch self {
        case .null: return .none
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .list(let items): return .list(items.map(\.luaValue))
        case .table(let entries): return .table(entries.mapValues(\.luaValue))
        }
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let i = try? container.decode(Int.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let items = try? container.decode([JSONValue].self) { self = .list(items) }
        else { self = .table(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .list(let items): try container.encode(items)
        case .table(let entries): try container.encode(entries)
        }
    }
}
