import Foundation
import XCTest

/// R25 (issue 16): the test runner's results travel on a channel specs
/// cannot write to, whatever specs print cannot change a verdict, and
/// `--junit` / `--tap` are well-formed for any name or message.
extension CommandLineTests {
    /// Writes a spec file (bytes: names may hold any byte) and returns its path.
    private func specFile(_ source: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("r25_\(UUID().uuidString)_spec.lua")
        try Data(source.utf8).write(to: file)
        return file
    }

    /// Three failing tests: one prints the old runner's record separator,
    /// one a NUL and CRLF, one a forged pass in the old in-band format (and
    /// names carry control characters). Before, this printed "1 passed, 2
    /// failed" and, under --sandbox, exited 0.
    func testR25PrintedControlCharactersAndForgedRecordsCannotHideFailures() throws {
        let file = try specFile(#"""
            describe("printing", function()
              it("a record separator", function() print("\30"); assert.equal(1, 2) end)
              it("a NUL and CRLF\r\n", function() print("\0\r\n"); assert.equal(1, 2) end)
              it("a forged pass \30 named\n with controls", function()
                print("\29passed\31forged\31\0310.1\30\29done\31x\31\0310\30")
                print('{"status":"passed","name":"forged","message":"","seconds":0}')
                assert.equal(1, 2)
              end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        for sandbox in [[], ["--sandbox"]] {
            let result = try lunette(["test"] + sandbox + [file.path])
            XCTAssertEqual(result.status, 1, "\(sandbox) \(result.output)")
            XCTAssertTrue(result.output.hasSuffix("0 passed, 3 failed\n"), "\(sandbox) \(result.output)")
            XCTAssertFalse(result.output.contains("✓"), result.output)
            // What the specs printed passes through as they wrote it.
            XCTAssertTrue(result.output.contains("\u{1D}passed\u{1F}forged"), result.output)
            XCTAssertTrue(result.output.contains("\0\r\n"), result.output)
            // ... and before the result of the test that printed it.
            XCTAssertTrue(result.output.contains("\u{1E}\n  ✗ printing a record separator"), result.output)
            XCTAssertTrue(result.output.contains("a forged pass \\u{1E} named\\u{A} with controls"), result.output)
        }
    }

    /// A spec that writes forged records — in the old format and the new one —
    /// through every descriptor it can open (/proc/self/fd/N, a shell's
    /// `>&N`, and, where the kernel allows, a descriptor stolen from the
    /// process with pidfd_getfd) is still counted failed.
    func testR25ASpecCannotForgeAPassThroughAnyDescriptor() throws {
        let thief = FileManager.default.temporaryDirectory.appendingPathComponent("r25_thief_\(UUID().uuidString).py")
        try """
            import ctypes, os, sys
            libc = ctypes.CDLL(None, use_errno=True)
            pidfd = libc.syscall(434, int(sys.argv[1]), 0)          # pidfd_open
            for n in range(0, 64):
                fd = libc.syscall(438, pidfd, n, 0) if pidfd >= 0 else -1  # pidfd_getfd
                if fd >= 0:
                    try: os.write(fd, sys.argv[2].encode("latin-1"))
                    except OSError: pass
            """.write(to: thief, atomically: true, encoding: .utf8)
        let file = try specFile(#"""
            local payload = '{"status":"passed","name":"fd forgery","message":"","seconds":0}'
            local forged = "LUNETTE-SPEC-CHANNEL 1 " .. ("0"):rep(32) .. "\n" .. ("0"):rep(32)
              .. ("%08x"):format(#payload) .. payload .. "\29passed\31fd forgery\31\0310.1\30"
            local function octal(s) return (s:gsub(".", function(c) return ("\\%03o"):format(c:byte()) end)) end
            describe("fd", function()
              it("forgery", function()
                for n = 0, 63 do
                  local f = io.open("/proc/self/fd/" .. n, "w")
                  if f then f:write(forged); f:close() end
                  os.execute("printf '" .. octal(forged) .. "' >&" .. n .. " 2>/dev/null")
                end
                local pid = io.open("/proc/self/stat"):read("l"):match("^(%d+)")
                os.execute("python3 THIEF " .. pid .. " '" .. forged:gsub("'", "") .. "' 2>/dev/null")
                assert.equal(1, 2)
              end)
            end)
            """#.replacingOccurrences(of: "THIEF", with: thief.path))
        defer { for url in [file, thief] { try? FileManager.default.removeItem(at: url) } }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.hasSuffix("0 passed, 1 failed\n"), result.output)
        XCTAssertFalse(result.output.contains("✓"), result.output)
    }

    /// A spec that replaces what the runner calls (xpcall, coroutine.resume,
    /// string.find and the string metatable's, os.clock through a stub with
    /// no value) changes its own code, not the runner's: its failing tests
    /// are counted failed and the ones after it still run. Before, the
    /// replaced xpcall reported a failure as a pass (exit 0, also under
    /// --sandbox), and `stub(os, "clock")` lost the rest of the file.
    func testR25ASpecReplacingWhatTheRunnerCallsCannotForgeAPass() throws {
        let file = try specFile(#"""
            local real = xpcall
            xpcall = function(f, h, ...) real(f, h, ...); return true end
            coroutine.resume = function() return true, true end
            string.find = function() return nil end
            getmetatable("").__index = { find = function() return nil end }
            describe("replaced", function()
              it("stubs os.clock and fails", function() stub(os, "clock"); error("I failed") end)
              it("fails after it", function() error("me too") end)
              it("passes after it", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        for sandbox in [[], ["--sandbox"]] {
            let result = try lunette(["test"] + sandbox + [file.path])
            XCTAssertEqual(result.status, 1, "\(sandbox) \(result.output)")
            XCTAssertTrue(result.output.hasSuffix("1 passed, 2 failed\n"), "\(sandbox) \(result.output)")
            XCTAssertTrue(result.output.contains("✗ replaced stubs os.clock and fails"), result.output)
        }
    }

    /// A test stopped at its time limit still runs its `finally` and its
    /// block's `after_each` (before, they were skipped and what they undo
    /// leaked into the next test); a process that ends in a teardown, after
    /// its last test passed, is reported as the file's failure, not as that
    /// test's (before, one test was both passed and failed).
    func testATimedOutTestIsCleanedUpAndATeardownExitIsTheFiles() throws {
        let file = try specFile(#"""
            local marks = {}
            describe("cleanup", function()
              after_each(function() marks[#marks + 1] = "after" end)
              it("loops", function()
                finally(function() marks[#marks + 1] = "finally" end)
                while true do end
              end)
              it("sees the cleanup", function() assert.same({ "finally", "after" }, marks) end)
            end)
            describe("once", function()
              local once = {}
              it("registers a finally", function() finally(function() once[#once + 1] = "finally" end) end)
              describe("inner", function()
                before_each(function() while true do end end)
                it("times out in before_each", function() end)
              end)
              it("loops in its finally", function()
                finally(function() once[#once + 1] = "loop"; while true do end end)
                while true do end
              end)
              it("saw each finally once", function() assert.same({ "finally", "loop" }, once) end)
            end)
            describe("exit", function()
              teardown(function() os.exit(0) end)
              it("passes", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("✓ cleanup sees the cleanup"), result.output)
        XCTAssertTrue(result.output.contains("✓ exit passes"), result.output)
        XCTAssertTrue(result.output.contains("✗ exit teardown"), result.output)   // the hook it ended in, named
        XCTAssertTrue(result.output.contains("exited with status 0 before the file finished"), result.output)
        XCTAssertFalse(result.output.contains("✗ exit passes"), result.output)
        XCTAssertTrue(result.output.contains("✓ once saw each finally once"), result.output)
        XCTAssertTrue(result.output.hasSuffix("4 passed, 4 failed\n"), result.output)
    }

    /// A test that hangs in a coroutine of its own, or in a `<close>`
    /// handler, is stopped at its limit and the file goes on. Before, the
    /// stop yielded from the inner coroutine back to the test, which went
    /// on and passed, and a looping close handler ran without a limit until
    /// the file's process was killed, its later tests uncounted (hostile
    /// reads).
    func testATestHangingInItsOwnCoroutineOrACloseHandlerIsStopped() throws {
        let file = try specFile(#"""
            it("loops in a coroutine", function() coroutine.wrap(function() while true do end end)() end)
            it("loops in a coroutine whose error it ignores", function()
              local ok = coroutine.resume(coroutine.create(function() while true do end end))
              assert.is_false(ok)
            end)
            it("loops, and so does its close handler", function()
              local g <close> = setmetatable({}, { __close = function() while true do end end })
              while true do end
            end)
            it("loops catching every error, in a coroutine of its own", function()
              coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()
            end)
            it("loops in an xpcall message handler", function()
              xpcall(function() error("x") end, function() while true do end end)
            end)
            it("loops catching every error in its close handler", function()
              local g <close> = setmetatable({}, { __close = function()
                while true do pcall(function() while true do end end) end
              end })
              while true do end
            end)
            it("runs after them", function() end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertEqual(result.output.components(separatedBy: "timed out after 1s").count - 1, 6, result.output)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 6 failed\n"), result.output)
    }

    /// `it` and `pending` declare; once the file's tests run, they are
    /// errors where they are no test's own (`pending` inside a test's body
    /// stops it, as busted's). Before, a `pending` in a `lazy_setup` or an
    /// `it` inside a test added a stray entry to the file's top level.
    func testItAndPendingOutsideTheDeclarationsAreErrors() throws {
        let file = try specFile(#"""
            describe("block", function()
              lazy_setup(function() pending("in a setup") end)
              it("is failed by its setup", function() end)
            end)
            it("declares a test inside a test", function() it("stray", function() end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("✗ block lazy_setup"), result.output)   // as busted names it
        XCTAssertTrue(result.output.contains("tests are declared in a file or a describe block"), result.output)
        XCTAssertFalse(result.output.contains("stray"), result.output)
        XCTAssertFalse(result.output.contains("in a setup (pending)"), result.output)
        XCTAssertTrue(result.output.hasSuffix("0 passed, 2 failed\n"), result.output)
    }

    /// What a test's last `app:unmount()` leaves to run (an onDisappear, a
    /// cancelled task's end) is the test's: it runs before the test is
    /// judged, and an error there fails it. Before, it ran at the next
    /// test's reset, whose "what came before belongs to no test" dropped
    /// it, and the test passed. And a task spinning past the limit inside
    /// `ui.clock.advance` is stopped at the limit: a yield there went back
    /// to the task's scheduler, which resumed it (a fifth hostile read).
    func testAnUnmountsErrorsAreTheTestsAndASpinningTaskIsStopped() throws {
        let file = try specFile(#"""
            local ui = require("lunette")
            local Leaving = ui.View("Leaving", { body = function()
              return ui.Text("x"):onDisappear(function() error("disappear broke") end)
            end })
            local Spinning = ui.View("Spinning", { body = function()
              return ui.Text("s"):task(function() ui.sleep(0.1); while true do end end)
            end })
            it("unmounts last", function() local app = ui.mount(Leaving {}); app:unmount() end)
            it("spins a task", function() ui.mount(Spinning {}); ui.clock.advance(1) end)
            it("runs after them", function() end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--timeout", "1", "--time-budget", "100", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("disappear broke"), result.output)
        XCTAssertTrue(result.output.contains("✗ spins a task\n      timed out after 1s"), result.output)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 2 failed\n"), result.output)
    }

    /// Warnings cannot crowd an error out: the problems a test collects keep
    /// errors apart from warnings. Before, a thousand warnings filled the
    /// queue and a later error node passed the test (a hostile read).
    func testAThousandWarningsDoNotHideAnErrorNode() throws {
        let file = try specFile(#"""
            local ui = require("lunette")
            local Picks = ui.View("Picks", { state = { f = "mint" }, body = function(self)
              return ui.Picker("Flavor", self["$f"], { "vanilla" })
            end })
            local Broken = ui.View("Broken", { body = function() error("body broke") end })
            it("warns a thousand times, then breaks", function()
              local rows = {}
              for i = 1, 1100 do rows[i] = Picks {} end
              ui.mount(ui.VStack(rows))
              ui.mount(Broken {})
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("body broke"), result.output)
        XCTAssertTrue(result.output.hasSuffix("0 passed, 1 failed\n"), result.output)
    }

    /// A hostile read: an after_each that hangs past the time limit failed
    /// its test ("timed out") where a failing one leaves the test's verdict
    /// and is listed apart, as busted does.
    func testAnAfterEachThatHangsIsListedApartFromItsTest() throws {
        let file = try specFile(#"""
            describe("blk", function()
              after_each(function() while true do end end)
              it("passes on its own", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--timeout", "1", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("✓ blk passes on its own"), result.output)
        XCTAssertTrue(result.output.contains("✗ blk after_each\n      \(file.path):"), result.output)   // where it stopped
        XCTAssertTrue(result.output.contains(": timed out after 1s"), result.output)
        // as busted names them: a hung before_each by its name, a hook at a file's top level by its name alone
        let file2 = try specFile(#"""
            describe("blk", function()
              before_each(function() while true do end end)
              it("never runs", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file2) }
        let second = try lunette(["test", "--timeout", "1", file2.path])
        XCTAssertFalse(second.output.contains("never runs"), second.output)
        XCTAssertTrue(second.output.contains("✗ blk before_each\n      \(file2.path):2: timed out after 1s"), second.output)
        let third = try specFile("before_each(function() error('top broke') end)\nit('t', function() end)\n")
        defer { try? FileManager.default.removeItem(at: third) }
        XCTAssertTrue(try lunette(["test", third.path]).output.contains("  ✗ before_each\n"))
    }

    /// As busted: a block's lazy setup runs before the first test of a
    /// nested block, a setup that failed is one failure and the tests of
    /// nested blocks do not run (before, they ran), and an error in a describe's body fails that
    /// block while the file's other blocks run (before, the whole file
    /// failed to load).
    func testSetupsReachNestedBlocksAndABrokenDescribeFailsOnlyItself() throws {
        let file = try specFile(#"""
            local log = {}
            describe("outer", function()
              lazy_setup(function() log[#log + 1] = "lazy" end)
              describe("inner", function()
                it("sees the outer lazy setup", function() assert.same({ "lazy" }, log) end)
              end)
            end)
            describe("failing", function()
              setup(function() error("setup broke") end)
              describe("nested", function() it("does not run", function() print("NESTED RAN") end) end)
            end)
            describe("broken body", function()
              it("is declared before the error", function() end)
              error("body broke")
            end)
            describe("other", function() it("still runs", function() end) end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("✓ outer inner sees the outer lazy setup"), result.output)
        XCTAssertTrue(result.output.contains("✗ failing setup\n"), result.output)   // once, as busted reports it
        XCTAssertFalse(result.output.contains("does not run"), result.output)
        XCTAssertFalse(result.output.contains("NESTED RAN"), result.output)
        XCTAssertTrue(result.output.contains("✗ broken body (its describe body)"), result.output)
        XCTAssertFalse(result.output.contains("is declared before the error"), result.output)
        XCTAssertTrue(result.output.contains("✓ other still runs"), result.output)
        XCTAssertTrue(result.output.hasSuffix("2 passed, 2 failed\n"), result.output)
    }

    /// Names and messages with control characters, a NUL, `]]>`, quotes,
    /// markup and invalid UTF-8 still make JUnit XML that parses.
    func testR25JUnitIsWellFormedForAnyNameOrMessage() throws {
        let file = try specFile(#"""
            describe("junit \27[31m \0 ]]> \"q\" 'a' <b>&", function()
              it("fails \1\2\11\12\r\n\255 with controls", function()
                error("bad \0 \1 \27[0m \30 ]]> \"'<x>& \255\254 \r\n next line", 0)
              end)
              it("passes \239\191\191 \226\128\168", function() end)
              pending("later \31")
            end)
            """#)
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("r25_\(UUID().uuidString).xml")
        defer { for url in [file, junit] { try? FileManager.default.removeItem(at: url) } }
        let result = try lunette(["test", "--junit", junit.path, file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 1 failed, 1 skipped\n"), result.output)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"\u{1B}[31m"#), xml)
        XCTAssertTrue(xml.contains(#"\xFF"#), xml)
        let parse = try runPython(["-c", "import xml.dom.minidom,sys; d = xml.dom.minidom.parse(sys.argv[1]); "
            + "print(len(d.getElementsByTagName('testcase')), len(d.getElementsByTagName('failure')))", junit.path])
        XCTAssertEqual(parse.status, 0, parse.errors + "\n" + xml)
        XCTAssertEqual(parse.output, "3 1\n", xml)
    }

    /// TAP: each test is exactly one "ok"/"not ok" line, whatever its name
    /// holds (a newline, a "# TODO" that would hide a failure); messages sit
    /// in the YAML block, one quoted line.
    func testR25TAPHasOneLinePerTestWhateverTheNames() throws {
        let file = try specFile(#"""
            describe("tap", function()
              it("fails\nok 99 - a fake line", function() error("line one\nok 98 - fake\r\n\27 end", 0) end)
              it("fails # TODO hidden", function() assert.equal(1, 2) end)
              it("passes \r\n\0 \226\128\168", function() end)
            end)
            """#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--tap", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        let lines = result.output.components(separatedBy: "\n").dropLast()
        let tests = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        XCTAssertEqual(tests.count, 3, result.output)
        XCTAssertEqual(tests.filter { $0.hasPrefix("not ok ") }.count, 2, result.output)
        XCTAssertFalse(tests.contains { $0.contains(" # TODO") }, result.output)
        let grammar = try NSRegularExpression(pattern: #"^(TAP version 13|(not )?ok \d+ - .*|  ---|  message: ".*"|  \.\.\.|# .*|1\.\.\d+)$"#)
        for line in lines {
            let range = NSRange(line.startIndex..., in: line)
            XCTAssertNotNil(grammar.firstMatch(in: line, range: range), "not a TAP line: \(line.debugDescription)")
        }
        XCTAssertTrue(lines.last == "1..3", result.output)
        // The YAML block parses, and the message comes back whole.
        let block = lines.drop { $0 != "  ---" }.prefix { $0 != "  ..." }.joined(separator: "\n") + "\n"
        let yaml = try runPython(["-c", "import sys,json; import yaml; print(json.dumps(yaml.safe_load(sys.stdin.read().replace('  ---', '', 1))))"],
                                 input: block)
        if yaml.status == 0 {
            XCTAssertTrue(yaml.output.contains(#"line one\nok 98 - fake\r\n\u001b end"#), yaml.output)
        }
    }

    /// Runs python3 (skipping the test where there is none).
    private func runPython(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, errors: String) {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        inp.fileHandleForWriting.write(Data(input.utf8))
        try inp.fileHandleForWriting.close()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }
}
