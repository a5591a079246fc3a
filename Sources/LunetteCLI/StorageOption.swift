import ArgumentParser
import Foundation
import Lunette
import LunetteStorage

/// Where `appStorage` lives for `run`, `repl` and `preview`: a SQLite file,
/// opened when a script first reads a stored key.
struct StorageOption: ParsableArguments {
    @Option(name: .customLong("storage"),
            help: "The SQLite file appStorage values are kept in (default: $XDG_DATA_HOME/lunette/app-storage.sqlite).")
    var path: String?

    func validate() throws {
        if let path, path.isEmpty {
            throw ValidationError("--storage needs a file name (an empty one would keep nothing)")
        }
    }

    /// The file: --storage, else under $XDG_DATA_HOME (or ~/.local/share).
    var resolvedPath: String {
        if let path { return path }
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/lunette/app-storage.sqlite"
    }

    var store: AppStorageStore { OpenedOnFirstUse(path: resolvedPath) }
}

/// A SQLite store opened when first asked, so a script without appStorage
/// never touches the file; a store that cannot be opened fails each call
/// with the reason (the runtime reports it once and uses the defaults).
final class OpenedOnFirstUse: AppStorageStore {
    private let path: String
    private var opened: Result<SQLiteAppStorage, Error>?

    init(path: String) { self.path = path }

    private func store() throws -> SQLiteAppStorage {
        if opened == nil { opened = Result { try SQLiteAppStorage(path: path) } }
        return try opened!.get()
    }

    func value(forKey key: [UInt8]) throws -> [UInt8]? { try store().value(forKey: key) }

    func write(_ changes: [AppStorageChange]) throws { try store().write(changes) }
}
