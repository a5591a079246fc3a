import Foundation
import Lunette
import LunetteStorage
import XCTest

/// What a hostile read of app storage found in session 25 (each failed
/// before its fix): another program's database taken over, writes lost to
/// `ui.reset()`, a reload keeping the old declaration's types.
final class StorageHostileTests: XCTestCase {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hostile_store_\(UUID().uuidString).sqlite").path
    }

    private func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// `--storage notes.sqlite` switched another program's database to WAL
    /// for good and added a table beside its own.
    func testAnotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        _ = try python("""
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE notes (body TEXT)"); c.commit(); c.close()
            """, [path])
        XCTAssertThrowsError(try SQLiteAppStorage(path: path)) { error in
            XCTAssertTrue("\(error)".contains("another program's database (its table notes)"), "\(error)")
        }
        let after = try python("""
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            print(c.execute("PRAGMA journal_mode").fetchone()[0],
                  ",".join(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")))
            """, [path])
        XCTAssertEqual(after.trimmingCharacters(in: .whitespacesAndNewlines), "delete notes")
    }

    /// `self.k = self.k + 1; ui.reset()` in an action: the write, not yet
    /// handed to the store (that is at a flush's end), was dropped.
    func testUIResetKeepsWhatWasWrittenInAPersistentStore() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let source = """
            local ui = require("lunette")
            return ui.View("Counter", { appStorage = { k = 0 }, body = function(self)
              return ui.Button("k " .. self.k, function() self.k = self.k + 1; ui.reset() end)
            end })()
            """
        let first = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        let app = try XCTUnwrap(try first.run(source: source))
        try first.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertTrue(first.waitForStorage())
        let second = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try second.run(source: source)?.nodes.first?.children.first?.text, "k 1")
        XCTAssertEqual(first.storageErrors + second.storageErrors, [])
    }

    /// A reload whose text declares a key with a default of another type
    /// (`mode = 0` edited to `mode = "light"`) kept the old type: writing
    /// "dark" was refused until the process started again.
    func testAReloadTypesKeysByItsOwnDeclarations() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retype_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        func source(_ value: String, _ next: String) -> String {
            """
            local ui = require("lunette")
            return ui.View("Mode", { appStorage = { mode = \(value) }, body = function(self)
              return ui.Button("mode " .. tostring(self.mode), function() self.mode = \(next) end)
            end })()
            """
        }
        try source("0", "1").write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(file: file))
        try source("\"light\"", "\"dark\"").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try runtime.reload(file: file)
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "mode dark", runtime.text(of: app))
    }

    /// A store that hands out the bytes it was given and keeps what is written.
    private final class Kept: AppStorageStore, @unchecked Sendable {
        var values: [[UInt8]: [UInt8]]
        init(_ values: [[UInt8]: [UInt8]]) { self.values = values }
        func value(forKey key: [UInt8]) throws -> [UInt8]? { values[key] }
        func write(_ changes: [AppStorageChange]) throws { for c in changes { values[c.key] = c.value } }
    }

    private let counter = """
        local ui = require("lunette")
        return ui.View("Counter", { appStorage = { k = 0 }, body = function(self)
          return ui.Button("k " .. tostring(self.k), function() self.k = self.k + 1 end)
        end })()
        """

    /// Bytes this version cannot decode (a newer format's "L2…") were
    /// reported, then replaced by the next write: a store's failure kept
    /// them, a decoding failure did not.
    func testAValueThatCannotBeDecodedIsNotWrittenOver() throws {
        let future = Array("L2 a newer format".utf8)
        let store = Kept([Array("k".utf8): future])
        let runtime = try LunetteRuntime(options: .init(appStorage: store))
        let app = try XCTUnwrap(try runtime.run(source: counter))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "k 0")
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "k 1", "the change lasts for the run")
        XCTAssertTrue(runtime.waitForStorage())
        XCTAssertEqual(store.values[Array("k".utf8)], future, "what was kept is not written over")
    }

    /// A kept value larger than the memory a script has left failed the
    /// view ("not enough memory", no key) on every run.
    func testAValueLargerThanTheMemoryLeftIsAReadThatFailedNamingTheKey() throws {
        let store = MemoryAppStorage()
        let writer = try LunetteRuntime(options: .init(appStorage: store))
        _ = try writer.run(source: """
            local ui = require("lunette")
            return ui.View("Note", { appStorage = { note = "" }, body = function(self)
              return ui.Text(#self.note > 0 and "long" or "short"):onAppear(function() self.note = string.rep("x", 24 << 20) end)
            end })()
            """)
        XCTAssertTrue(writer.waitForStorage(timeout: 30))
        let reader = try LunetteRuntime(options: .init(memoryLimit: 16 << 20, appStorage: store))
        let app = try XCTUnwrap(try reader.run(source: """
            local ui = require("lunette")
            return ui.View("Note", { appStorage = { note = "" }, body = function(self)
              return ui.Text(#self.note > 0 and "long" or "short")
            end })()
            """))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "short", reader.text(of: app))
    }

    /// A string kept under a key whose declaration's default is a number
    /// (another script's, sharing the default store) was handed to the
    /// script: "attempt to add a 'string' with a 'number'", nothing about
    /// storage. It reads as the default, said once naming the key and both
    /// types, and a write replaces it.
    func testAValueOfAnotherTypeThanTheDefaultsReadsAsTheDefault() throws {
        let store = Kept([Array("k".utf8): Array("L1s\u{03}abc".utf8)])
        let runtime = try LunetteRuntime(options: .init(appStorage: store))
        let app = try XCTUnwrap(try runtime.run(source: counter))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "k 0", runtime.text(of: app))
        let said = runtime.warnings(of: app).joined(separator: "\n")   // a warning of the view, at the line that read it
        XCTAssertTrue(said.contains("Counter: (script):3: app storage: \"k\" holds a string, and its declaration's default is a number"), said)
        XCTAssertEqual(runtime.effectErrors, [])
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertEqual(app.nodes.first?.children.first?.text, "k 1")
        XCTAssertTrue(runtime.waitForStorage())
        XCTAssertNotEqual(store.values[Array("k".utf8)], Array("L1s\u{03}abc".utf8), "the write replaced it")
    }

    /// A store whose writes take long (another process holds it).
    private final class SlowWrites: AppStorageStore, @unchecked Sendable {
        func value(forKey key: [UInt8]) throws -> [UInt8]? { nil }
        func write(_ changes: [AppStorageChange]) throws { Thread.sleep(forTimeInterval: 2) }
    }

    /// At an exit whose last writes were still being kept, the message said
    /// "changes may not be kept" and named no key (the README promises a
    /// write the store could not make is reported naming its keys).
    func testAnUnfinishedStoreAtTheEndNamesTheKeysNotYetKept() throws {
        let runtime = try LunetteRuntime(options: .init(appStorage: SlowWrites()))
        let app = try XCTUnwrap(try runtime.run(source: counter))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertFalse(runtime.waitForStorage(timeout: 0.3))
        let said = runtime.storageErrors.joined(separator: "\n")
        XCTAssertTrue(said.contains("not yet kept: 'k'"), said)
    }
}
