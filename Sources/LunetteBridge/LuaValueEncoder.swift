import Foundation
import Lunette

/// Encodes an `Encodable` value straight into a `LuaValue` (what a
/// `LuaCodable` struct's `luaValue` is): keyed containers become tables,
/// unkeyed ones lists. Straight, not through JSON, so a value keeps what JSON
/// would lose: a `Double` stays a float (2.0, not 2), NaN and the infinities
/// cross as themselves, and a `Date` is seconds since 1970 as the README
/// says (its own `Codable` form counts from 2001). A `URL` crosses as its
/// text, `Data` as base64 text (as `JSONDecoder` reads it back).
enum LuaValueEncoder {
    /// The value as Lua receives it.
    static func encode<T: Encodable>(_ value: T) throws -> LuaValue {
        let slot = Slot()
        try slot.encode(value, at: [])
        return slot.value
    }

    /// Where one encoded value goes: a scalar, or a table or list still being filled.
    fileprivate final class Slot {
        var scalar: LuaValue = .none
        var keyed: [(String, Slot)]?
        var unkeyed: [Slot]?

        var value: LuaValue {
            if let keyed { return .table(Dictionary(keyed.map { ($0.0, $0.1.value) }, uniquingKeysWith: { _, last in last })) }
            if let unkeyed { return .list(unkeyed.map(\.value)) }
            return scalar
        }

        /// A value with a form of its own in Lua, or else its `Encodable` form.
        func encode<T: Encodable>(_ value: T, at path: [CodingKey]) throws {
            switch value {
            case let date as Date: scalar = .double(date.timeIntervalSince1970)
            case let url as URL: scalar = .string(url.absoluteString)
            case let data as Data: scalar = .string(data.base64EncodedString())
            case let decimal as Decimal: scalar = .double(NSDecimalNumber(decimal: decimal).doubleValue)
            default: try value.encode(to: Encoding(slot: self, codingPath: path))
            }
        }

        func child(_ key: String) -> Slot {
            if keyed == nil { keyed = [] }
            let slot = Slot()
            keyed!.append((key, slot))
            return slot
        }

        func element() -> Slot {
            if unkeyed == nil { unkeyed = [] }
            let slot = Slot()
            unkeyed!.append(slot)
            return slot
        }
    }

    /// A `Float` as the shortest decimal that reads back as it (0.1, not
    /// 0.10000000149011612: Lua's numbers are doubles), as JSON wrote it.
    fileprivate static func float(_ value: Float) -> LuaValue {
        .double(Double(String(describing: value)) ?? Double(value))
    }

    /// An integer as a Lua integer when it fits one, else as a float.
    fileprivate static func integer<I: BinaryInteger>(_ value: I) -> LuaValue {
        Int(exactly: value).map(LuaValue.int) ?? .double(Double(value))
    }

    fileprivate struct Encoding: Encoder {
        let slot: Slot
        let codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if slot.keyed == nil { slot.keyed = [] }
            return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            if slot.unkeyed == nil { slot.unkeyed = [] }
            return Unkeyed(slot: slot, codingPath: codingPath)
        }

        func singleValueContainer() -> SingleValueEncodingContainer { Single(slot: slot, codingPath: codingPath) }
    }

    fileprivate struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [CodingKey]

        mutating func encodeNil(forKey key: Key) throws { slot.child(key.stringValue).scalar = .none }
        mutating func encode(_ value: Bool, forKey key: Key) throws { slot.child(key.stringValue).scalar = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { slot.child(key.stringValue).scalar = .string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { slot.child(key.stringValue).scalar = .double(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { slot.child(key.stringValue).scalar = float(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { slot.child(key.stringValue).scalar = .int(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { slot.child(key.stringValue).scalar = integer(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try slot.child(key.stringValue).encode(value, at: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            Encoding(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            Encoding(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> Encoder { Encoding(slot: slot.child("super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> Encoder {
            Encoding(slot: slot.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    fileprivate struct Unkeyed: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [CodingKey]
        var count: Int { slot.unkeyed?.count ?? 0 }

        mutating func encodeNil() throws { slot.element().scalar = .none }
        mutating func encode(_ value: Bool) throws { slot.element().scalar = .bool(value) }
        mutating func encode(_ value: String) throws { slot.element().scalar = .string(value) }
        mutating func encode(_ value: Double) throws { slot.element().scalar = .double(value) }
        mutating func encode(_ value: Float) throws { slot.element().scalar = float(value) }
        mutating func encode(_ value: Int) throws { slot.element().scalar = .int(value) }
        mutating func encode(_ value: Int8) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: Int16) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: Int32) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: Int64) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: UInt) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: UInt8) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: UInt16) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: UInt32) throws { slot.element().scalar = integer(value) }
        mutating func encode(_ value: UInt64) throws { slot.element().scalar = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try slot.element().encode(value, at: codingPath) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            Encoding(slot: slot.element(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            Encoding(slot: slot.element(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> Encoder { Encoding(slot: slot.element(), codingPath: codingPath) }
    }

    fileprivate struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [CodingKey]

        mutating func encodeNil() throws { slot.scalar = .none }
        mutating func encode(_ value: Bool) throws { slot.scalar = .bool(value) }
        mutating func encode(_ value: String) throws { slot.scalar = .string(value) }
        mutating func encode(_ value: Double) throws { slot.scalar = .double(value) }
        mutating func encode(_ value: Float) throws { slot.scalar = float(value) }
        mutating func encode(_ value: Int) throws { slot.scalar = .int(value) }
        mutating func encode(_ value: Int8) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: Int16) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: Int32) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: Int64) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: UInt) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: UInt8) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: UInt16) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: UInt32) throws { slot.scalar = integer(value) }
        mutating func encode(_ value: UInt64) throws { slot.scalar = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try slot.encode(value, at: codingPath) }
    }
}
