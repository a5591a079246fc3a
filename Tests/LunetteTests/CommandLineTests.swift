import Foundation
import XCTest

/// The `lunette` executable, run as a person would (needs `swift build` first, as scripts/test does).
final class CommandLineTests: XCTestCase {
    var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A script written to a file of its own in the temporary directory (the caller removes it).
    func temporaryScript(_ source: String, named prefix: String = "script") throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)_\(UUID().uuidString).lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func lunette(_ arguments: [String], input: String? = nil, directory: String? = nil)
        throws -> (status: Int32, output: String, errors: String) {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { root.appendingPathComponent($0) } ?? root
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
        try inp.fileHandleForWriting.close()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    func testRunningTheBookReaderExampleShowsItsLibrary() throws {
        let result = try lunette(["run", "Examples/BookReader/BookReader.lua"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("List .navigationTitle(\"Books available: 3\")"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "Button \"Check out\"").count, 4)
    }

    /// A fresh user's reports: `lunette test` on a folder with no specs
    /// exited 1 and said nothing; `--junit` into a missing folder printed a
    /// raw NSError; `run --json` put "-- 0.20s" lines between its JSON.
    func testTheCommandLineSaysWhyAndKeepsJSONLinesParseable() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("nospecs_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try lunette(["test", empty.path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.errors.contains("no spec files (names ending _spec.lua) in \(empty.path)"), none.errors)

        let spec = empty.appendingPathComponent("one_spec.lua")
        try "describe('d', function() it('passes', function() end) end)".write(to: spec, atomically: true, encoding: .utf8)
        let junit = try lunette(["test", "--junit", "/nonexistent-\(UUID().uuidString)/x.xml", spec.path])
        XCTAssertEqual(junit.status, 1)
        XCTAssertTrue(junit.errors.contains("error: cannot write the JUnit results to /nonexistent-"), junit.errors)
        XCTAssertFalse(junit.errors.contains("NSCocoaErrorDomain"), junit.errors)

        let ticking = try temporaryScript("""
            local ui = require("lunette")
            local Clock = ui.Observable("Clock", { n = 0 })
            local clock = Clock()
            sub = ui.Timer.publish(0.1):sink(function() clock.n = clock.n + 1 end)
            return ui.View("Ticks", function() return ui.Text("n " .. clock.n) end)()
            """)
        defer { try? FileManager.default.removeItem(at: ticking) }
        let run = try lunette(["run", "--json", "--for", "0.35", ticking.path])
        XCTAssertEqual(run.status, 0, run.errors)
        let lines = run.output.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 2, run.output)
        for line in lines {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), "not JSON: \(line)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("{\"elapsed\":") }, run.output)

        // a negative number given to an option is that option's value, said wrong, not a missing one
        let negative = try lunette(["run", "--for", "-1", ticking.path])
        XCTAssertEqual(negative.status, 64, negative.errors)
        XCTAssertTrue(negative.errors.contains("--for must be a number of seconds, 0 or more, got -1.0"), negative.errors)
        // a pending test's reason is shown, as busted shows it (it was "(pending)" alone)
        try "describe('d', function() it('waits', function() pending('later') end) end)"
            .write(to: spec, atomically: true, encoding: .utf8)
        XCTAssertTrue(try lunette(["test", spec.path]).output.contains("  - d waits (pending: later)\n"))
        XCTAssertTrue(try lunette(["test", "--tap", spec.path]).output.contains("d waits # SKIP later\n"))
        let repl = try pipedRepl([ticking.path], input: ":why Nope\n")
        XCTAssertTrue(repl.output.contains("no view named Nope is rendered"), repl.output)
    }

    /// An author's report: `run --watch` quit when the script's first run
    /// failed, leaving nothing to fix and save into (a later save's error
    /// was already waited out).
    func testWatchWaitsForTheFixOfAFirstRunThatFailed() throws {
        let file = try temporaryScript("local ui = require('lunette')\nreturn ui.Text('hi' ..)\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: process.executableURL!.path), "run swift build first")
        process.arguments = ["run", "--watch", "--for", "3", file.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        try "local ui = require('lunette')\nreturn ui.Text('fixed')\n".write(to: file, atomically: true, encoding: .utf8)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(errors.contains("unexpected symbol"), errors)
        XCTAssertTrue(output.contains("Text \"fixed\""), output)
        // a file it cannot read, or a folder, has no fix to wait for (a hostile read: it waited until killed)
        let missing = try lunette(["run", "--watch", file.path + ".missing"])
        XCTAssertEqual(missing.status, 1, missing.errors)
        let folder = try lunette(["run", "--watch", file.deletingLastPathComponent().path])
        XCTAssertEqual(folder.status, 1, folder.errors)
        XCTAssertTrue(folder.errors.contains("it is a folder, not a Lua file"), folder.errors)
    }

    func testASyntaxErrorIsReportedWithItsLineAndExitCode1() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken_\(UUID().uuidString).lua")
        try "local ui = require('lunette')\nreturn ui.Text('x'\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("\(file.lastPathComponent):3:"), result.errors)
    }

    /// D10: a script that returns something other than a view (a module's
    /// table, run by mistake) is an error naming what it returned; before,
    /// `lunette run` printed nothing and exited 0 (a fresh user's report).
    func testAScriptReturningSomethingElseThanAViewIsAnError() throws {
        let file = try temporaryScript("""
            local ui = require("lunette")
            local M = {}
            M.Home = ui.View("Home", function() return ui.Text("home") end)
            return M
            """, named: "module")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.errors.contains("\(file.lastPathComponent): the script returned a table, not a view"), result.errors)
        let type = try temporaryScript("local ui = require('lunette')\nreturn ui.View('Home', function() return ui.Text('home') end)")
        defer { try? FileManager.default.removeItem(at: type) }
        XCTAssertEqual(try lunette(["run", type.path]).status, 0, "a view type is its view")
    }

    /// A script that fails after a view's body raised shows the tree it had
    /// and the view's error (the cause) before its own; before, only the
    /// script's "attempt to index a nil value" was printed.
    func testAFailedScriptShowsItsViewsErrorsFirst() throws {
        let file = try temporaryScript("""
            local ui = require("lunette")
            local V = ui.View("V", { body = function(self)
              return ui.Button("Save", function() end, { role = "cancle" })
            end })
            local app = ui.mount(V())
            app:find("Save"):tap()
            """, named: "hidden")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.errors)
        XCTAssertTrue(lines.first?.hasPrefix("error: V: \(file.path):3: ui.Button: its role is") == true, result.errors)
        XCTAssertTrue(lines.last?.hasPrefix("error: \(file.path):6:") == true, result.errors)
        XCTAssertTrue(result.output.contains("Error V"), result.output)
    }

    /// The script's arguments are what follows it, options included, as
    /// lua5.4 passes them (`lua5.4 s.lua a --json`: arg[2] is "--json");
    /// options before the script are lunette's. Before, `--json` after the
    /// script was taken by `lunette run` (a fresh user's report).
    func testEverythingAfterTheScriptIsTheScripts() throws {
        let file = try temporaryScript("for i = 1, #arg do print(i, arg[i]) end\nprint(arg[0])", named: "args")
        defer { try? FileManager.default.removeItem(at: file) }
        let after = try lunette(["run", file.path, "a", "--json", "-v"])
        XCTAssertEqual(after.status, 0, after.errors)
        XCTAssertEqual(after.output, "1\ta\n2\t--json\n3\t-v\n\(file.path)\n")
        let before = try lunette(["run", "--json", file.path, "b"])
        XCTAssertEqual(before.output, "1\tb\n\(file.path)\n")
    }

    /// spy.on on a model instance's method is refused as the assignment is
    /// (methods are the class's), at the spec's line and with the way out;
    /// before, at "(spec runner):265" with neither.
    func testSpyOnAnInstancesMethodNamesTheSpecsLineAndTheClass() throws {
        let file = try temporaryScript("""
            local ui = require("lunette")
            local Store = ui.Observable("SpyStore", { n = 0 })
            function Store:save() self.n = self.n + 1 end
            describe("s", function() it("spies", function()
              local s = spy.on(Store(), "save")
            end) end)
            """, named: "spyon_spec")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("\(file.lastPathComponent):5: SpyStore has no property 'save' to assign "
                                             + "(spy.on replaces a table's field; a model's methods are its class's"), result.output)
    }

    /// What an insulated block sets is given back while its tests run, a
    /// false as false (it came back as nil: a hostile read); an earlier
    /// test's missed find explains no later error (it explained any later
    /// "attempt to index a nil value", under both runners).
    func testInsulateKeepsAFalseAndAMissedFindIsTheTestsOwn() throws {
        let file = try temporaryScript("""
            local ui = require("lunette")
            flag = "outer"
            insulate("block", function()
              flag = false
              it("sees its false", function() assert.are.equal(false, flag) end)
            end)
            describe("m", function()
              it("misses on purpose", function() local app = ui.mount(ui.Text("x")); assert.is_nil(app:find("Nope")) end)
              it("fails on its own nil", function() local t = nil; return t.x end)
            end)
            """, named: "insulate_spec")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertTrue(result.output.contains("✓ block sees its false"), result.output)
        XCTAssertTrue(result.output.contains("attempt to index a nil value (local 't')"), result.output)
        XCTAssertFalse(result.output.contains("no node matches 'Nope'"), result.output)
    }

    /// insulate's own bookkeeping uses the runner's copies of next, rawget,
    /// rawset, _G and package.loaded: a test that replaces one (a rawset
    /// that loops, a package whose lookups loop) changed the runner's code
    /// and held the file until it was killed, its later tests lost (a
    /// hostile read).
    func testASpecReplacingWhatInsulateUsesChangesOnlyItsOwnCode() throws {
        let file = try temporaryScript("""
            describe("first", function()
              it("replaces package", function()
                package = setmetatable({}, { __index = function() while true do end end })
              end)
            end)
            insulate("block", function()
              it("replaces rawset and next", function()
                rawset = function() while true do end end
                next = function() return nil end
                X_LEAK = 1
              end)
            end)
            describe("after", function()
              it("runs without what the block set", function() assert.is_nil(X_LEAK) end)
            end)
            """, named: "replaces_spec")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--timeout", "5", file.path])
        XCTAssertTrue(result.output.contains("3 passed, 0 failed"), result.output)   // before: killed, "after" lost
    }

    func testTheTestRunnerCountsAndFailsOnFailure() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sample_\(UUID().uuidString)_spec.lua")
        try """
        describe("sample", function()
          it("passes", function() assert.equal(1, 1) end)
          it("fails", function() assert.equal(1, 2) end)
          pending("later")
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 1 failed, 1 skipped\n"), result.output)
        XCTAssertTrue(result.output.contains(":3: expected 1, got 2"), result.output)
    }

    func testAScriptedReplSessionReportsReRendersAndDependencies() throws {
        let session = """
            library = ui.types.Library()
            app = ui.mount(require("views").LibraryView():environment(library))
            library.books[1].title = "Dune"
            :deps BookView
            #library.books
            :quit
            """
        let result = try lunette(["repl"], input: session, directory: "Examples/BookReader")
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("> library.books[1].title = \"Dune\"\n↻ BookView#1  (Book#1.title, set at stdin:1)\n"),
                      result.output)
        XCTAssertTrue(result.output.contains("> :deps BookView\nBook#1.title\nBook#1.isAvailable\n"), result.output)
        XCTAssertTrue(result.output.contains("> #library.books\n3\n"), result.output)
    }

    func testTheReplWaitsForTheRestOfAnUnfinishedLine() throws {
        let result = try lunette(["repl"], input: "function double(x)\n  return x * 2\nend\ndouble(21)\n")
        XCTAssertTrue(result.output.contains("> function double(x)\n>>   return x * 2\n>> end\n> double(21)\n42\n"), result.output)
    }

    /// Collects a process's output as it comes, so a test can wait for a line.
    private final class Transcript: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""

        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.lock()
                self.text += String(decoding: data, as: UTF8.self)
                self.lock.unlock()
            }
        }

        var output: String {
            lock.lock()
            defer { lock.unlock() }
            return text
        }

        /// Waits (up to `seconds`) until the output contains `piece`.
        func wait(for piece: String, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if output.contains(piece) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
    }

    func testCtrlCStopsARunningLineAndKeepsTheState() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["repl"]
        let out = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardInput = inp
        let transcript = Transcript(out)
        try process.run()
        inp.fileHandleForWriting.write(Data("kept = 41\nwhile true do end\n".utf8))
        XCTAssertTrue(transcript.wait(for: "> while true do end\n"))
        Thread.sleep(forTimeInterval: 0.2)
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(transcript.wait(for: "interrupted"), transcript.output)
        inp.fileHandleForWriting.write(Data("kept + 1\n:quit\n".utf8))
        try inp.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertTrue(transcript.wait(for: "> kept + 1\n42\n"), transcript.output)
    }

    /// Issue 10: at the prompt of a terminal session Ctrl-C drops the line and keeps the state;
    /// twice in a row quits; Tab completes names and commands; history goes to $HOME (the environment's).
    func testCtrlCAtThePromptDropsTheLineAndTwiceQuits() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("home_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try PseudoTerminal(binary: binary, arguments: ["repl"], home: home.path)
        XCTAssertTrue(terminal.wait(for: "> "), terminal.output)
        terminal.type("kept = 41\r")
        terminal.type("half a line")
        Thread.sleep(forTimeInterval: 0.3)
        terminal.interrupt()
        XCTAssertTrue(terminal.wait(for: "line dropped"), terminal.output)
        terminal.type("kept + 1\r")
        XCTAssertTrue(terminal.wait(for: "42"), terminal.output)
        terminal.type("type(ui.Togg\t)\r")                      // Tab completes ui.Toggle: a function
        XCTAssertTrue(terminal.wait(for: "function"), terminal.output)
        terminal.type(":sta\t\u{15}")                          // :state; then Ctrl-U clears the line
        XCTAssertTrue(terminal.wait(for: "ate"), terminal.output)
        Thread.sleep(forTimeInterval: 0.2)
        terminal.interrupt()
        Thread.sleep(forTimeInterval: 0.3)
        terminal.interrupt()                                    // twice in a row quits
        XCTAssertTrue(terminal.waitForExit(), terminal.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".lunette_history").path))
    }

    /// Issue 10: a piped session whose line failed exits 1; `lunette repl FILE` leaves `app`.
    func testAPipedSessionReportsAFailedLineAndAFileLeavesItsApp() throws {
        let failing = try lunette(["repl"], input: "x = 1\nerror('boom')\nx\n")
        XCTAssertEqual(failing.status, 1, failing.output)
        let fine = try lunette(["repl"], input: "x = 1\nx\n")
        XCTAssertEqual(fine.status, 0, fine.output)
        let withApp = try lunette(["repl", "Examples/BookReader/BookReader.lua"],
                                  input: "app:find('Check out'):tap()\nprint(#app:findAll('Return'))\n")
        XCTAssertEqual(withApp.status, 0, withApp.output + withApp.errors)
        XCTAssertTrue(withApp.output.contains("\n1\n"), withApp.output)
    }

    func testAHungSpecIsReportedFailedAndTheRunGoesOn() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hang_\(UUID().uuidString)_spec.lua")
        try """
        describe("hanging", function()
          it("loops forever", function() while true do end end)
          it("loops forever inside pcall", function()
            while true do pcall(function() while true do end end) end
          end)
          it("runs after", function() assert.same({ 1, 2 }, { 1, 3 }) end)
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let junit = file.deletingPathExtension().appendingPathExtension("xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let result = try lunette(["test", file.path, "--timeout", "0.3", "--junit", junit.path])
        XCTAssertEqual(result.status, 1)
        // each says where it was stopped (its spec's line), then the limit
        XCTAssertTrue(result.output.contains("✗ hanging loops forever\n      \(file.path):"), result.output)
        XCTAssertTrue(result.output.contains("✗ hanging loops forever inside pcall\n      \(file.path):"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: ": timed out after 0.3s").count - 1, 2, result.output)
        XCTAssertTrue(result.output.contains(":6: expected the same contents as {1, 2}, got {1, 3}"), result.output)
        XCTAssertTrue(result.output.hasSuffix("0 passed, 3 failed\n"), result.output)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("<testsuites name=\"lunette\" tests=\"3\" failures=\"3\" skipped=\"0\">"), xml)
    }

    /// Issue 7, class 10: an error in onAppear, onChange or a task is an error (exit 1) naming file:line.
    func testErrorsInEventsMakeTheRunFail() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("events_\(UUID().uuidString).lua")
        try "local ui = require('lunette')\nreturn ui.Text('x'):onAppear(function() error('appear failed') end)\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("error: root: \(file.path):2: appear failed"), result.errors)
    }

    /// Issue 10: errors in views and events fail the test that caused them, unless it says it
    /// expects them; warnings fail only with --fail-on-warnings.
    func testErrorsInViewsAndEventsFailTheTest() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("problems_\(UUID().uuidString)_spec.lua")
        try """
        local ui = require("lunette")
        describe("problems", function()
          it("an unexpected error node", function()
            ui.mount(ui.View("Broken", function() error("boom") end)())
          end)
          it("an expected error node", function()
            local app = ui.mount(ui.View("Broken", function() error("boom") end)())
            assert.has_error_node(app, "boom")
          end)
          it("an error in onAppear", function()
            ui.mount(ui.Text("x"):onAppear(function() error("appear failed") end))
          end)
          it("a warning", function()
            ui.mount(ui.View("Loop", { state = { n = 0 }, body = function(self)
              self.n = self.n + 1
              return ui.Text(tostring(self.n))
            end })())
          end)
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("✗ problems an unexpected error node"), result.output)
        XCTAssertTrue(result.output.contains("Broken: \(file.lastPathComponent):4: boom")
                      || result.output.contains("Broken: \(file.path):4: boom"), result.output)
        XCTAssertTrue(result.output.contains("✓ problems an expected error node"), result.output)
        XCTAssertTrue(result.output.contains("✗ problems an error in onAppear"), result.output)
        XCTAssertTrue(result.output.contains("✓ problems a warning"), result.output)
        let strict = try lunette(["test", "--fail-on-warnings", file.path])
        XCTAssertTrue(strict.output.contains("✗ problems a warning"), strict.output)
    }

    /// Issue 10: tapping what a find did not match says what was looked for, and shows the tree.
    func testAFailedFindExplainsItselfWhenUsed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("find_\(UUID().uuidString)_spec.lua")
        try """
        local ui = require("lunette")
        it("taps what is not there", function()
          local app = ui.mount(ui.VStack { ui.Button("Return", function() end) })
          app:find("Check out"):tap()
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("no node matches 'Check out' in:"), result.output)
        XCTAssertTrue(result.output.contains("Button \"Return\""), result.output)
    }

    /// Issue 10: tags (#tag in names) select tests, --filter-out skips them, and a missing global at a
    /// file's top level fails the file with the message.
    func testTagsFilterOutAndATopLevelMistake() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tags_\(UUID().uuidString)_spec.lua")
        try """
        describe("tags", function()
          it("a #slow one", function() end)
          it("a #fast one", function() end)
          it("an untagged one", function() end)
        end)
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertTrue(try lunette(["test", "--tags", "slow", file.path]).output.contains("1 passed, 0 failed"))
        XCTAssertTrue(try lunette(["test", "--exclude-tags", "slow,fast", file.path]).output.contains("1 passed, 0 failed"))
        XCTAssertTrue(try lunette(["test", "--filter-out", "untagged", file.path]).output.contains("2 passed, 0 failed"))
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("top_\(UUID().uuidString)_spec.lua")
        try "describe('x', function() it('y', function() end) end)\nundefined_helper()\n".write(to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try lunette(["test", broken.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("attempt to call a nil value (global 'undefined_helper')"), result.output)
    }

    /// Issue 10: :deps and :state take an instance, :set writes state through the normal path.
    func testReplInspectsAndSetsAViewsState() throws {
        let result = try lunette(["repl", "Examples/Player/Player.lua"],
                                 input: ":state PlayerView\n:set PlayerView isPlaying true\n:state PlayerView#1\n:deps PlayerView#1\n:set PlayerView nope 1\n")
        XCTAssertTrue(result.output.contains("isPlaying = false"), result.output)
        XCTAssertTrue(result.output.contains("↻ PlayButton#1  (PlayerView.state#1.isPlaying)"), result.output)
        XCTAssertTrue(result.output.contains("isPlaying = true"), result.output)
        XCTAssertTrue(result.output.contains("PlayerView.state#1.isPlaying\n"), result.output)
        XCTAssertTrue(result.output.contains("cannot assign to 'nope': it is not declared"), result.output)
        XCTAssertEqual(result.status, 1)                 // the last line failed
    }

    /// Issue 10: on a terminal a progress line says which test runs, erased before each result.
    func testOnATerminalAProgressLineShowsTheRunningTest() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        var master: Int32 = 0, slave: Int32 = 0
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("no pseudo-terminal here") }
        defer { close(master) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["test", "Examples/Player"]
        process.currentDirectoryURL = root
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        var output = Data(), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
        }
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        XCTAssertTrue(text.contains("\r\u{1B}[K… Player"), text)
        XCTAssertTrue(text.contains("4 passed, 0 failed"), text)
    }

    /// F07: `lunette run` prints the first frame, then the one a task loaded.
    func testF07RunPrintsTheFirstFrameBeforeTasksRun() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("frames_\(UUID().uuidString).lua")
        try """
        local ui = require('lunette')
        local Loader = ui.View("Loader", { state = { status = "loading" }, body = function(self)
          return ui.Text(self.status):task(function() self.status = "loaded" end)
        end })
        return Loader {}
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 0, result.errors)
        let loading = result.output.range(of: "Text \"loading\""), loaded = result.output.range(of: "Text \"loaded\"")
        XCTAssertNotNil(loading, result.output)
        XCTAssertNotNil(loaded, result.output)
        if let loading, let loaded { XCTAssertLessThan(loading.lowerBound, loaded.lowerBound) }
    }

    /// Issue 7, class 10: sources are bytes — a NUL does not truncate a file, Latin-1 does not make it unreadable.
    func testSourcesWithNulAndLatin1BytesRunWhole() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bytes_\(UUID().uuidString).lua")
        var bytes = Data("local s = \"a\0b\"\nlocal l = \"caf".utf8)
        bytes.append(0xE9)                                   // é in Latin-1, not UTF-8
        bytes.append(Data("\"\nprint(#s, #l)\n".utf8))
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", file.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "3\t4\n")
    }

    /// R3 / issue 7, class 5: the command line caps Lua's memory, so a bomb fails in Lua, not in Swift.
    func testR3AMemoryBombFailsInLuaAtTheCap() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bomb_\(UUID().uuidString).lua")
        try "local t = {} for i = 1, 1e12 do t[i] = string.rep('x', 100000) .. i end".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", "--memory-limit", "64", file.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("not enough memory"), result.errors)
    }

    /// R3: a flush that runs out of memory loses no queued event. A view's
    /// onChange is queued, then the round's last body fills the cap to the
    /// brim (and returns a value made before, leaving the emergency collection
    /// nothing to free), so the flush fails as it takes its events. Once
    /// memory is freed, the next flush runs the onChange — it did not while
    /// the flush's "events wait" mark was cleared before the queue was taken
    /// (it then waited for some other event to be queued).
    func testR3AnEventQueuedWhenAFlushRanOutOfMemoryRunsAtTheNextFlush() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oom_events_\(UUID().uuidString).lua")
        try """
        local ui = require("lunette")
        local M = ui.Observable("OomModel", { x = 0, y = 0 })
        local m, log, slots, n = M(), {}, {}, 0
        for i = 1, 60000 do slots[i] = false end
        local chars = {}                                 -- made now: nothing in fill() may allocate outside pcall
        for c = 33, 126 do chars[#chars + 1] = string.char(c) end
        local rep = string.rep
        local function fill()                            -- live strings until not even a short one fits
          collectgarbage()
          local size = 1 << 22
          while size >= 41 do
            while true do
              local ok, s = pcall(rep, "x", size)
              if not ok then break end
              n = n + 1; slots[n] = s
            end
            size = size // 2
            if size < 2048 then collectgarbage() end
          end
          for len = 40, 1, -1 do
            for c = 1, #chars do
              local ok, s = pcall(rep, chars[c], len)
              if ok then n = n + 1; slots[n] = s end
            end
          end
        end
        local made, filled = ui.Text("f"), false
        local Filler = ui.View("OomFiller", function(self)
          if self.m.x == 1 and not filled then filled = true; fill() end
          return made
        end)
        local Watcher = ui.View("OomWatcher", function(self)
          return ui.VStack { ui.Text("a"), Filler { m = self.m } }
            :onChange(self.m.x, function() log[#log + 1] = "x" end)
        end)
        local Other = ui.View("OomOther", function(self)
          return ui.Text("b"):onChange(self.m.y, function() log[#log + 1] = "y" end)
        end)
        local app = ui.mount(ui.VStack { Watcher { m = m }, Other { m = m } })
        m.x = 1
        local ok, err = pcall(ui.flush)
        for i = 1, n do slots[i] = false end
        collectgarbage()
        ui.flush()
        print("failed: " .. tostring(not ok) .. " " .. tostring(err))
        print("log after the next flush: " .. table.concat(log, ","))
        app:unmount()
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["run", "--memory-limit", "16", file.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("failed: true"), "the flush did not run out of memory: \(result.output)")
        XCTAssertTrue(result.output.contains("log after the next flush: x\n"), result.output)
    }

    /// R5: `run --sandbox` gives a script exactly the embedding's libraries.
    func testRunSandboxReachesNothingOutsideTheAllowList() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox_\(UUID().uuidString).lua")
        try "print(io, os.execute, pcall(require, 'io'), require('debug').getinfo, type(require('lunette')))"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let sandboxed = try lunette(["run", "--sandbox", file.path])
        XCTAssertEqual(sandboxed.status, 0, sandboxed.errors)
        XCTAssertTrue(sandboxed.output.hasPrefix("nil\tnil\tfalse\t"), sandboxed.output)
        XCTAssertTrue(sandboxed.output.contains("nil\ttable\n"), sandboxed.output)
        let full = try lunette(["run", file.path])
        XCTAssertTrue(full.output.hasPrefix("table: "), full.output)
    }

    /// R17: a spec file that exits, crashes or blocks in C is reported failed; the run goes on.
    func testR17SpecFilesThatExitCrashOrBlockFailAndTheRunGoesOn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("r17_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let specs = [
            "a_exit_spec.lua": "it('fails first', function() assert.equal(1, 2) end)\nit('exits', function() os.exit(0) end)",
            "b_crash_spec.lua": """
                it('crashes', function()
                  local pid = io.open('/proc/self/stat'):read('*l'):match('^(%d+)')
                  os.execute('kill -SEGV ' .. pid)
                  while true do end
                end)
                """,
            "c_block_spec.lua": "it('blocks in C', function() os.execute('sleep 60') end)",
            "d_after_spec.lua": "it('still runs', function() print('printed by a spec') end)",
        ]
        for (name, text) in specs { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let started = Date()
        let result = try lunette(["test", directory.path, "--timeout", "0.5"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("✗ exits\n      the spec process exited with status 0"), result.output)
        XCTAssertTrue(result.output.contains("✗ crashes\n      the spec process crashed (signal 11)"), result.output)
        XCTAssertTrue(result.output.contains("✗ blocks in C\n      timed out after 0.5s and was killed"), result.output)
        XCTAssertTrue(result.output.contains("printed by a spec\n  ✓ still runs"), result.output)
        XCTAssertTrue(result.output.hasSuffix("1 passed, 4 failed\n"), result.output)
    }

    func testTapOutput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tap_\(UUID().uuidString)_spec.lua")
        try "it('passes', function() end)\npending('later')\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try lunette(["test", "--tap", file.path])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.hasPrefix("TAP version 13\nok 1 - \(file.path): passes\nok 2 - \(file.path): later # SKIP pending\n"),
                      result.output)
        XCTAssertTrue(result.output.hasSuffix("1..2\n"), result.output)
    }

    func testWatchRunsTheScriptAgainKeepingViewState() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watch_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("counter.lua")
        func write(_ version: String) throws {
            try """
            local ui = require("lunette")
            local Counter = ui.View("Counter", { state = { n = 0 }, body = function(self)
              return ui.Text("\(version) " .. self.n):task(function() self.n = self.n + 1 end)
            end })
            return Counter()
            """.write(to: script, atomically: true, encoding: .utf8)
        }
        try write("v1")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", "--watch", "--for", "30", script.path]
        let out = Pipe()
        process.standardOutput = out
        let transcript = Transcript(out)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        XCTAssertTrue(transcript.wait(for: "Text \"v1 1\""), transcript.output)
        Thread.sleep(forTimeInterval: 1.1)            // a later modification time
        try write("v2")
        XCTAssertTrue(transcript.wait(for: "Text \"v2 2\""), transcript.output)   // state kept, task started again (issue 20)
        let output = transcript.output
        XCTAssertTrue(output.contains("changed, running it again"), output)
    }
}
