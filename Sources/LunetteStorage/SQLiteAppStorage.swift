import Foundation
import GRDB
import Lunette

/// App storage in a SQLite file: one row per key, keys and values as bytes
/// (BLOBs: what a script wrote comes back exactly, R24), each flush's
/// changes in one transaction, so several processes may share a file
/// (SQLite's locking in WAL mode: readers never wait for a writer; a writer
/// waits up to `busyTimeout` for another, on the runtime's storage queue,
/// never on the scripts' thread) and a crash mid-write loses nothing that
/// was kept before.
public final class SQLiteAppStorage: AppStorageStore, @unchecked Sendable {
    /// The file the values are kept in.
    public let path: String
    private let database: DatabaseQueue

    /// Opens (or creates) the store at `path`; throws an `AppStorageError`
    /// naming the file if it is not a database, cannot be opened, or holds
    /// values an earlier Lunette kept as text, and leaves such a file as it
    /// found it.
    public init(path: String, busyTimeout: TimeInterval = 5) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.journalMode = .wal
        configuration.label = "Lunette app storage"
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                database = try Self.open(path, configuration)
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)       // another process is setting the file up: wait for it
            } catch {
                throw AppStorageError("the app storage at \(path) cannot be used (\(Self.reason(error))); "
                                      + "values start from their defaults and are not kept. "
                                      + "Move the file away, or choose another with --storage PATH")
            }
        }
    }

    /// Opens the file in WAL mode (readers never wait for a writer) and makes its table.
    private static func open(_ path: String, _ configuration: Configuration) throws -> DatabaseQueue {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try refuseAnotherProgramsDatabase(path)
        let database = try DatabaseQueue(path: path, configuration: configuration)
        if try database.read({ try $0.tableExists("app_storage") }) {
            throw AppStorageError("it holds values an earlier version of Lunette kept as text (table app_storage); "
                                  + "this version keeps bytes")
        }
        if try database.read({ try $0.tableExists("lunette_values") }) { return database }   // no write to open it
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS lunette_values (
                    key BLOB PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL) WITHOUT ROWID
                """)
        }
        return database
    }

    /// Throws if `path` is a database with tables of its own beside Lunette's:
    /// another program's, which opening it in WAL mode and adding a table
    /// would change (its journal mode switched for good). Read only, before
    /// anything writes; a file that cannot be read so is left to the open.
    private static func refuseAnotherProgramsDatabase(_ path: String) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else { return }
        var readOnly = Configuration()
        readOnly.readonly = true
        guard let tables = try? DatabaseQueue(path: path, configuration: readOnly).read({ db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master WHERE substr(name, 1, 7) != 'sqlite_'")
                .map { (type: $0["type"] as String, name: $0["name"] as String, table: $0["tbl_name"] as String) }
        }) else { return }
        if tables.contains(where: { $0.name == "app_storage" }) {   // before the open switches it to WAL
            throw AppStorageError("it holds values an earlier version of Lunette kept as text (table app_storage); "
                                  + "this version keeps bytes")
        }
        let ours = ["lunette_values"]
        let others = tables.filter { !(ours.contains($0.name) || ($0.type != "table" && $0.type != "view" && ours.contains($0.table))) }
        if !others.isEmpty {
            throw AppStorageError("it is another program's database (its "
                                  + others.map { "\($0.type) \($0.name)" }.sorted().joined(separator: ", ") + "); "
                                  + "Lunette keeps its values in a file of its own")
        }
    }

    public func value(forKey key: [UInt8]) throws -> [UInt8]? {
        do {
            return try database.read { db in
                try Data.fetchOne(db, sql: "SELECT value FROM lunette_values WHERE key = ?", arguments: [Data(key)])
            }.map { [UInt8]($0) }
        } catch {
            throw AppStorageError("\(path): \(Self.reason(error))")
        }
    }

    public func write(_ changes: [AppStorageChange]) throws {
        do {
            try database.write { db in
                for change in changes {
                    if let value = change.value {
                        try db.execute(sql: "INSERT OR REPLACE INTO lunette_values (key, value) VALUES (?, ?)",
                                       arguments: [Data(change.key), Data(value)])
                    } else {
                        try db.execute(sql: "DELETE FROM lunette_values WHERE key = ?", arguments: [Data(change.key)])
                    }
                }
            }
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
