import Foundation

/// Lists and dictionaries of values crossing between Swift and Lua, by
/// token: C asks for a table's entries one at a time (to Lua), or adds
/// them one at a time (to Swift). Tokens live for one host call; the
/// tables are cleared when the next top-level call begins.
struct ValueTables {
    private var reading: [[(LuaValue, LuaValue)]] = []
    private var building: [[(LuaValue, LuaValue)]] = []
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

    mutating func add(_ token: Int32, _ key: LuaValue, _ value: LuaValue) {
        guard token >= 0, Int(token) < building.count else { return }
        building[Int(token)].append((key, value))
    }

    /// The table C built: a list when its keys are 1...n, else a dictionary
    /// (integer keys as their decimal text).
    func built(_ token: Int32) -> LuaValue {
        guard token >= 0, Int(token) < building.count else { return .none }
        let entries = building[Int(token)]
        var list = [LuaValue?](repeating: nil, count: entries.count)
        var isList = true
        for (key, value) in entries {
            guard case .int(let i) = key, i >= 1, i <= entries.count else { isList = false; break }
            list[i - 1] = value
        }
        if isList { return .list(list.map { $0 ?? .none }) }
        var table: [String: LuaValue] = [:]
        for (key, value) in entries {
            switch key {
            case .string(let s): table[s] = value
            case .int(let i): table[String(i)] = value
            default: break
            }
        }
        return .table(table)
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
    }
}
