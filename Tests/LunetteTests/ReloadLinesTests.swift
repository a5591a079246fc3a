import CLunette
import Foundation
import XCTest
@testable import Lunette

/// A reload keeps the state of a view whose line an edit moved: a view's
/// identity holds its file and line (F01: views built at different places
/// are different views), and a reload compares each file's old and new
/// texts line by line (README, "What a reload keeps").
final class ReloadLinesTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reload_lines_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private var views: String {
        """
        local ui = require("lunette")
        local M = {}
        M.Counter = ui.View("LinesCounter", { inputs = { name = "" }, state = { count = 0 }, body = function(self)
          return ui.Button(self.name .. " " .. self.count, function() self.count = self.count + 1 end)
        end })
        function M.editor() return M.Counter { name = "editor" } end
        function M.viewer() return M.Counter { name = "viewer" } end
        return M
        """
    }

    private func main(inlineLine: String = "M.Counter { name = \"inline\" },") -> String {
        """
        local ui = require("lunette")
        package.path = "\(directory.path)/?.lua;" .. package.path
        local M = require("lines_views")
        flag = flag or false
        return ui.View("LinesPage", function()
          local branch
          if flag then
            branch = M.viewer()
          else
            branch = M.editor()
          end
          return ui.VStack {
            \(inlineLine)
            branch,
          }
        end)()
        """
    }

    /// Before (session 20), a comment added at the top of either file made every view below it
    /// another view: its state started again at 0.
    func testF01AViewWhoseLineMovedKeepsItsStateAcrossFiles() throws {
        try write("lines_views.lua", views)
        try write("lines_main.lua", main())
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        _ = try runtime.evaluate("app:find('inline 0'):tap(); app:find('editor 0'):tap(); app:find('editor 1'):tap()")

        try write("lines_views.lua", "-- a comment\n\n" + views)
        try write("lines_main.lua", "-- moved\n" + main())
        var app = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("inline 1"), runtime.text(of: app))
        XCTAssertTrue(runtime.text(of: app).contains("editor 2"), runtime.text(of: app))

        // The inline view's own line edited: another view, afresh; the editor's moved again, kept.
        try write("lines_main.lua", "-- moved\n\n" + main(inlineLine: "M.Counter { name = \"inline\" },   -- edited"))
        app = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("inline 0"), runtime.text(of: app))
        XCTAssertTrue(runtime.text(of: app).contains("editor 2"), runtime.text(of: app))

        // The branches stay two views: the other helper's starts afresh, not with the editor's count.
        _ = try runtime.evaluate("flag = true")
        app = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("viewer 0"), runtime.text(of: app))
    }

    /// A reload that fails keeps the last good frame; the next one compares with the text the
    /// failed one saw, so a view that stayed on screen still finds its line.
    func testAViewKeepsItsLineAcrossAFailedReload() throws {
        try write("lines_views.lua", views)
        try write("lines_main.lua", main())
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        _ = try runtime.evaluate("app:find('inline 0'):tap()")
        try write("lines_main.lua", "-- one\n" + main() + "\nerror('broken')")
        XCTAssertThrowsError(try runtime.reload(file: file))
        try write("lines_main.lua", "-- one\n-- two\n" + main())
        let app = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("inline 1"), runtime.text(of: app))
    }

    /// A chunk name is the script's to choose (`load(text, "@path")`): only files the runtime
    /// loaded itself are numbered and kept (a hostile read: a sandboxed script named the same
    /// large file twenty ways and the host read and kept them all, 6 GB past a 64 MB cap).
    func testOnlyFilesTheRuntimeLoadedAreKept() throws {
        let big = directory.appendingPathComponent("big.lua")
        try Data(repeating: UInt8(ascii: "-"), count: 4096).write(to: big)
        try write("lines_main.lua", """
            local ui = require("lunette")
            local named = load("local ui = ...; return ui.View('Named', function() return ui.Text('n') end) {}", "@\(big.path)")
            return ui.View("Namer", function() return ui.VStack { named(ui) } end)()
            """)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        _ = try XCTUnwrap(runtime.run(file: file))
        XCTAssertEqual(lun_site_files(runtime.L), 1, "the script's own file only")
        var length = 0
        XCTAssertNil(lun_site_file_text(runtime.L, 2, &length))
        _ = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertEqual(lun_site_files(runtime.L), 1)
    }

    /// A module whose first view is built after the script ran (by a tap) keeps the text it was
    /// loaded with: an edit saved before the reload is compared with it (a hostile read: its text
    /// was first read at the reload, already edited, and the other branch took the state).
    func testAModuleFirstUsedLaterIsComparedWithTheTextItWasLoadedWith() throws {
        try write("lines_views.lua", views)
        try write("lines_main.lua", """
            local ui = require("lunette")
            package.path = "\(directory.path)/?.lua;" .. package.path
            local M = require("lines_views")
            flag = flag or false
            return ui.View("LinesLater", { state = { shown = false }, body = function(self)
              if not self.shown then return ui.Button("show", function() self.shown = true end) end
              return ui.VStack { flag and M.viewer() or M.editor() }
            end })()
            """)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        _ = try runtime.evaluate("app:find('show'):tap(); app:find('editor 0'):tap()")
        try write("lines_views.lua", "-- a line above\n" + views)
        let app = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("editor 1"), runtime.text(of: app))
    }

    /// A reload whose script fails before it mounts moves nothing: the views left on screen keep
    /// their state as they render again (a hostile read: the keys had moved, and the old views,
    /// still building at their old lines, mixed the branches' states).
    func testAReloadThatFailsBeforeItMountsMovesNothing() throws {
        let page = """
            local ui = require("lunette")
            local C = ui.View("FailCounter", { inputs = { name = "" }, state = { n = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.n, function() self.n = self.n + 1 end)
            end })
            m = m or ui.Observable("FailFlag", { other = false })()
            return ui.View("FailPage", function()
              local branch
              if m.other then
                branch = C { name = "y" }
              else
                branch = C { name = "x" }
              end
              return ui.VStack { branch }
            end)()
            """
        try write("lines_main.lua", page)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        _ = try runtime.evaluate("app:find('x 0'):tap()")
        try write("lines_main.lua", page.replacingOccurrences(of: "local ui", with: "-- one\n-- two\nlocal ui") + "\n)")
        XCTAssertThrowsError(try runtime.reload(file: file))            // a syntax error: nothing ran
        _ = try runtime.evaluate("m.other = true; require(\"lunette\").flush()")          // the old page renders again
        let text = runtime.text(of: try XCTUnwrap(runtime.apps.first))
        XCTAssertTrue(text.contains("y 0"), text)
    }

    /// A reload that fails after its first mount moves only the apps the new code mounted; one
    /// left on screen, still built by the old code, starts afresh rather than be read against the
    /// new text (a hostile read: every app had moved, and the one left could mix states).
    func testAReloadMovesEachAppAsTheNewCodeRendersIt() throws {
        let script = """
            local ui = require("lunette")
            local C = ui.View("AppsCounter", { inputs = { name = "" }, state = { n = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.n, function() self.n = self.n + 1 end)
            end })
            m = m or ui.Observable("AppsFlag", { tick = 0 })()
            local Page = ui.View("AppsPage", { inputs = { name = "" }, body = function(self)
              local _ = m.tick
              return ui.VStack { C { name = self.name } }
            end })
            if FLUSH then ui.flush() end
            a = ui.mount(Page { name = "a" })
            if BREAK then error("broken between mounts") end
            b = ui.mount(Page { name = "b" })
            """
        try write("lines_main.lua", script)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        _ = try runtime.run(file: file)
        _ = try runtime.evaluate("a:find('a 0'):tap(); b:find('b 0'):tap(); b:find('b 1'):tap()")
        try write("lines_main.lua", "-- moved\n" + script)
        _ = try runtime.evaluate("BREAK = true")
        XCTAssertThrowsError(try runtime.reload(file: file))
        _ = try runtime.evaluate("m.tick = 1; require('lunette').flush()")    // both render again
        var text = runtime.apps.map { runtime.text(of: $0) }.joined()
        // a took the new lines; b, left by the failure and built by the old code at the file's
        // old text, starts afresh rather than be read against the new one (it never mixes)
        XCTAssertTrue(text.contains("a 1") && text.contains("b 0"), text)
        try write("lines_main.lua", "-- moved\n-- again\n" + script)
        _ = try runtime.evaluate("BREAK = false; FLUSH = true")
        _ = try runtime.reload(file: file)
        text = runtime.apps.map { runtime.text(of: $0) }.joined()
        XCTAssertTrue(text.contains("a 1"), text)                            // moved twice, kept
    }

    /// What a reload's new code builds is compared with its new text, whether or not the reload
    /// mounted anything; what a failed reload left on screen starts afresh at the next (hostile
    /// reads: an app mounted after a reload that mounted nothing was moved from the old lines,
    /// and one branch took the other's state).
    func testAReloadTakesItsTextsWhatItMounts() throws {
        let script = """
            local ui = require("lunette")
            C = ui.View("TakeCounter", { inputs = { name = "" }, state = { n = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.n, function() self.n = self.n + 1 end)
            end })
            which = which or "b"
            Page = ui.View("TakePage", function()
              local v
              if which == "b" then v = C { name = "b" }
              else v = C { name = "a" } end
              return ui.VStack { v }
            end)
            if not NOMOUNT then return Page() end
            """
        try write("lines_main.lua", script)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        _ = try runtime.run(file: file)
        _ = try runtime.evaluate("NOMOUNT = true")
        try write("lines_main.lua", "-- a line above\n" + script)
        _ = try runtime.reload(file: file)                                   // mounts nothing
        _ = try runtime.evaluate("""
            NOMOUNT = false
            local ui = require("lunette")
            p = ui.mount(Page())
            p:find("b 0"):tap(); p:find("b 1"):tap()
            which = "a"
            """)
        _ = try runtime.reload(file: file)
        let text = runtime.apps.map { runtime.text(of: $0) }.joined()
        XCTAssertFalse(text.contains("a 2"), text)                            // not b's state
    }

    /// Lines are moved only by a text the code was loaded from: a module saved while a reload
    /// runs (between the reload's reading it and `require` loading it) starts its views afresh,
    /// and no view takes another's state at the next reload (a hostile read: "a" took "b"'s).
    func testAModuleSavedDuringAReloadMixesNoState() throws {
        let views = """
            local ui = require("lunette")
            local M = {}
            M.C = ui.View("RaceCounter", { inputs = { name = "" }, state = { n = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.n, function() self.n = self.n + 1 end) end })
            M.Page = ui.View("RacePage", function()
              local v
              if which == "a" then v = M.C { name = "a" }
              else v = M.C { name = "b" } end
              return ui.VStack { v }
            end)
            return M
            """
        try write("race_views.lua", views)
        try write("race_views.edited", "-- one\n-- two\n" + views)
        try write("lines_main.lua", """
            package.path = "\(directory.path)/?.lua;" .. package.path
            which = which or "b"
            if EDIT then                       -- an editor saving the module while the reload runs
              local f = io.open("\(directory.path)/race_views.lua", "w"); f:write(EDIT); f:close(); EDIT = nil
            end
            return require("race_views").Page()
            """)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        _ = try runtime.run(file: file)
        _ = try runtime.evaluate("EDIT = io.open('\(directory.path)/race_views.edited'):read('a')")
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.reload(file: file)))
        _ = try runtime.evaluate("app:find('b 0'):tap(); app:find('b 1'):tap()")
        _ = try runtime.evaluate("which = 'a'")
        _ = try runtime.reload(file: file)
        let text = runtime.apps.map { runtime.text(of: $0) }.joined()
        XCTAssertTrue(text.contains("a 0"), text)
    }

    /// A view value built before a reload (kept in a global, a model, a navigation path) holds
    /// its file's old text generation, so its old line never meets another view's moved key: it
    /// starts afresh and takes no state (a hostile read: "a" took "b"'s).
    func testAViewValueBuiltBeforeAReloadTakesNoOtherViewsState() throws {
        let script = """
            local ui = require("lunette")
            C = ui.View("KeptValueCounter", { inputs = { name = "" }, state = { n = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.n, function() self.n = self.n + 1 end)
            end })
            m = m or ui.Observable("KeptValueFlag", { kept = false })()
            kept = kept or C { name = "a" }
            local function other() return C { name = "b" } end
            return ui.View("KeptValuePage", function()
              if m.kept then return ui.VStack { kept } end
              return ui.VStack { other() }
            end)()
            """
        try write("lines_main.lua", script)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        // b's line (7) moves to line 6, where the kept value of a was built
        try write("lines_main.lua", script.replacingOccurrences(of: "kept = kept or C { name = \"a\" }\n", with: ""))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.reload(file: file)))
        _ = try runtime.evaluate("app:find('b 0'):tap(); app:find('b 1'):tap(); m.kept = true; require('lunette').flush()")
        let text = runtime.apps.map { runtime.text(of: $0) }.joined()
        XCTAssertTrue(text.contains("a 0"), text)
    }

    /// A module whose lines a reload could not know (required in a body, edited meanwhile) is
    /// known again once loaded: a later reload with no edit keeps its views (a hostile read: they
    /// started afresh at every reload from then on).
    func testAModuleRequiredInABodyIsKnownAgainOnceLoaded() throws {
        try write("lines_views.lua", views)
        try write("lines_main.lua", """
            local ui = require("lunette")
            package.path = "\(directory.path)/?.lua;" .. package.path
            return ui.View("LinesInBody", function() return ui.VStack { require("lines_views").editor() } end)()
            """)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        try write("lines_views.lua", "-- a line above\n" + views)
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.reload(file: file)))
        _ = try runtime.evaluate("app:find('editor 0'):tap(); app:find('editor 1'):tap()")
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.reload(file: file)))
        let text = runtime.apps.map { runtime.text(of: $0) }.joined()
        XCTAssertTrue(text.contains("editor 2"), text)
    }

    /// Views on lines far apart in one file stay apart: a site holds the whole line (a first
    /// version kept 20 bits of it, and lines 2^20 apart were one view).
    func testF01ViewsOnLinesFarApartStayApart() throws {
        let padding = String(repeating: "\n", count: 1 << 20)
        try write("lines_main.lua", """
            local ui = require("lunette")
            local C = ui.View("FarCounter", { state = { n = 0 }, body = function(self)
              return ui.Button("n " .. self.n, function() self.n = self.n + 1 end)
            end })
            m = ui.Observable("FarFlag", { far = false })()
            local function near() return C {} end
            """ + padding + """
            local function away() return C {} end
            return ui.View("FarPage", function() return ui.VStack { m.far and away() or near() } end)()
            """)
        let file = directory.appendingPathComponent("lines_main.lua").path
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        try runtime.setGlobal("app", to: try XCTUnwrap(runtime.run(file: file)))
        _ = try runtime.evaluate("app:find('n 0'):tap(); m.far = true; require(\"lunette\").flush()")
        let text = runtime.text(of: try XCTUnwrap(runtime.apps.first))
        XCTAssertTrue(text.contains("n 0"), text)
    }

    /// The line map: what both texts begin and end with maps at once; in between, kept lines
    /// map to their new places and edited or removed ones to 0; a part that differs past the
    /// limit maps nothing (its views start afresh, as before).
    func testTheLineMapFollowsKeptLines() {
        func lines(_ text: String) -> [ArraySlice<UInt8>] { ReloadLines.lines(Array(text.utf8)) }
        XCTAssertEqual(ReloadLines.lineMap(from: lines("a\nb\nc\nd\ne"), to: lines("a\nx\nc\ny\nd\ne")), [0, 1, 0, 3, 5, 6])
        XCTAssertEqual(ReloadLines.lineMap(from: lines("a\r\nb"), to: lines("z\r\na\r\nb")), [0, 2, 3])
        XCTAssertEqual(lines("a\rb\n\rc\r\n\nd").count, 5, "\\r, \\n\\r, \\r\\n and \\n each end a line, as Lua counts")
        // Past the limit only what both begin and end with is matched (a hostile read: a large
        // edit lost the state of every view of the file, those above it too).
        let big = (0 ..< ReloadLines.mostLines).map { "line \($0)" }.joined(separator: "\n")
        let map = ReloadLines.lineMap(from: lines("top\n" + big + "\nend"),
                                      to: lines("top\n" + big.replacingOccurrences(of: "line", with: "row") + "\nend"))
        XCTAssertEqual(map[1], 1)
        XCTAssertEqual(map[2], 0)
        XCTAssertEqual(map[ReloadLines.mostLines + 2], Int32(ReloadLines.mostLines + 2))
    }

    /// A script file is loaded as lua5.4 loads one: a byte order mark and a first "#" line are
    /// skipped, that line to its "\n" (a hostile read: the line stopped at a "\r", so what lua5.4
    /// takes as the comment ran, and errors named the wrong lines).
    func testAScriptFilesFirstLineIsSkippedAsLuaSkipsIt() throws {
        XCTAssertEqual(ReloadLines.loadable(Data("#!x\rprint(1)\nreturn 2".utf8)), Data("\nreturn 2".utf8))
        XCTAssertEqual(ReloadLines.loadable(Data([0xEF, 0xBB, 0xBF] + Array("#!lua\nreturn 1".utf8))), Data("\nreturn 1".utf8))
        XCTAssertEqual(ReloadLines.loadable(Data("return 3".utf8)), Data("return 3".utf8))
    }
}
