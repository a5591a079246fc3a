import Foundation
import XCTest
import Lunette

/// T04 from the command line: `lunette run --storage PATH`, across processes.
extension CommandLineTests {
    private func storageScript(taps: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stored_\(UUID().uuidString).lua")
        try """
            local ui = require("lunette")
            local Counter = ui.View("Counter", { appStorage = { count = 0 }, body = function(self)
              return ui.VStack { ui.Text("count " .. self.count), ui.Button("add", function() self.count = self.count + 1 end) }
            end })
            local app = ui.mount(Counter {})
            for _ = 1, \(taps) do app:find("add"):tap() end
            """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testT04AStoredValueSurvivesTheProcess() throws {
        let script = try storageScript(taps: 1)
        let store = script.deletingPathExtension().path + ".sqlite"
        defer { for path in [script.path, store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: path) } }
        let first = try lunette(["run", "--storage", store, script.path])
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(first.output.contains("count 1"), first.output)
        let second = try lunette(["run", "--storage", store, script.path])
        XCTAssertTrue(second.output.contains("count 2"), second.output)
    }

    /// A script that ends with os.exit, in the action that wrote (a hostile
    /// read: the write waited for the flush's end, which an exit never
    /// reaches, and for the store's queue, which the exit did not wait for).
    func testT04AScriptThatEndsWithOsExitKeepsWhatItWrote() throws {
        let file = try temporaryScript("""
            local ui = require("lunette")
            local Counter = ui.View("Counter", { appStorage = { count = 0, blob = "" }, body = function(self)
              return ui.Button("count " .. self.count, function()
                self.count = self.count + 1
                self.blob = string.rep("x", 1 << 20)
                os.exit(0)
              end)
            end })
            local app = ui.mount(Counter {})
            print(app:find({ type = "Button" }).text)
            app:find({ type = "Button" }):tap()
            """, named: "exiting")
        let store = file.deletingPathExtension().path + ".sqlite"
        defer { for path in [file.path, store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: path) } }
        for expected in 0..<3 {
            let result = try lunette(["run", "--storage", store, file.path])
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.contains("count \(expected)"), result.output)
        }
    }

    /// A store that cannot be opened at first (here a file stands where its
    /// directory goes; a lock held longer than SQLite waits is the same) is tried
    /// again later: a view that appears once it can be opened keeps its
    /// value (a hostile read: the first failure was kept for the whole run).
    func testT04AStoreThatFailsToOpenIsTriedAgainLater() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("later_\(UUID().uuidString)")
        let file = try temporaryScript("""
            local ui = require("lunette")
            local Late = ui.View("Late", { appStorage = { late = 0 }, body = function(self)
              return ui.Text("late=" .. self.late):onAppear(function() self.late = self.late + 1 end)
            end })
            local V = ui.View("V", { appStorage = { early = 0 }, state = { show = false }, body = function(self)
              return ui.VStack { ui.Text("early=" .. self.early), self.show and Late {} or nil }:task(function()
                os.remove("\(directory.path)")
                ui.sleep(2.5)
                self.show = true
              end)
            end })
            return V {}
            """, named: "later")
        let store = directory.appendingPathComponent("store.sqlite").path
        try "not a directory".write(to: directory, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: directory)
        }
        let first = try lunette(["run", "--storage", store, file.path, "--for", "3"])
        XCTAssertTrue(first.errors.contains("cannot be used"), first.errors)   // early: reported, its default used
        XCTAssertTrue(first.output.contains("late=1"), first.output)
        let second = try lunette(["run", "--storage", store, file.path, "--for", "3"])
        XCTAssertTrue(second.output.contains("late=2"), second.output + second.errors)
    }

    /// os.exit's arguments are checked where the script called it (the
    /// wrapper that keeps storage named neither the line nor 'exit').
    func testOsExitsBadArgumentNamesTheLineAndTheFunction() throws {
        let file = try temporaryScript("local ui = require(\"lunette\")\nos.exit(\"x\")\n", named: "badexit")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains(":2: bad argument #1 to 'exit' (number expected, got string)"), result.errors)
    }

    func testT04ACorruptStoreGivesDefaultsAndAClearErrorAndIsNotOverwritten() throws {
        let script = try storageScript(taps: 1)
        let store = script.deletingPathExtension().path + ".sqlite"
        defer { for path in [script.path, store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: path) } }
        try "not a database".write(toFile: store, atomically: true, encoding: .utf8)
        let result = try lunette(["run", "--storage", store, script.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("count 1"), result.output)     // from the default, 0
        XCTAssertTrue(result.errors.contains("\(store) cannot be used (file is not a database)"), result.errors)
        XCTAssertEqual(result.errors.components(separatedBy: "error:").count, 2, result.errors)   // once, not per key
        XCTAssertEqual(try String(contentsOfFile: store, encoding: .utf8), "not a database")
    }

    /// Two processes writing the same key at once: both finish without an
    /// error, the file stays a sound database, and the key holds one of
    /// the values they wrote.
    func testT04TwoProcessesWritingTheSameKeyDoNotCorruptTheStore() throws {
        let script = try storageScript(taps: 150)
        let store = script.deletingPathExtension().path + ".sqlite"
        defer { for path in [script.path, store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: path) } }
        let results = Locked<[(status: Int32, output: String, errors: String)]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let result = try? lunette(["run", "--storage", store, script.path]) { results.withLock { $0.append(result) } }
        }
        let both = results.withLock { $0 }
        XCTAssertEqual(both.count, 2)
        for result in both { XCTAssertEqual(result.status, 0, result.errors) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // The value is kept as bytes (R24): "L1", 'i', then the integer's 8 bytes, low first.
        check.arguments = [store, "PRAGMA integrity_check; SELECT hex(value) FROM lunette_values WHERE key = CAST('count' AS BLOB);"]
        let out = Pipe()
        check.standardOutput = out
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed")
        try check.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        check.waitUntilExit()
        XCTAssertEqual(lines.first, "ok")
        let hex = Array(lines.last ?? "")
        XCTAssertEqual(String(hex.prefix(6)), "4C3169", "an integer, as the runtime encodes it")
        let count = stride(from: 6, to: min(hex.count, 22), by: 2).reversed()
            .reduce(0) { $0 * 256 + (Int(String(hex[$1..<$1 + 2]), radix: 16) ?? 0) }
        XCTAssertTrue((150...300).contains(count), "count \(count)")  // each process adds 150 to what it read first
    }

    /// The ReadingList example, run as its README line says: a book opened
    /// in one run is "Last opened" in the next.
    func testT04TheReadingListExampleRemembersTheLastBookOpened() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("reading_\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let script = "Examples/ReadingList/ReadingList.lua"
        let fresh = try lunette(["run", "--storage", store, script])
        XCTAssertEqual(fresh.status, 0, fresh.errors)
        XCTAssertTrue(fresh.output.contains("Text \"Nothing opened yet\""), fresh.output)
        let opening = try lunette(["run", "--storage", store, script, "Emma"])
        XCTAssertEqual(opening.status, 0, opening.errors)
        XCTAssertTrue(opening.output.contains("Text \"On the shelf\""), opening.output)
        let next = try lunette(["run", "--storage", store, script])
        XCTAssertTrue(next.output.contains("Text \"Last opened: Emma\""), next.output)
    }

    /// SceneStorage from the command line: the same script opened again gets
    /// its scene's values back; another script is another scene.
    func testSceneStorageIsKeptPerScript() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenes_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = """
            local ui = require("lunette")
            local Tabs = ui.View("Tabs", { sceneStorage = { tab = 1 }, body = function(self)
              return ui.VStack { ui.Text("tab " .. self.tab), ui.Button("next", function() self.tab = self.tab + 1 end) }
            end })
            ui.mount(Tabs {}):find("next"):tap()
            """
        let one = directory.appendingPathComponent("one.lua"), two = directory.appendingPathComponent("two.lua")
        try source.write(to: one, atomically: true, encoding: .utf8)
        try source.write(to: two, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("store.sqlite").path
        XCTAssertTrue(try lunette(["run", "--storage", store, one.path]).output.contains("tab 2"))
        XCTAssertTrue(try lunette(["run", "--storage", store, one.path]).output.contains("tab 3"))
        let other = try lunette(["run", "--storage", store, two.path])
        XCTAssertTrue(other.output.contains("tab 2"), other.output + other.errors)
    }

    /// D07 from the command line: writing nil removes the key from the store
    /// (AppStorage's optional init(_:store:) "defaults to nil if there is no
    /// restored value", https://developer.apple.com/documentation/swiftui/appstorage/init(_:store:)),
    /// so the next run reads its own declaration's default, and the file
    /// keeps no row for it.
    func testD07WritingNilRemovesTheKeyAcrossRuns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("removal_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func script(_ name: String, default value: Int, action: String) throws -> String {
            let file = directory.appendingPathComponent(name + ".lua")
            try """
                local ui = require("lunette")
                local seen
                local Size = ui.View("Size", { appStorage = { size = \(value) }, body = function(self)
                  return ui.VStack {
                    ui.Text("size " .. tostring(self.size) .. ", before " .. tostring(seen)),
                    ui.Button("act", function() seen = self.size; \(action) end),
                  }
                end })
                ui.mount(Size {}):find("act"):tap()
                """.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let store = directory.appendingPathComponent("store.sqlite").path
        let write = try lunette(["run", "--storage", store, try script("write", default: 10, action: "self.size = 5")])
        XCTAssertEqual(write.status, 0, write.errors)
        let remove = try lunette(["run", "--storage", store, try script("remove", default: 30, action: "self.size = nil")])
        XCTAssertEqual(remove.status, 0, remove.errors)
        XCTAssertTrue(remove.output.contains("size 30, before 5"), remove.output)   // removed: this declaration's default
        let read = try lunette(["run", "--storage", store, try script("read", default: 7, action: "")])
        XCTAssertTrue(read.output.contains("size 7"), read.output + read.errors)
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed")
        let check = Process(), out = Pipe()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        check.arguments = [store, "SELECT count(*) FROM lunette_values WHERE key = CAST('size' AS BLOB);"]
        check.standardOutput = out
        try check.run()
        let rows = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        XCTAssertEqual(rows.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
