import Foundation
import Lunette
import XCTest

/// Issue 20, item 4: a reload keeps the state of views whose identities
/// match, makes the script's models anew, and starts the views' tasks again
/// (so an app that loads in a task loads from its new models).
final class ReloadTests: XCTestCase {
    /// A view whose task loads into a model the script makes (at the top of the file).
    static let script = """
        local ui = require("lunette")
        local Store = ui.Observable("Store", { items = ui.none, loads = 0 })
        function Store:load()
          ui.sleep(0.1)
          self.items = { "milk", "eggs" }
          self.loads = self.loads + 1
        end
        store = Store()
        local Content = ui.View("Content", {
          state = { opened = 0 },
          body = function(self)
            local label = store.items == nil and "Loading…" or (#store.items .. " items")
            return ui.VStack {
              ui.Text(label),
              ui.Button("Open " .. self.opened, function() self.opened = self.opened + 1 end),
            }:task(function() store:load() end)
          end,
        })
        return Content()
        """

    /// `lunette repl FILE` with `input` piped in: what it printed, and its exit status.
    private func pipedRepl(file: String, input: String) throws -> (output: String, status: Int32) {
        try LunetteTests.pipedRepl([file], input: input)
    }

    private func scriptFile() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reload_\(UUID().uuidString).lua")
        try Self.script.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A host author's report: a host running two users' scripts in one
    /// runtime reloaded one, and the other's app (and its views' state) went.
    /// A reload replaces the apps its own script mounted, no other.
    func testAReloadReplacesItsOwnScriptsAppsAndNoOthers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reload_two_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func script(_ text: String) -> String {
            """
            local ui = require("lunette")
            return ui.View("Panel", { state = { taps = 0 }, body = function(self)
              return ui.Button("\(text) " .. self.taps, function() self.taps = self.taps + 1 end)
            end })()
            """
        }
        let a = dir.appendingPathComponent("a.lua").path, b = dir.appendingPathComponent("b.lua").path
        try script("A").write(toFile: a, atomically: true, encoding: .utf8)
        try script("B").write(toFile: b, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime()
        let appA = try XCTUnwrap(runtime.run(file: a)), appB = try XCTUnwrap(runtime.run(file: b))
        try runtime.setGlobal("appB", to: appB)
        _ = try runtime.evaluate("appB:find('B 0'):tap()")
        let mounted = try XCTUnwrap(runtime.run(source: "return require('lunette').Text('typed')", name: "=(line)"))

        try script("A2").write(toFile: a, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: a))
        XCTAssertTrue(reloaded === appA, "its own app, reused")
        XCTAssertEqual(runtime.apps.map(\.idNumber), [appA, appB, mounted].map(\.idNumber))
        XCTAssertTrue(runtime.text(of: appA).contains("A2 0"), runtime.text(of: appA))
        XCTAssertTrue(runtime.text(of: appB).contains("B 1"), "the other script's app keeps its state: \(runtime.text(of: appB))")

        // the same file named another way (a host's watcher reports absolute
        // paths, "..") is the same script (a hostile read: two apps, two timers)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        _ = try runtime.reload(file: dir.appendingPathComponent("sub/../a.lua").path)
        XCTAssertEqual(runtime.apps.map(\.idNumber), [appA, appB, mounted].map(\.idNumber))
        // a link re-pointed at another file (an atomic deploy) is still the script run through it
        let link = dir.appendingPathComponent("current.lua").path, v2 = dir.appendingPathComponent("v2.lua").path
        try script("V1").write(toFile: dir.appendingPathComponent("v1.lua").path, atomically: true, encoding: .utf8)
        try script("V2").write(toFile: v2, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.appendingPathComponent("v1.lua").path)
        let linked = try XCTUnwrap(runtime.run(file: link))
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: v2)
        XCTAssertTrue(try runtime.reload(file: link) === linked)
        XCTAssertEqual(runtime.apps.count, 4, "one app for the link's script: \(runtime.apps.map(\.idNumber))")
        runtime.unmount(linked)
        let c = dir.appendingPathComponent("c.lua").path      // reloading a script never run: a first run
        try script("C").write(toFile: c, atomically: true, encoding: .utf8)
        let appC = try XCTUnwrap(runtime.reload(file: c))
        XCTAssertEqual(runtime.apps.map(\.idNumber), [appA, appB, mounted, appC].map(\.idNumber))
    }

    /// A host author's report: a timer a script starts at its top level
    /// lived on through each reload (five reloads: six timers firing) and
    /// through its apps' unmount, and nothing but dropping the runtime ended
    /// it. A reload ends what the script's last run started (once the new
    /// run succeeded); `unload(file:)` ends the script; a view's own timer
    /// (its onAppear's) is the view's and stays.
    func testAReloadEndsTheTimersAndEffectsTheScriptsLastRunStarted() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reload_timer_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let source = """
            local ui = require("lunette")
            fired = fired or 0
            effects = effects or 0
            viewFired = viewFired or 0
            local Count = ui.Observable("Count", { n = 0 })
            local count = Count()
            ui.Timer.publish(0.1):sink(function() fired = fired + 1 end)
            ui.effect(function() local _ = shared.n; effects = effects + 1 end)
            return ui.View("Clock", { state = { sub = ui.none }, body = function(self)
              return ui.Text("clock " .. count.n):onAppear(function()
                self.sub = ui.Timer.publish(0.1):sink(function() viewFired = viewFired + 1 end)
              end):onDisappear(function() self.sub:cancel() end)
            end })()
            """
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        _ = try runtime.evaluate("shared = require('lunette').Observable('Shared', { n = 0 })()")
        _ = try runtime.run(file: file)
        for _ in 1...5 { _ = try runtime.reload(file: file) }
        _ = try runtime.evaluate("fired, effects, viewFired = 0, 0, 0; shared.n = 1; require('lunette').flush()")
        runtime.advanceClock(by: 1.05)
        XCTAssertEqual(try runtime.evaluate("return fired, effects, viewFired"), ["10", "1", "10"],
                       "one script timer, one effect, the view's own timer")

        try "error('broken')".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try runtime.reload(file: file))
        _ = try runtime.evaluate("fired = 0")
        runtime.advanceClock(by: 1.05)
        XCTAssertEqual(try runtime.evaluate("return fired"), ["10"], "a failed reload leaves the last good run's timer")

        runtime.unload(file: file)
        XCTAssertTrue(runtime.apps.isEmpty)
        XCTAssertFalse(runtime.hasPendingWork, "its timers end with it")
        _ = try runtime.evaluate("fired, viewFired = 0, 0")
        runtime.advanceClock(by: 1)
        XCTAssertEqual(try runtime.evaluate("return fired, viewFired"), ["0", "0"])
    }

    /// Session 23 left it noted: a timer started inside a top-level
    /// `ui.effect`'s run was made while a flush ran, so it was no one's: a
    /// reload ended the effect and the timer kept firing (one more each
    /// reload), and `unload(file:)` left it. What an effect of a script's
    /// run starts — in its first run or in a later one, long after the
    /// script's run ended — is that run's work.
    func testWhatAScriptsEffectStartsIsTheScriptsWork() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("effect_timer_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let source = """
            local ui = require("lunette")
            first, later = first or 0, later or 0
            ui.effect(function() ui.Timer.publish(0.1):sink(function() first = first + 1 end) end)
            local started = false
            ui.effect(function()
              if shared.n > 0 and not started then
                started = true
                ui.Timer.publish(0.1):sink(function() later = later + 1 end)
              end
            end)
            return ui.Text("ticking")
            """
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        _ = try runtime.evaluate("shared = require('lunette').Observable('Shared', { n = 0 })()")
        for round in 1...3 {
            if round == 1 { _ = try runtime.run(file: file) } else { _ = try runtime.reload(file: file) }
            _ = try runtime.evaluate("shared.n = \(round); require('lunette').flush()")
        }
        _ = try runtime.evaluate("first, later = 0, 0")
        runtime.advanceClock(by: 1.05)
        XCTAssertEqual(try runtime.evaluate("return first, later"), ["10", "10"],
                       "one timer each: the earlier runs' ended with their reloads")
        runtime.unload(file: file)
        XCTAssertFalse(runtime.hasPendingWork, "its effects' timers end with the script")
        _ = try runtime.evaluate("first, later = 0, 0")
        runtime.advanceClock(by: 1)
        XCTAssertEqual(try runtime.evaluate("return first, later"), ["0", "0"])
    }

    /// A hostile read: a script's work list kept every handle its runs made
    /// until a reload (300k timers started and cancelled: 27 MB held; a host
    /// calling run(source:) in a loop grew without end). Ended ones go as
    /// the list grows.
    func testAScriptsWorkListHoldsAboutWhatStillRuns() throws {
        let runtime = try LunetteRuntime()
        let churn = """
            local ui = require("lunette")
            local f = function() end
            for _ = 1, 20000 do ui.Timer.publish(1):sink(f):cancel(); ui.effect(f):cancel() end
            """
        _ = try runtime.run(source: churn, name: "=(churn)")
        _ = try runtime.evaluate("collectgarbage(); collectgarbage()")
        let before = runtime.memoryInUse
        for _ in 1...3 { _ = try runtime.run(source: churn, name: "=(churn)") }
        _ = try runtime.evaluate("collectgarbage(); collectgarbage()")
        XCTAssertLessThan(runtime.memoryInUse - before, 64 * 1024, "40,000 handles more a run were kept")
        _ = try runtime.run(source: "local ui = require('lunette'); ticking = ui.Timer.publish(1):sink(function() end)",
                            name: "=(churn)")
        runtime.unload(script: "=(churn)")
        XCTAssertFalse(runtime.hasPendingWork, "what still ran was kept, and ended with the script")
    }

    /// An author's report: a screen pushed by `NavigationLink(label,
    /// Detail { … })` keeps the old code's view value in its stack's path;
    /// after a save it showed the old body until pushed again. A reload's
    /// definition of a view supersedes the old run's at the same place, and
    /// the old value renders with the new body (starting afresh, README).
    func testAPushedViewValueRendersTheReloadedBody() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushed_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        func source(_ about: String) -> String {
            """
            local ui = require("lunette")
            local Detail = ui.View("PushedDetail", function(self) return ui.Text("\(about) " .. self.title) end)
            return ui.NavigationStack { ui.NavigationLink("Dune", Detail { title = "Dune" }) }
            """
        }
        try source("about").write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(runtime.run(file: file))
        try runtime.setGlobal("app", to: app)
        _ = try runtime.evaluate("app:find('Dune'):tapLink()")
        XCTAssertTrue(runtime.text(of: app).contains("Text \"about Dune\""), runtime.text(of: app))
        try source("ABOUT").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try runtime.reload(file: file)
        XCTAssertTrue(runtime.text(of: app).contains("Text \"ABOUT Dune\""), runtime.text(of: app))
    }

    func testReloadStartsTasksAgainAndKeepsState() throws {
        let file = try scriptFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: file))
        runtime.flush()
        runtime.advanceClock(by: 0.2)
        XCTAssertTrue(runtime.text(of: app).contains("2 items"), runtime.text(of: app))
        try runtime.setGlobal("app", to: app)
        _ = try runtime.evaluate("app:find('Open 0'):tap()", name: "=t")

        let reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("Open 1"), "state kept by identity: \(runtime.text(of: reloaded))")
        XCTAssertTrue(runtime.text(of: reloaded).contains("Loading…"), "the new store has not loaded yet")
        runtime.advanceClock(by: 0.2)
        XCTAssertTrue(runtime.text(of: reloaded).contains("2 items"),
                      "the task started again and loaded the new store: \(runtime.text(of: reloaded))")
        XCTAssertEqual(try runtime.evaluate("return store.loads", name: "=t"), ["1"])
        XCTAssertEqual(runtime.apps.count, 1)
    }

    /// The REPL's `:reload` is that reload (piped: what fell due runs after each line).
    func testReplReloadLoadsAgain() throws {
        let file = try scriptFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (output, _) = try pipedRepl(file: file, input: """
            os.execute("sleep 0.3")
            :tree
            :reload
            os.execute("sleep 0.3")
            :tree
            store.loads

            """)
        let trees = output.components(separatedBy: "> :tree\n").dropFirst().map { $0.components(separatedBy: "> ")[0] }
        XCTAssertEqual(trees.count, 2, output)
        XCTAssertTrue(trees.allSatisfy { $0.contains("Text \"2 items\"") }, output)
        XCTAssertTrue(output.contains("> store.loads\n1\n"), output)
    }

    /// The REPL says each error node as it appears — after a line, a `:set`
    /// or a `:reload` — and a piped session with one exits 1; a first load
    /// that failed leaves `app` to the reload that works. Before, a body
    /// that raised showed only in `:tree`, the session exited 0, and `app`
    /// stayed nil (hostile read).
    func testReplSaysTheErrorsOfBodiesAndAReloadGivesApp() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("repl_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "local ui = require(\"lunette\"\n".write(toFile: file, atomically: true, encoding: .utf8)   // a syntax error
        let good = """
            local ui = require("lunette")
            return ui.View("Counter", { state = { label = "hits" }, body = function(self)
              return ui.Text(self.label .. "!")
            end })()
            """
        let quoted = good.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\"", with: "\\\"")
        let (output, status) = try pipedRepl(file: file, input: """
            local f = io.open("\(file)", "w"); f:write("\(quoted)"); f:close()
            :reload
            app:find("hits!") ~= nil
            :set Counter label {}
            :set Counter label "again"
            Ev = ui.View("Ev", function() return ui.Text("x"):onAppear(function() error("boom") end) end)
            a = ui.mount(Ev())
            a:unmount()
            b = ui.mount(Ev())

            """)
        XCTAssertTrue(output.contains("> app:find(\"hits!\") ~= nil\ntrue\n"), output)
        XCTAssertEqual(output.components(separatedBy: "error: Counter: ").count - 1, 1, output)
        XCTAssertTrue(output.contains("attempt to concatenate"), output)
        // An event's error, for each app (a new app took the unmounted one's place), said once (not also as a warning).
        XCTAssertEqual(output.components(separatedBy: "error: Ev: stdin:1: boom").count - 1, 2, output)
        XCTAssertFalse(output.contains("warning: Ev"), output)
        XCTAssertEqual(status, 1, output)
    }

    /// Issue 19 (D10): two different views of one name in one script are an
    /// error, but a reload that defines the view anew — at another line, the
    /// file edited — is not.
    func testD10AReloadMayRedefineAViewAtAnotherLine() throws {
        let file = try scriptFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        _ = try XCTUnwrap(runtime.run(file: file))
        try ("-- edited: the view moves down two lines\n\n" + Self.script).write(toFile: file, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("Open 0"), runtime.text(of: reloaded))

        let twice = Self.script.replacingOccurrences(of: "return Content()",
                                                     with: "ui.View(\"Content\", function() return ui.Text(\"other\") end)\nreturn Content()")
        try twice.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try runtime.reload(file: file)) { error in
            XCTAssertTrue("\(error)".contains("a view named 'Content' is defined already at"), "\(error)")
        }
    }

    /// What a reload keeps when an edit moved lines. A view's identity holds
    /// the file's line it was written at (the branches of an `if`; two
    /// helpers that build a view on their first lines stay two views); the
    /// view a script mounts is built once, and keeps its state however its
    /// line moves (a view built in a body moves with its line:
    /// ReloadLinesTests). Before, a comment added at the top of the file lost the
    /// state of every view (a hostile read); a first try counted lines from
    /// each function's first, which made the two helpers' views one (a
    /// second read), and one before it matched any line while reloading,
    /// which gave one branch the other's state.
    func testAReloadAfterLinesMovedKeepsTheMountedViewsStateAndIdentitiesStayApart() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lines_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let before = """
            local ui = require("lunette")
            local Counter = ui.View("Counter", { inputs = { name = "" }, state = { count = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.count, function() self.count = self.count + 1 end)
            end })
            local function editor() return Counter { name = "editor" } end
            local function viewer() return Counter { name = "viewer" } end
            flag = flag or false
            return ui.View("Page", { state = { taps = 0 }, body = function(self)
              local branch
              if flag then
                branch = viewer()
              else
                branch = editor()
              end
              return ui.VStack {
                ui.Button("page " .. self.taps, function() self.taps = self.taps + 1 end),
                branch,
              }
            end })()
            """
        try before.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: file))
        try runtime.setGlobal("app", to: app)
        _ = try runtime.evaluate("app:find('page 0'):tap(); app:find('editor 0'):tap()", name: "=t")

        _ = try runtime.evaluate("flag = true", name: "=t")           // the other helper's view: another view
        var reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("viewer 0"), runtime.text(of: reloaded))
        XCTAssertTrue(runtime.text(of: reloaded).contains("page 1"), runtime.text(of: reloaded))

        try ("-- a comment\n\n" + before).write(toFile: file, atomically: true, encoding: .utf8)
        reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("page 1"), "the mounted view: \(runtime.text(of: reloaded))")
    }

    /// A reload that gives a kept view new sections: its self reads by the
    /// new ones (self keeps its view's sections, lun_self_retype), so a name
    /// that became state reads the state, not a missing input.
    func testAReloadThatAddsStateIsReadThroughSelf() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retype_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let before = """
            local ui = require("lunette")
            local Card = ui.View("Card", { state = { opened = 0 }, body = function(self)
              return ui.Text("opened " .. self.opened .. " " .. tostring(self.label))
            end })
            return ui.View("Deck", function() return ui.VStack { Card() } end)()
            """
        try before.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("opened 0 nil"), runtime.text(of: app))
        try before.replacingOccurrences(of: "state = { opened = 0 }", with: "state = { opened = 0, label = \"new\" }")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("opened 0 new"), runtime.text(of: reloaded))
    }

    /// A view with no state needs nothing made before its first run (its
    /// self is ready from the start, P6); a reload that gives it state makes
    /// the state before the next run, as for a view that had other state.
    func testAReloadThatGivesAStatelessViewStateMakesIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retype_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let before = """
            local ui = require("lunette")
            local Card = ui.View("Card", { body = function(self)
              return ui.Text("opened " .. tostring(self.opened))
            end })
            return ui.View("Deck", function() return ui.VStack { Card() } end)()
            """
        try before.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: file))
        XCTAssertTrue(runtime.text(of: app).contains("opened nil"), runtime.text(of: app))
        try before.replacingOccurrences(of: "{ body =", with: "{ state = { opened = 3 }, body =")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("opened 3"), runtime.text(of: reloaded))
    }

    /// A reload that gives a kept view a `stateObject` it did not declare
    /// makes the object before the next run (it read nil, and the view
    /// showed "attempt to index a nil value"), with or without state.
    func testAReloadThatAddsAStateObjectMakesIt() throws {
        for sections in ["", "state = { k = 1 }, "] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("retype_\(UUID().uuidString).lua").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let before = """
                local ui = require("lunette")
                local Model = ui.ObservableObject("Model", { n = ui.Published(7) })
                local Card = ui.View("Card", { \(sections)body = function(self)
                  return ui.Text("model " .. (self.model and self.model.n or "none"))
                end })
                return ui.View("Deck", function() return ui.VStack { Card() } end)()
                """
            try before.write(toFile: file, atomically: true, encoding: .utf8)
            let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
            let app = try XCTUnwrap(runtime.run(file: file))
            XCTAssertTrue(runtime.text(of: app).contains("model none"), runtime.text(of: app))
            try before.replacingOccurrences(of: "{ \(sections)body =",
                                            with: "{ \(sections)stateObject = { model = function() return Model() end }, body =")
                .write(toFile: file, atomically: true, encoding: .utf8)
            let reloaded = try XCTUnwrap(runtime.reload(file: file))
            XCTAssertTrue(runtime.text(of: reloaded).contains("model 7"), runtime.text(of: reloaded))
        }
    }

    /// D01 after a reload: the views a reload keeps and the ones it adds are
    /// one scene (the root's new record finds the app's scene token again),
    /// so focusing an added view's field takes focus from a kept one's. Two
    /// fields of one app both showed focused.
    func testD01AReloadKeepsTheAppOneScene() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scene_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let source = """
            local ui = require("lunette")
            local V = ui.View("RLV", { focusState = { e = false }, body = function(self)
              return ui.VStack { ui.Text("e " .. tostring(self.e)), ui.TextField("a", ui.Binding.constant("")):focused(self["$e"]) }
            end })
            local W = ui.View("RLW", { focusState = { g = false }, body = function(self)
              return ui.VStack { ui.Text("g " .. tostring(self.g)), ui.TextField("w", ui.Binding.constant("")):focused(self["$g"]) }
            end })
            APP = ui.mount(ui.VStack { V {}, ADDED and W {} or nil })
            """
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        _ = try runtime.run(file: file)
        _ = try runtime.evaluate("APP:find('a'):focus()")
        _ = try runtime.evaluate("ADDED = true")
        _ = try runtime.reload(file: file)
        XCTAssertEqual(runtime.apps.count, 1, "the app is kept")
        _ = try runtime.evaluate("APP:find('w'):focus()")
        let tree = try runtime.evaluate("return APP:tree()")[0]
        XCTAssertTrue(tree.contains("g true"), tree)
        XCTAssertTrue(tree.contains("e false"), tree)
        XCTAssertEqual(tree.components(separatedBy: "focused=true").count, 2, tree)
    }

    /// The save–typo–fix loop through a module, as a preview's author meets
    /// it: a module saved with a syntax error refuses the reload with its
    /// file:line and changes nothing; one that fails as it runs leaves the
    /// last good frame; either way the reload that fixes it (its lines moved
    /// meanwhile) keeps the views' state.
    func testAModuleSavedWithASyntaxErrorChangesNothingAndItsFixKeepsState() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("typo_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let main = dir.appendingPathComponent("main.lua").path, module = dir.appendingPathComponent("counter.lua").path
        try """
            package.path = "\(dir.path)/?.lua;" .. package.path
            local ui = require("lunette")
            local Counter = require("counter")
            return ui.VStack { Counter { name = "a" } }
            """.write(toFile: main, atomically: true, encoding: .utf8)
        let good = """
            local ui = require("lunette")
            return ui.View("TypoCounter", { inputs = { name = "" }, state = { count = 0 }, body = function(self)
              return ui.Button(self.name .. " " .. self.count, function() self.count = self.count + 1 end)
            end })
            """
        try good.write(toFile: module, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: main))
        try runtime.setGlobal("app", to: app)
        _ = try runtime.evaluate("app:find('a 0'):tap()", name: "=t")

        try good.replacingOccurrences(of: "self.count + 1 end)", with: "self.count + 1 end").write(toFile: module, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try runtime.reload(file: main)) { error in
            XCTAssertTrue("\(error)".contains("counter.lua:4:"), "the module's file:line: \(error)")
        }
        XCTAssertTrue(runtime.text(of: app).contains("a 1"), runtime.text(of: app))

        try ("-- fixed\n" + good).write(toFile: module, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: main))
        XCTAssertTrue(runtime.text(of: reloaded).contains("a 1"), "the state kept: \(runtime.text(of: reloaded))")
        XCTAssertEqual(runtime.apps.count, 1)

        // A typo met when the module runs (not its syntax): the reload fails as its code runs.
        try good.replacingOccurrences(of: "ui.View(", with: "ui.Veiw(").write(toFile: module, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try runtime.reload(file: main))
        XCTAssertTrue(runtime.text(of: reloaded).contains("a 1"), runtime.text(of: reloaded))
        try ("-- fixed again\n-- and moved\n" + good).write(toFile: module, atomically: true, encoding: .utf8)
        let fixed = try XCTUnwrap(runtime.reload(file: main))
        XCTAssertTrue(runtime.text(of: fixed).contains("a 1"), "the state kept: \(runtime.text(of: fixed))")
    }

    /// A pushed screen made from a model on the path by a destination shows
    /// the reload's new code: the stack heard the new destination functions
    /// (for the same types) and kept the screen the old one made until its
    /// path changed (a fresh user's report, in the preview and --watch).
    func testAPushedScreenOfAModelShowsTheNewCodeAfterAReload() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushed_\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let source = """
            local ui = require("lunette")
            local Book = ui.Observable("PushedBook", { title = "" })
            local books = { Book { title = "Dune" }, Book { title = "Emma" } }
            local Detail = ui.View("PushedDetail", { body = function(self) return ui.Text("v1 " .. self.book.title) end })
            return ui.View("PushedRoot", { state = { path = {} }, body = function(self)
              return ui.NavigationStack(self["$path"], { ui.List(books, function(b) return ui.NavigationLink(b.title, b) end)
                :navigationDestination(Book, function(b) return Detail { book = b } end) })
            end })()
            """
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(runtime.run(file: file))
        try runtime.setGlobal("app", to: app)
        _ = try runtime.evaluate("app:find('Emma'):tap()", name: "=t")
        XCTAssertTrue(runtime.text(of: app).contains("v1 Emma"), runtime.text(of: app))
        try source.replacingOccurrences(of: "\"v1 \"", with: "\"v2 \"").write(toFile: file, atomically: true, encoding: .utf8)
        let reloaded = try XCTUnwrap(runtime.reload(file: file))
        XCTAssertTrue(runtime.text(of: reloaded).contains("v2 Emma"), runtime.text(of: reloaded))
    }
}
