import Foundation
import GRDB
import Lunette

/// App storage in a SQLite file: one row per key, each write its own
/// transaction, so several processes may share a file (SQLite's locking;
/// a writer waits up to `busyTimeout` for another) and a crash mid-write
/// loses nothing that was kept before.
///
/// Top-level values keep their exact kind (booleans, integers, floats,
/// strings); lists and tables are kept as JSON, in which a whole float
/// comes back as an integer (`2.0` as `2`: equal in Lua, as in JSON).
public final class SQLiteAppStorage: AppStorageStore {
    /// The file the values are kept in.
    public let path: String
    private let database: DatabaseQueue

    /// Opens (or creates) the store at `path`; throws an `AppStorageError`
    /// naming the file if it is not a database or cannot be opened, and
    /// leaves such a file as it found it.
    public init(path: String, busyTimeout: TimeInterval = 5) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "Lunette app storage"
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS app_storage (
                        key TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL,
                        value ANY)
                    """)
            }
        } catch {
            throw AppStorageError("the app storage at \(path) cannot be used (\(Self.reason(error))); "
                                  + "values start from their defaults and are not kept. "
                                  + "Move the file away, or choose another with --storage PATH")
        }
    }

    public func value(forKey key: String) throws -> LuaValue? {
        do {
            guard let row = try database.read({ db in
                try Row.fetchOne(db, sql: "SELECT kind, value FROM app_storage WHERE key = ?", arguments: [key])
            }) else { return nil }
            return try StoredValue.decode(kind: row["kind"], row["value"] as DatabaseValue)
        } catch let error as AppStorageError {
            throw AppStorageError("\(path): \(error.message)")
        } catch {
            throw AppStorageError("\(path): \(Self.reason(error))")
        }
    }

    public func setValue(_ value: LuaValue, forKey key: String) throws {
        do {
            if case .none = value {
                try database.write { db in
                    try db.execute(sql: "DELETE FROM app_storage WHERE key = ?", arguments: [key])
                }
                return
            }
            let (kind, stored) = try StoredValue.encode(value)
            try database.write { db in
                try db.execute(sql: """
                    INSERT INTO app_storage (key, kind, value) VALUES (?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET kind = excluded.kind, value = excluded.value
                    """, arguments: [key, kind, stored])
            }
        } catch let error as AppStorageError {
            throw AppStorageError("\(path): \(error.message)")
        } catch {
            throw AppStorageError("\(path): \(Self.reason(error))")
        }
    }

    /// SQLite's own words for a failure ("file is not a database").
    private static func reason(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}
