import Foundation
import XCTest
import Lunette
import LunetteStorage

/// T04: `appStorage` kept by a host's store — SQLite here — across runtimes
/// and processes; a broken store gives defaults and a clear error.
final class AppStorageTests: XCTestCase {
    private let counter = """
        local ui = require("lunette")
        return ui.View("Launches", { appStorage = { launches = 0, theme = ui.AppStorage("ui.theme", { name = "dark" }) },
          body = function(self)
            return ui.Button("launches " .. self.launches .. " " .. self.theme.name, function()
              self.launches = self.launches + 1
              self.theme.name = "light"
            end)
          end })()
        """

    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store_\(UUID().uuidString).sqlite").path
    }

    private func tapOnce(_ runtime: LunetteRuntime) throws -> String? {
        let app = try XCTUnwrap(try runtime.run(source: counter))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        return app.nodes.first?.children.first?.text
    }

    func testT04AValueWrittenInOneRuntimeIsReadByTheNext() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try tapOnce(first), "launches 1 light")
        XCTAssertTrue(first.waitForStorage())              // writes land on the store's queue
        let second = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try tapOnce(second), "launches 2 light")
        XCTAssertTrue(first.storageErrors.isEmpty && second.storageErrors.isEmpty, "\(second.storageErrors)")
    }

    /// R24: what a script writes comes back exactly — strings and keys as
    /// bytes (NUL, invalid UTF-8), integers and floats apart (NaN, -0.0,
    /// the extreme integers), table key types, nesting — through the file,
    /// in a second runtime.
    func testR24EveryValueComesBackExactlyAsItWasWritten() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let values = """
            local values = {
              ["plain"] = "é", ["a\\0b"] = "x\\0y", ["a"] = "just a", ["k\\255"] = "\\255\\254", ["k\\254"] = 2.0,
              ["int"] = math.maxinteger, ["min"] = math.mininteger, ["nan"] = 0/0, ["negzero"] = -0.0,
              ["yes"] = true, ["no"] = false, ["sparse"] = { [1] = "one", [3] = "three", ["1"] = "string one" },
              ["nested"] = { a = { b = { c = 1.5, [2] = "two" } } }, ["empty"] = {},
            }
            local function kind(v) return type(v) == "userdata" and "table" or type(v) end   -- a held table is tracked
            local function name(key) return "v" .. key:gsub(".", function(c) return ("%02x"):format(c:byte()) end) end
            local function same(a, b)
              if kind(a) ~= kind(b) then return false end
              if type(a) == "number" then
                if a ~= a then return b ~= b end
                return math.type(a) == math.type(b) and a == b and 1 / a == 1 / b
              end
              if kind(a) ~= "table" then return a == b end
              for k, v in pairs(a) do if not same(v, b[k]) then return false end end
              for k in pairs(b) do if a[k] == nil then return false end end
              return true
            end
            """
        let writer = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        let app = try XCTUnwrap(try writer.run(source: values + "\n" + """
            local ui = require("lunette")
            local storage = {}
            for key in pairs(values) do storage[name(key)] = ui.AppStorage(key) end   -- no default: any type
            return ui.View("Writer", { appStorage = storage, body = function(self)
              return ui.Button("write", function()
                for key, value in pairs(values) do self[name(key)] = value end
              end)
            end })()
            """))
        try writer.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertTrue(writer.waitForStorage())
        XCTAssertEqual(writer.storageErrors, [])
        let reader = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        let result = try reader.evaluate(values + "\n" + """
            local ui = require("lunette")
            local storage, wrong = {}, {}
            for key in pairs(values) do storage[name(key)] = ui.AppStorage(key) end   -- no default: any type
            local app = ui.mount(ui.View("Reader", { appStorage = storage, body = function(self)
              for key, value in pairs(values) do
                local got = self[name(key)]
                if not same(value, got) then wrong[#wrong + 1] = ("%q: %s"):format(key, tostring(got)) end
              end
              return ui.Text("read")
            end })())
            table.sort(wrong)
            return table.concat(wrong, ", ")
            """)
        XCTAssertEqual(result, [""])
    }

    func testT04AFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "my notes, not a database".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SQLiteAppStorage(path: path)) { error in
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("not a database"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "my notes, not a database")
    }

    /// A store that fails: the script runs on its defaults, and the failure is reported once.
    func testT04AFailingStoreGivesDefaultsAndOneError() throws {
        final class Broken: AppStorageStore {
            struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }
            func value(forKey key: [UInt8]) throws -> [UInt8]? { throw Failure() }
            func write(_ changes: [AppStorageChange]) throws { throw Failure() }
        }
        let runtime = try LunetteRuntime(options: .init(appStorage: Broken()))
        XCTAssertEqual(try tapOnce(runtime), "launches 1 light")
        runtime.waitForStorage()
        XCTAssertEqual(runtime.storageErrors.count, 1, "\(runtime.storageErrors)")
        XCTAssertTrue(runtime.storageErrors[0].contains("disk on fire"))
    }

    /// A value the binding let in that cannot be stored (a function in a
    /// table the cell holds) is reported at the flush; the others are kept.
    func testT04AnUnstorableNestedValueIsReportedAtTheFlush() throws {
        let store = MemoryAppStorage()
        let runtime = try LunetteRuntime(options: .init(appStorage: store))
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Nested", { appStorage = { box = { }, n = 0 }, body = function(self)
              return ui.Button("go", function() self.box.f = print; self.n = 5 end)
            end })()
            """))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertTrue(runtime.effectErrors.contains { $0.contains("appStorage 'box' cannot hold a function") },
                      "\(runtime.effectErrors)")
        runtime.waitForStorage()
        XCTAssertNotNil(store.value(forKey: Array("n".utf8)), "n was not kept")
    }

    // MARK: R21: a store locked by another process

    private let fourKeys = """
        local ui = require("lunette")
        return ui.View("Four", { appStorage = { a = 0, b = 0, c = 0, d = 0 }, body = function(self)
          return ui.Button("write " .. self.a, function() self.a, self.b, self.c, self.d = 1, 2, 3, 4 end)
        end })()
        """

    /// Another process (Python's sqlite3) takes the store's write lock for `seconds`; returns once it holds it.
    private func holdWriteLock(_ path: String, seconds: Double) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute("COMMIT")
            """, path, "\(seconds)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        XCTAssertEqual(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "locked")
        return process
    }

    func testR21AStoreLockedByAnotherProcessNeverHoldsTheScriptsAndKeepsTheValuesAfter() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.5, appStorage: try SQLiteAppStorage(path: path)))
        let app = try XCTUnwrap(try runtime.run(source: fourKeys))
        let locker = try holdWriteLock(path, seconds: 1.5)
        defer { locker.waitUntilExit() }
        let started = Date()
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "the tap waited for the other process's lock")
        XCTAssertEqual(app.nodes.first?.children.first?.text, "write 1")
        XCTAssertTrue(runtime.waitForStorage(timeout: 10))
        XCTAssertEqual(runtime.storageErrors, [])
        let next = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try next.run(source: fourKeys)?.nodes.first?.children.first?.text, "write 1")
    }

    func testR21AWriteTheStoreCannotMakeInTimeIsReportedNamingTheKeys() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.5,
                                                        appStorage: try SQLiteAppStorage(path: path, busyTimeout: 0.2)))
        let app = try XCTUnwrap(try runtime.run(source: fourKeys))
        let locker = try holdWriteLock(path, seconds: 2)
        defer { locker.waitUntilExit() }
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        runtime.waitForStorage(timeout: 10)
        let errors = runtime.storageErrors.joined(separator: "\n")
        XCTAssertTrue(errors.contains("cannot keep"), errors)
        for key in ["'a'", "'b'", "'c'", "'d'"] { XCTAssertTrue(errors.contains(key), errors) }
        XCTAssertTrue(errors.contains("locked"), errors)
    }

    /// Found by the hostile pass: a read that timed out gave the default, and
    /// the next write of that default replaced the value kept. Here the
    /// store fails every read (as one locked past the wait does).
    func testR21AKeyWhoseStoredValueCouldNotBeReadIsNotWrittenOver() throws {
        final class Unreadable: AppStorageStore {
            let kept: MemoryAppStorage
            init(_ kept: MemoryAppStorage) { self.kept = kept }
            struct Busy: Error, CustomStringConvertible { var description: String { "the store is busy" } }
            func value(forKey key: [UInt8]) throws -> [UInt8]? { throw Busy() }
            func write(_ changes: [AppStorageChange]) throws { try kept.write(changes) }
        }
        let store = MemoryAppStorage()
        let first = try LunetteRuntime(options: .init(appStorage: store))
        let app = try XCTUnwrap(try first.run(source: fourKeys))
        try first.tap(try XCTUnwrap(app.nodes.first?.children.first))     // a = 1 kept
        XCTAssertTrue(first.waitForStorage())
        let blocked = try LunetteRuntime(options: .init(appStorage: Unreadable(store)))
        let again = try XCTUnwrap(try blocked.run(source: fourKeys))     // every read fails: the defaults
        XCTAssertEqual(again.nodes.first?.children.first?.text, "write 0")
        try blocked.tap(try XCTUnwrap(again.nodes.first?.children.first))
        XCTAssertTrue(blocked.waitForStorage())
        XCTAssertTrue(blocked.storageErrors.contains { $0.contains("cannot read 'a'") && $0.contains("not written over") },
                      "\(blocked.storageErrors)")
        let after = try LunetteRuntime(options: .init(appStorage: store))
        XCTAssertEqual(try after.run(source: fourKeys)?.nodes.first?.children.first?.text, "write 1")
    }

    /// R24: bytes in a store that are not an encoding Lunette wrote — cut
    /// short, an unknown tag, a key twice, a count past the end, nesting
    /// past the bound — are refused with a message, and the key starts from
    /// its default.
    func testR24CraftedStoredBytesAreRefusedAndTheDefaultIsUsed() throws {
        let deep = Array(repeating: UInt8(ascii: "{"), count: 1).flatMap { _ in [UInt8]() }
            + Array(String(repeating: "{\u{1}i\0\0\0\0\0\0\0\0", count: 300).utf8) + Array("T".utf8)
        let crafted: [(String, [UInt8])] = [
            ("cut short", Array("L1i\u{1}".utf8)), ("an unknown tag", Array("L1?".utf8)),
            ("a key twice", Array("L1{\u{2}s\u{1}aTs\u{1}aF".utf8)), ("a bad length", Array("L1{\u{7F}".utf8)),
            ("nested more than", Array("L1".utf8) + deep), ("no version mark", Array("X1T".utf8)),
        ]
        for (why, bytes) in crafted {
            let store = MemoryAppStorage()
            try store.write([AppStorageChange(key: Array("v".utf8), value: bytes)])
            let runtime = try LunetteRuntime(options: .init(appStorage: store))
            let app = try XCTUnwrap(try runtime.run(source: """
                local ui = require("lunette")
                return ui.View("V", { appStorage = { v = "default" }, body = function(self) return ui.Text(tostring(self.v)) end })()
                """))
            XCTAssertEqual(app.nodes.first?.children.first?.text, "default", why)
            XCTAssertTrue(runtime.effectErrors.contains { $0.contains("cannot read \"v\"") && $0.contains(why) },
                          "\(why): \(runtime.effectErrors)")
        }
        // A key is named whole, as a literal: one holding a NUL was cut at it (a hostile read).
        let store = MemoryAppStorage()
        try store.write([AppStorageChange(key: Array("k\0hidden".utf8), value: [0x4C, 0x31, 0x3F])])
        let runtime = try LunetteRuntime(options: .init(appStorage: store))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("V", { appStorage = { ["k\\0hidden"] = "default" }, body = function(self) return ui.Text(tostring(self["k\\0hidden"])) end })()
            """)
        XCTAssertTrue(runtime.effectErrors.contains { $0.contains(#"cannot read "k\000hidden""#) }, "\(runtime.effectErrors)")
    }

    /// `ui.reset()` while a write is still on its way to a slow store: the
    /// next read sees the empty store, not the write in flight (this raced
    /// in `lunette test`, which resets between tests).
    /// A NaN or negative timeout waits not at all (NaN waited for ever, a
    /// negative one was reported as a store that had not finished).
    func testWaitForStorageWithANaNOrNegativeTimeoutReturnsAtOnce() throws {
        let runtime = try LunetteRuntime(options: .init(appStorage: MemoryAppStorage()))
        let started = Date()
        _ = runtime.waitForStorage(timeout: .nan)
        _ = runtime.waitForStorage(timeout: -1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        XCTAssertEqual(runtime.storageErrors, [])
    }

    func testT04AResetForgetsWritesStillInFlight() throws {
        final class Slow: AppStorageStore {
            let kept = MemoryAppStorage()
            func value(forKey key: [UInt8]) throws -> [UInt8]? { kept.value(forKey: key) }
            func write(_ changes: [AppStorageChange]) throws { Thread.sleep(forTimeInterval: 0.3); try kept.write(changes) }
            func reset() { kept.reset() }
        }
        let runtime = try LunetteRuntime(options: .init(appStorage: Slow()))
        let app = try XCTUnwrap(try runtime.run(source: fourKeys))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))     // a = 1, on its way
        let after = try runtime.evaluate("""
            local ui = require("lunette")
            ui.reset()
            local V = ui.View("AfterReset", { appStorage = { a = 0 }, body = function(self) return ui.Text("a " .. self.a) end })
            return ui.mount(V {}):tree()
            """)[0]
        XCTAssertTrue(after.contains("a 0"), after)
    }
}
