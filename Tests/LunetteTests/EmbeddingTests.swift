import XCTest
import Lunette

/// The public embedding API, as a Swift host uses it.
final class EmbeddingTests: XCTestCase {
    func testAScriptReturningAViewIsMountedAndRendered() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.VStack { ui.Text("Hello"), ui.Button("Go", function() end) }
            """))
        XCTAssertEqual(runtime.text(of: app), "VStack\n  Text \"Hello\"\n  Button \"Go\"\n")
        XCTAssertEqual(app.nodes.first?.children.map(\.typeName), ["Text", "Button"])
        XCTAssertEqual(app.nodes.first?.children.first?.text, "Hello")
    }

    func testAHostTapsAButton() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Counter", { state = { n = 0 }, body = function(self)
              return ui.Button("n = " .. self.n, function() self.n = self.n + 1 end)
            end })()
            """))
        let button = try XCTUnwrap(app.nodes.first?.children.first)
        try runtime.tap(button)
        XCTAssertEqual(app.nodes.first?.children.first?.text, "n = 1")
        XCTAssertThrowsError(try runtime.tap(button))        // replaced by the re-render
    }

    /// A host (or the preview's graph) asks what a view depends on from its node, with no
    /// lookup by label (the preview's graph looked each view up over the trees: 4,000 views
    /// took 11 s); a node that shows no view, or a view that went, answers nil.
    func testWhatAViewDependsOnIsFoundFromItsNode() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            m = ui.Observable("DependsModel", { title = "t", shown = true })()
            local Shown = ui.View("DependsShown", function() return ui.Text(m.title) end)
            app = ui.mount(ui.View("DependsRoot", function() return ui.VStack { m.shown and Shown {} or ui.Text("none") } end) {})
            """)
        let root = try XCTUnwrap(runtime.apps.last?.nodes.first)
        let shown = try XCTUnwrap(root.children.first?.children.first)
        XCTAssertEqual(shown.viewLabel, "DependsShown#1")
        XCTAssertEqual(runtime.dependencies(of: shown), runtime.dependencies(of: "DependsShown#1"))
        XCTAssertEqual(runtime.dependencies(of: shown)?.count, 1)
        XCTAssertNil(runtime.dependencies(of: try XCTUnwrap(shown.children.first)))   // a Text
        _ = try runtime.evaluate("m.shown = false require('lunette').flush()")
        XCTAssertNil(runtime.dependencies(of: shown))                                    // gone
    }

    /// R8: an unmounted app and its units are freed (units hold their app, which held its root).
    func testR8AnUnmountedAppIsFreed() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("app = require('lunette').mount(require('lunette').VStack { require('lunette').Text('x') })")
        weak let app = runtime.apps.last
        weak let root = runtime.apps.last?.nodes.first
        XCTAssertNotNil(app)
        _ = try runtime.evaluate("app:unmount() app = nil collectgarbage()")
        XCTAssertNil(app)
        XCTAssertNil(root)
    }

    /// R8: units hold their parent and their nodes their owner (strong, with no
    /// weak reference to slow every retain); a view a re-render drops, an
    /// unmounted app and a released runtime free all of them.
    func testR8DroppedViewsAndReleasedRuntimesFreeTheirUnits() throws {
        var runtime: LunetteRuntime? = try LunetteRuntime()
        _ = try runtime!.evaluate("""
            local ui = require("lunette")
            local Row = ui.View("Row", function(self) return ui.HStack { ui.Text(self.name) } end)
            Shown = ui.Observable("Shown", { on = true })()
            app = ui.mount(ui.View("List", function(self)
              return ui.VStack { Shown.on and Row { name = "a" } or ui.Text("none"), Row { name = "b" } }
            end)())
            """)
        weak let dropped = runtime!.apps.last?.nodes.first?.children.first?.children.first?.children.first
        weak let kept = runtime!.apps.last?.nodes.first?.children.first?.children.last?.children.first
        XCTAssertEqual(dropped?.typeName, "HStack")          // the output of the Row that goes
        XCTAssertEqual(kept?.typeName, "HStack")             // the output of the Row that stays
        _ = try runtime!.evaluate("Shown.on = false require('lunette').flush() collectgarbage()")
        XCTAssertNil(dropped)
        XCTAssertNotNil(kept)
        runtime = nil
        XCTAssertNil(kept)
    }

    /// F06: a task that fails after its cancellation is reported by its view's name
    /// (its view is gone, and the view's unit id may already be another view's).
    func testF06ATaskFailingAfterItsCancellationIsReportedByItsViewsName() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Worker = ui.View("Worker", function()
              return ui.Text("w"):task(function() pcall(ui.sleep, 10); error("cleanup failed") end)
            end)
            local Host = ui.View("Host", { state = { show = true }, body = function(self)
              return ui.VStack { self.show and Worker {} or ui.View("Other", function() return ui.Text("o") end) {},
                                 ui.Button("hide", function() self.show = false end) }
            end })
            app = ui.mount(Host {})
            ui.clock.advance(0)
            app:find("hide"):tap()
            """)
        XCTAssertEqual(runtime.effectErrors.count, 1, "\(runtime.effectErrors)")
        XCTAssertTrue(runtime.effectErrors.first?.hasPrefix("Worker (a cancelled task): ") == true, "\(runtime.effectErrors)")
        XCTAssertTrue(runtime.effectErrors.first?.contains("cleanup failed") == true)
    }

    /// Issue 12 (11): a host hears which app changed, and which views rendered anew, after a flush.
    func testAHostHearsWhichTreeChanged() throws {
        let runtime = try LunetteRuntime()
        var heard: [[String]] = []
        runtime.onTreeChange { change in heard.append(change.views) }
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 0 })
            box = Box()
            local Shown = ui.View("Shown", function(self) return ui.Text("n " .. self.box.n) end)
            local Still = ui.View("Still", function() return ui.Text("still") end)
            return ui.VStack { Shown { box = box }, Still {} }
            """))
        runtime.flush()
        heard = []
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(heard, [["Shown#1"]])
        runtime.flush()
        XCTAssertEqual(heard.count, 1)                    // nothing new: not called
        let toggled = try XCTUnwrap(app.nodes.first)
        XCTAssertEqual(toggled.typeName, "VStack")
        runtime.onTreeChange(nil)
        _ = try runtime.evaluate("box.n = 2")
        runtime.flush()
        XCTAssertEqual(heard.count, 1)
    }

    func testSyntaxErrorsNameTheFileAndLine() throws {
        let runtime = try LunetteRuntime()
        XCTAssertThrowsError(try runtime.run(source: "local x = = 1", name: "@broken.lua")) { error in
            guard case LunetteError.syntax(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("broken.lua:1:"), message)
        }
    }

    /// A host author's report: `run(source:)` said nothing of a script
    /// returning a number (only `run(file:)` refused it), and an error thrown
    /// to the host carried the script's whole message (a megabyte) where
    /// the README promises at most 16 KiB of any (R19).
    func testR10R19RunSourceRefusesANonViewAndErrorsReachTheHostCut() throws {
        let runtime = try LunetteRuntime()
        XCTAssertThrowsError(try runtime.run(source: "return 42", name: "@user.lua")) { error in
            XCTAssertTrue("\(error)".contains("user.lua: the script returned a number, not a view"), "\(error)")
        }
        XCTAssertNil(try runtime.run(source: "local x = 1", name: "=(setup)"), "a script returning nothing is fine")
        for source in ["error(string.rep('x', 1 << 20))", "error(string.rep('y', 1 << 20), 0)"] {
            XCTAssertThrowsError(try runtime.evaluate(source)) { error in
                let text = "\(error)"
                XCTAssertLessThan(text.utf8.count, 17 * 1024, "cut at 16 KiB")
                XCTAssertTrue(text.contains("more bytes)"), "the cut is said")
            }
        }
        XCTAssertThrowsError(try runtime.run(source: "error(string.rep('z', 1 << 20))")) { error in
            XCTAssertLessThan("\(error)".utf8.count, 17 * 1024)
        }
    }

    func testScriptErrorsAreThrownNotCrashed() throws {
        let runtime = try LunetteRuntime()
        for i in 0..<10_000 {
            XCTAssertThrowsError(try runtime.run(source: "error('boom \(i)')", name: "@e.lua"))
        }
        XCTAssertEqual(try runtime.evaluate("return 1 + 1"), ["2"])
    }

    func testTheSandboxHidesDangerousLibraries() throws {
        let runtime = try LunetteRuntime()
        XCTAssertEqual(try runtime.evaluate("return io, os.execute, os.getenv, dofile, loadfile, debug.getinfo, string.dump"),
                       ["nil", "nil", "nil", "nil", "nil", "nil", "nil"])
        XCTAssertEqual(try runtime.evaluate("return type(os.clock), type(debug.traceback), type(require)"),
                       ["function", "function", "function"])
        XCTAssertThrowsError(try runtime.evaluate("return load(string.char(27) .. 'Lua')()"))
        let open = try LunetteRuntime(options: .init(sandboxed: false))
        XCTAssertEqual(try open.evaluate("return type(io)"), ["table"])
    }

    func testWarningsAndErrorsAreReadable() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Broken", function() error("no") end)()
            """, name: "@app.lua"))
        XCTAssertEqual(app.errors, ["Broken: app.lua:2: no"])
    }
}

/// TARGETS R3: memory bombs fail at the cap and the runtime stays usable.
final class MemoryLimitTests: XCTestCase {
    func testMemoryBombsFailAtTheCapAndTheRuntimeStaysUsable() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 16 << 20))
        XCTAssertThrowsError(try runtime.run(source: "local s = string.rep('x', 64 * 1024 * 1024)", name: "@bomb.lua")) { error in
            XCTAssertTrue("\(error)".contains("not enough memory"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.run(source: "local t = {} for i = 1, 1e9 do t[i] = { i } end", name: "@grow.lua")) { error in
            XCTAssertTrue("\(error)".contains("not enough memory"), "\(error)")
        }
        try runtime.run(source: "collectgarbage()")
        XCTAssertEqual(try runtime.evaluate("return 40 + 2"), ["42"])
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.VStack {
              ui.View("Bomb", function() return ui.Text(string.rep("x", 1 << 26)) end)(),
              ui.Text("still here"),
            }
            """))
        XCTAssertTrue(runtime.text(of: app).contains("still here"))
        XCTAssertEqual(app.errors.count, 1)
        XCTAssertTrue(app.errors[0].contains("not enough memory"), app.errors[0])
        XCTAssertLessThan(runtime.memoryInUse, 16 << 20)
    }
}

/// TARGETS R2: an endless body — even one looping inside pcall — is stopped at its budget.
final class TimeBudgetTests: XCTestCase {
    func testEndlessBodiesAreStoppedAndTheRestRenders() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.2))
        let started = Date()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            local Spin = ui.View("Spin", function() while true do end end)
            local Sneaky = ui.View("Sneaky", function()
              while true do pcall(function() while true do end end) end
            end)
            return ui.VStack { Spin(), Sneaky(), ui.Text("alive") }
            """, name: "@loop.lua"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertTrue(runtime.text(of: app).contains("Text \"alive\""))
        XCTAssertEqual(app.errors.count, 2)
        XCTAssertTrue(app.errors[0].hasPrefix("Spin: loop.lua:2: ran longer than its time budget (0.2s)"), app.errors[0])
        XCTAssertTrue(app.errors[1].contains("ran longer than its time budget"), app.errors[1])
        XCTAssertEqual(try runtime.evaluate("return 1 + 1"), ["2"])     // the runtime is fine afterwards
    }

    /// The watchdog looks every 20 ms while short runs start and end; none is ever taken for a
    /// long one (a run starting between the watchdog's clock read and its look once was).
    func testShortRunsAreNeverStopped() throws {
        // The chunk itself is a run too (R15): its 1 s of CPU stays well within the
        // budget even on a loaded machine or under a sanitizer; the flushes inside are short.
        let runtime = try LunetteRuntime(options: .init(timeBudget: 20))
        let stopped = try runtime.evaluate("""
            local ui = require("lunette")
            local Store = ui.Observable("Store", { n = 0 })
            local store = Store()
            local V = ui.View("V", function(self) return ui.Text("n " .. self.store.n) end)
            local app = ui.mount(V { store = store })
            local stopped, start = 0, os.clock()
            while os.clock() - start < 1 do             -- about 50 looks of the watchdog
              store.n = store.n + 1
              ui.flush()
              if not app:find("n " .. store.n) then stopped = stopped + 1 end
            end
            return stopped
            """)
        XCTAssertEqual(stopped, ["0"])
    }

    /// T11: a host drives the controls as `node:select`, `setValue` and
    /// `increment` do, with the same checks.
    func testT11AHostSelectsSlidesAndStepsControls() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Order", { state = { flavor = "vanilla", volume = 0.5, count = 1 }, body = function(self)
              return ui.VStack {
                ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
                ui.Slider(self["$volume"], { 0, 1 }),
                ui.Stepper("Count", self["$count"], { 1, 3 }),
                ui.Text(self.flavor .. " " .. self.volume .. " " .. self.count),
              }
            end })()
            """))
        func node(_ type: String) throws -> RenderNode {
            try XCTUnwrap(app.nodes.first?.children.first?.children.first { $0.typeName == type })
        }
        try runtime.select(try node("Picker"), .string("chocolate"))
        try runtime.setValue(try node("Slider"), 0.25)
        try runtime.step(try node("Stepper"), by: 1)
        try runtime.step(try node("Stepper"), by: 1)
        try runtime.step(try node("Stepper"), by: 1)              // kept within 1...3
        XCTAssertTrue(runtime.text(of: app).contains("Text \"chocolate 0.25 3\""), runtime.text(of: app))
        XCTAssertThrowsError(try runtime.select(try node("Picker"), .string("mint"))) { error in
            XCTAssertTrue("\(error)".contains("not one of the Picker's options"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.setValue(try node("Slider"), 7))
        XCTAssertThrowsError(try runtime.step(try node("Text"), by: 1))
    }
}
