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
/// with the reason (the runtime reports it once and uses the defaults),
/// and is tried again once `retryAfter` seconds have passed: a lock another
/// process held for longer than SQLite waits is gone later, and a long
/// `preview` or REPL session keeps its storage from then on.
final class OpenedOnFirstUse: AppStorageStore {
    /// Seconds between tries to open a store that failed to open.
    static let retryAfter = 2.0
    private let path: String
    private var opened: SQLiteAppStorage?
    private var failure: (error: Error, at: Date)?

    init(path: String) { self.path = path }

    private func store() throws -> SQLiteAppStorage {
        if let opened { return opened }
        if let failure, Date().timeIntervalSince(failure.at) < Self.retryAfter { throw failure.error }
        do {
            let store = try SQLiteAppStorage(path: path)
            opened = store
            failure = nil
            return store
        } catch {
            failure = (error, Date())
            throw error
        }
    }

    func value(forKey key: [UInt8]) throws -> [UInt8]? { try store().value(forKey: key) }

    func write(_ changes: [AppStorageChange]) throws { try store().write(changes) }
}
