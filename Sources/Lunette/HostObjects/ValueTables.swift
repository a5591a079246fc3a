import Foundation

/// Lists and dictionaries of values crossing between Swift and Lua, by
/// token: C asks for a table's entries one at a time (to Lua), or adds
/// them one at a time (to Swift). Tokens live for one host call; the
/// tables are cleared when the next top-level call begins.
struct ValueTables {
    private var reading: [[(LuaValue, LuaValue)]] = []
    private var building: [[(LuaValue, LuaValue)]] = []
    /// Why a table being built cannot become a Swift value, by token (R24: refused, not repaired).
    private var failures: [Int32: String] = [:]
    /// Key strings handed to C, kept alive until the tables are cleared.
    private var keys: [UnsafeMutablePointer<CChar>] = []

    /// A table for C to read; returns its token.
    mutating func read(_ entries: [(LuaValue, LuaValue)]) -> Int32 {
        reading.append(entries)
        return Int32(reading.count - 1)
    }

    func entry(_ token: Int32, _ index: Int) -> (LuaValue, LuaValue)? {
        guard token >= 0, Int(token) < reading.count, index >= 0, index < reading[Int(token)].count else { return nil }
        return reading[Int(token)][index]
    }

    /// A copy of `s` that lives until `clear()`.
    mutating func keep(_ s: String) -> UnsafePointer<CChar> {
        let copy = strdup(s)!
        keys.append(copy)
        return UnsafePointer(copy)
    }

    /// A new table C fills; returns its token.
    mutating func begin() -> Int32 {
        building.append([])
        return Int32(building.count - 1)
    }

    /// An entry of the table could not become a Swift value: the table cannot either.
    mutating func fail(_ token: Int32, _ why: String) {
        if failures[token] == nil { failures[token] = why }
    }

    mutating func add(_ token: Int32, _ key: LuaValue, _ value: LuaValue) {
        guard token >= 0, Int(token) < building.count else { return }
        building[Int(token)].append((key, value))
    }

    /// The table C built: a list when its keys are 1...n, else a dictionary
    /// (integer keys as their decimal text).
    /// Nil, with the reason, when an entry could not be converted or two keys
    /// would become one ("1" and 1).
    func built(_ token: Int32) -> Result<LuaValue, BridgeFailure> {
        if let why = failures[token] { return .failure(BridgeFailure(why)) }
        guard token >= 0, Int(token) < building.count else { return .success(.none) }
        let entries = building[Int(token)]
        var list = [LuaValue?](repeating: nil, count: entries.count)
        var isList = true
        for (key, value) in entries {
            guard case .int(let i) = key, i >= 1, i <= entries.count else { isList = false; break }
            list[i - 1] = value
        }
        if isList { return .success(.list(list.map { $0 ?? .none })) }
        var table: [String: LuaValue] = [:]
        for (key, value) in entries {
            let name: String
            switch key {
            case .string(let s): name = s
            case .int(let i): name = String(i)
            default: return .failure(BridgeFailure("a table crossing to Swift may only have string or integer keys, got \(key.typeName)"))
            }
            guard table.updateValue(value, forKey: name) == nil else {
                return .failure(BridgeFailure("the keys \(name) and \"\(name)\" would be one key in Swift"))
            }
        }
        return .success(.table(table))
    }

    /// Forgets the tables handed to C (a new read begins).
    mutating func clearReading() {
        reading = []
        for key in keys { free(key) }
        keys = []
    }

    /// Forgets the tables C built (their values were taken).
    mutating func clearBuilding() {
        building = []
        failures = [:]
    }
}

/// Why a value from Lua cannot become a Swift value (it is refused, not repaired).
struct BridgeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
