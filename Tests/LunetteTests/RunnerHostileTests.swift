import Foundation
import XCTest

/// What a hostile read of `lunette test` found in session 25 (each failed
/// before its fix): a process a spec started kept the run waiting, the
/// runner looked up what it calls when it called it, a declaration's bad
/// name or body stopped the whole file, and options were silently ignored.
extension CommandLineTests {
    /// Writes a spec file in a directory of its own and returns its path.
    private func hostileSpec(_ source: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("hostile_spec.lua")
        try Data(source.utf8).write(to: file)
        return file
    }

    /// `os.execute("sleep 30 &")` kept `lunette test` waiting 30 s: the
    /// background process inherited the socket Foundation's `Process`
    /// watches to see the child end.
    func testABackgroundProcessASpecStartsDoesNotKeepTheRunWaiting() throws {
        let file = try hostileSpec(#"""
            describe("bg", function() it("starts a server", function() os.execute("sleep 30 &") end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let started = Date()
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the run waited for the background process")
    }

    /// A spec replacing `table.remove` hung the runner's own walk, and one
    /// replacing `package.loaded.lunette` turned the reset between tests off.
    func testReplacingWhatTheRunnerUsesChangesOnlyTheSpec() throws {
        let file = try hostileSpec(#"""
            local ui = require("lunette")
            package.loaded.lunette = { reset = function() end, flush = function() end }
            describe("forge", function()
              it("t1 replaces what it can", function()
                ui.clock.advance(5)
                table.remove = function() while true do end end
              end)
            end)
            describe("then", function()
              it("t2 starts afresh", function() assert.equal(0, ui.clock.now()) end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try lunette(["test", "--timeout", "3", file.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasSuffix("2 passed, 0 failed\n"), result.output)
    }

    /// `it({}, fn)` stopped the whole file when its name was shown; `it("x",
    /// 42)` and `describe("x")` failed with no place (each bad test fails
    /// alone, at its line; its siblings run, as under busted); `pending(reason)`
    /// showed the reason outside the test's time limit (a looping
    /// `__tostring` hung the file); `finally` outside a test never ran; a
    /// describe nested 2,000 deep took 38 s outside every limit.
    func testBadDeclarationsFailWhereTheyAreWritten() throws {
        let file = try hostileSpec(#"""
            describe("names", function()
              it({}, function() end)
              it("a sibling runs", function() end)
            end)
            describe("bodies", function() it("a number", 42); it("beside it runs", function() end); pending() end)
            describe("no body")
            describe("pending", function()
              it("loops in its reason", function()
                pending(setmetatable({}, { __tostring = function() while true do end end }))
              end)
              it("runs after it", function() end)
            end)
            describe("finally", function() finally(function() end) end)
            local function nest(n) if n > 0 then describe("d", function() nest(n - 1) end) end end
            describe("deep", function() nest(300) end)
            describe("after all that", function() it("still runs", function() end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        for expected in ["✗ names (a table as a name)", "hostile_spec.lua:2: it: a name is a string, got table",
                         "✓ names a sibling runs", "✓ bodies beside it runs", "- bodies (pending) (pending)",
                         "✗ bodies a number", "hostile_spec.lua:5: it: a test's body is a function, got number",
                         "hostile_spec.lua:6: describe: a block's body is a function, got nil",
                         "timed out after 1",
                         "finally is for a test's body",
                         "describe: blocks nest at most 50 deep",
                         "✓ pending runs after it", "✓ after all that still runs"] {
            XCTAssertTrue(result.output.contains(expected), "\(expected)\n\(result.output)")
        }
    }

    /// Nested teardowns, each within the limit, added up past the limit
    /// and its grace with no record sent: the parent killed a valid file.
    func testHooksWithinTheirLimitTogetherLongerDoNotGetTheFileKilled() throws {
        let file = try hostileSpec(#"""
            local function busy(s) local t = os.clock() while os.clock() - t < s do end end
            local function nest(n)
              teardown(function() busy(0.9) end)
              if n > 1 then describe("b", function() nest(n - 1) end) else it("t", function() end) end
            end
            describe("b", function() nest(7) end)
            describe("after", function() it("runs", function() end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasSuffix("2 passed, 0 failed\n"), result.output)
    }

    /// A missing path exited 0 beside files that passed; a second --filter
    /// replaced the first; `--tags ''` and `--filter ''` ran every test.
    func testOptionsAndPathsAreNotSilentlyIgnored() throws {
        let file = try hostileSpec(#"""
            describe("pick", function()
              it("apple", function() end)
              it("banana", function() end)
              it("cherry", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let missing = try lunette(["test", file.path, "no_such_spec.lua"])
        XCTAssertEqual(missing.status, 1, missing.output)
        XCTAssertTrue(missing.errors.contains("no such file or directory: no_such_spec.lua"), missing.errors)
        let both = try lunette(["test", "--filter", "apple", "--filter", "cherry", file.path])
        XCTAssertTrue(both.output.hasSuffix("2 passed, 0 failed\n"), both.output)
        for empty in [["--tags", ""], ["--tags", ",,"], ["--filter", ""]] {
            let result = try lunette(["test"] + empty + [file.path])
            XCTAssertNotEqual(result.status, 0, "\(empty) \(result.output)")
            XCTAssertTrue(result.errors.contains("need"), "\(empty) \(result.errors)")
        }
    }

    /// Ctrl-C ended `lunette run` at once: a 40 MiB value still being kept
    /// (and the counter written with it) was lost, with no message. The
    /// command now ends as its own end does: the store keeps what the
    /// flushes wrote, then it exits with 128 + the signal's number.
    func testCtrlCKeepsWhatTheScriptWroteToTheStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigint_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let writer = directory.appendingPathComponent("writer.lua")
        try """
            local ui = require("lunette")
            ui.mount(ui.View("Writer", { appStorage = { note = "", n = 0 }, body = function(self)
              return ui.Text("n=" .. self.n):task(function()
                self.note = string.rep("x", 40 << 20); self.n = self.n + 1
                io.stderr:write("written\\n"); ui.sleep(3600)
              end)
            end })())
            """.write(to: writer, atomically: true, encoding: .utf8)
        let binary = root.appendingPathComponent(".build/debug/lunette")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", "--storage", store, writer.path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("written") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let reader = directory.appendingPathComponent("reader.lua")
        try """
            local ui = require("lunette")
            return ui.View("Reader", { appStorage = { n = 0 }, body = function(self) return ui.Text("n=" .. self.n) end })()
            """.write(to: reader, atomically: true, encoding: .utf8)
        let result = try lunette(["run", "--storage", store, reader.path])
        XCTAssertTrue(result.output.contains("n=1"), result.output + result.errors)
    }

    /// A hostile read of the Ctrl-C handling: SIGTERM to an idle REPL took
    /// 10 s (it has no loop to come back to); a second Ctrl-C during a long
    /// top-level run was ignored. Both end at once now.
    func testSIGTERMEndsAnIdleReplAndASecondCtrlCEndsALongRun() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        func ends(_ arguments: [String], signals: [Int32]) throws -> (status: Int32, seconds: Double) {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.standardInput = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: 0.5)
            let started = Date()
            for signal in signals { kill(process.processIdentifier, signal); Thread.sleep(forTimeInterval: 0.2) }
            process.waitUntilExit()
            return (process.terminationStatus, Date().timeIntervalSince(started))
        }
        let repl = try ends(["repl"], signals: [SIGTERM])
        XCTAssertEqual(repl.status, 143)
        XCTAssertLessThan(repl.seconds, 5)
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("long_\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        try "local t = os.clock() while os.clock() - t < 30 do end".write(to: script, atomically: true, encoding: .utf8)
        let run = try ends(["run", "--time-budget", "60", script.path], signals: [SIGINT, SIGINT])
        XCTAssertEqual(run.status, 130)
        XCTAssertLessThan(run.seconds, 5)
    }

    /// `error(nil)`, `error({ code = 1 })` (shown as `table: 0x…`, an
    /// address), `error("x", 0)` and `error(42)` failed with no place, and
    /// a timed-out test did not say where it was stopped; busted shows one.
    func testErrorsWithoutAPlaceAndTimeoutsSayWhere() throws {
        let file = try hostileSpec(#"""
            describe("errors", function()
              it("nil", function() error(nil) end)
              it("table", function() error({ code = 1 }) end)
              it("level 0", function() error("x", 0) end)
              it("loops", function() while true do end end)
              it("loops after a line", function()
                local x = 0
                while true do x = x + 1 end             -- line 8: the line it was stopped at
              end)
            end)
            describe("body", function() error({ d = 1 }) end)
            describe "curried" (function() it "a number" (42); it "beside it runs" (function() end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        for expected in ["hostile_spec.lua:2: error(nil)", "hostile_spec.lua:3: {code=1}", "hostile_spec.lua:4: x",
                         "hostile_spec.lua:5: timed out after 1s", "hostile_spec.lua:8: timed out after 1s",
                         "hostile_spec.lua:11: {d=1}", "hostile_spec.lua:12: it: a test's body is a function, got number",
                         "✓ curried beside it runs"] {
            XCTAssertTrue(result.output.contains(expected), "\(expected)\n\(result.output)")
        }
    }

    /// busted's curried forms, `describe "x" (fn)` and `it "x" (fn)`, failed
    /// the whole file under `lunette test` (parity); a `describe("x")` never
    /// given a body still fails at its line, not silently as under busted.
    func testTheCurriedFormsOfDescribeAndItDeclare() throws {
        let file = try hostileSpec(#"""
            describe "curried" (function()
              it "runs" (function() assert.equal(1, 1) end)
              it("no body is pending")
            end)
            describe("never given")
            """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try lunette(["test", file.path])
        for expected in ["✓ curried runs", "- curried no body is pending",
                         "hostile_spec.lua:5: describe: a block's body is a function, got nil", "1 passed, 1 failed, 1 skipped"] {
            XCTAssertTrue(result.output.contains(expected), "\(expected)\n\(result.output)")
        }
    }
}
