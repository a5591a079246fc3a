import XCTest
@testable import Lunette

/// T06 and the flush rule: a flush costs what changed, not what is mounted —
/// the preference pass walks the trees only after a view that has (or had)
/// preference values or handlers ran.
final class PreferenceCostTests: XCTestCase {
    func testT06AFlushThatChangedNoPreferenceDoesNotWalkTheTrees() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("costTitle", "")
            local Row = ui.View("CostRow", { state = { n = 0 }, body = function(self)
              return ui.Button("row " .. self.n, function() self.n = self.n + 1 end)
            end })
            local Titled = ui.View("CostTitled", { state = { title = "a" }, body = function(self)
              return ui.Button("title " .. self.title, function() self.title = self.title .. "a" end)
                :preference("costTitle", self.title)
            end })
            local rows = {}
            for i = 1, 200 do rows[i] = Row {} end
            seen = {}
            app = ui.mount(ui.VStack { Titled {}, ui.VStack(rows) }
              :onPreferenceChange("costTitle", function(v) seen[#seen + 1] = v end))
            """)
        let walksAfterMount = runtime.preferences.walks
        XCTAssertEqual(try runtime.evaluate("return table.concat(seen, ',')"), ["a"])
        _ = try runtime.evaluate("app:findAll{ type = 'Button' }[2]:tap()")     // a row without preferences
        XCTAssertEqual(runtime.preferences.walks, walksAfterMount)
        _ = try runtime.evaluate("app:find('title a'):tap()")                  // the view with the value
        XCTAssertEqual(runtime.preferences.walks, walksAfterMount + 1)
        XCTAssertEqual(try runtime.evaluate("return table.concat(seen, ',')"), ["a,aa"])
    }

    /// What a handler last heard goes with its view: a view that comes back is a new view, told
    /// its value as the first one was (session 20: what handlers heard was kept for the life of
    /// the runtime, by the unit's id and the node's path, and a new view given a gone one's id
    /// was taken for it and told nothing), and views that come and go leave Lua's heap where it was.
    func testT06WhatAGoneHandlerHeardGoesWithItsView() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("comeAndGo", "")
            m = ui.Observable("ComeAndGo", { shown = true, title = "t" })()
            heard = 0
            local Titled = ui.View("ComeAndGoTitled", function()
              return ui.Text("x"):preference("comeAndGo", m.title)
                :onPreferenceChange("comeAndGo", function() heard = heard + 1 end)
            end)
            app = ui.mount(ui.View("ComeAndGoRoot", function() return m.shown and Titled {} or ui.Text("none") end) {})
            function cycle(n)
              for _ = 1, n do m.shown = false; ui.flush(); m.shown = true; ui.flush() end
              collectgarbage(); collectgarbage()
              return collectgarbage("count")
            end
            """)
        XCTAssertEqual(try runtime.evaluate("return heard"), ["1"])
        let warm = try XCTUnwrap(Double(try runtime.evaluate("return cycle(300)")[0]))
        let after = try XCTUnwrap(Double(try runtime.evaluate("return cycle(3000)")[0]))
        XCTAssertEqual(try runtime.evaluate("return heard"), ["3301"])
        XCTAssertLessThan(after - warm, 64, "KiB of Lua's heap after 3,000 handlers came and went")
    }

    /// The list C reads holds each value once: N handlers on one node above M values are N + M
    /// items (a hostile read: each handler listed its subtree's values again, N × M, so 6,000 of
    /// each took 2 GB outside the memory limit and 24 s outside the time budget).
    func testT06TheListGrowsWithHandlersPlusValues() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("costMany", 0, function(a, b) return a + b end)
            totals = {}
            local rows = {}
            for i = 1, 300 do rows[i] = ui.Text("r"):preference("costMany", 1) end
            local node = ui.VStack(rows)
            for i = 1, 200 do node = node:onPreferenceChange("costMany", function(v) totals[i] = v end) end
            app = ui.mount(node)
            """)
        XCTAssertEqual(runtime.preferences.lastListed, 500)
        XCTAssertEqual(try runtime.evaluate("return #totals, totals[1], totals[200]"), ["200", "300", "300"])
    }

    /// A pass is bounded by the time budget, counted across handlers (a hostile read: it was
    /// counted per handler, so 500,000 handlers of few values each ran 24 s past a 0.5 s budget),
    /// is said once, and the next pass begins after the handler it stopped in, so a handler too
    /// heavy for the budget holds up no other (it did, at every flush).
    func testT06APassPastTheTimeBudgetIsSaidAndHoldsUpNoOtherHandler() throws {
        let runtime = try LunetteRuntime()
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            ui.PreferenceKey("costHeavy", 0, function(a, v) for _ = 1, 100000 do a = a + 0 end return a + v end)
            ui.PreferenceKey("costLight", "")
            m = ui.Observable("CostStarve", { tick = 0 })()
            heard = {}
            local items = {}
            for i = 1, 1000 do items[i] = ui.Text("t"):preference("costHeavy", 1) end
            app = ui.mount(ui.View("CostStarve", function()
              return ui.VStack({
                ui.VStack(m.tick > 0 and items or {}):onPreferenceChange("costHeavy", function() end),
                ui.Text("l"):preference("costLight", "v" .. m.tick)
                  :onPreferenceChange("costLight", function(x) heard[#heard + 1] = x end),
              })
            end) {})
            """)
        // The heavy handler comes first in tree order and outlasts the budget each pass: the first
        // pass stops in it, and the next begins with the light one.
        // Flushed by the host, so the pass's budget is the only one running (inside a script's
        // line, the line's own budget would run out beside it).
        _ = try runtime.evaluate("ui.configure { timeBudget = 0.05 }; m.tick = 1")
        runtime.flush()
        _ = try runtime.evaluate("m.tick = 2")
        runtime.flush()
        XCTAssertEqual(try runtime.evaluate("return table.concat(heard, ',')"), ["v0,v2"])
        let errors = runtime.takeProblems().errors
        XCTAssertTrue(errors.contains { $0.hasPrefix("CostStarve: preferences: reducing the views' values ran longer than the time budget") },
                      "\(errors)")
    }

    /// The walk that lists the values visits the views on the way to a preference, not every
    /// mounted one (the flush rule; session 21: it visited and built the nodes of every mounted
    /// view each time a view holding a preference ran).
    func testT06ThePassVisitsTheViewsOnTheWayToAPreferenceNotEveryMountedOne() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("wayTitle", "")
            local Row = ui.View("WayRow", function(self) return ui.HStack { ui.Text("row"), ui.Text(self.label) } end)
            local Titled = ui.View("WayTitled", { state = { title = "a" }, body = function(self)
              return ui.Button("title " .. self.title, function() self.title = self.title .. "a" end)
                :preference("wayTitle", self.title)
            end })
            local rows = {}
            for i = 1, 2000 do rows[i] = Row { label = tostring(i) } end
            seen = {}
            app = ui.mount(ui.VStack { ui.VStack { Titled {} }, ui.VStack(rows) }
              :onPreferenceChange("wayTitle", function(v) seen[#seen + 1] = v end))
            """)
        _ = try runtime.evaluate("app:find('title a'):tap()")
        XCTAssertEqual(try runtime.evaluate("return table.concat(seen, ',')"), ["a,aa"])
        XCTAssertLessThan(runtime.preferences.lastVisited, 20, "nodes the pass visited, of 2,000 mounted rows")
    }

    /// What the walk skips follows each view's preferences as they come and go: a view that gains
    /// a value deep below, loses it, goes with its subtree and comes back is heard each time.
    func testT06AViewThatGainsOrLosesAPreferenceDeepBelowIsHeard() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("deepTitle", "none")
            m = ui.Observable("DeepModel", { says = false, shown = true, title = "t" })()
            local Leaf = ui.View("DeepLeaf", function()
              local t = ui.Text("leaf")
              if m.says then t = t:preference("deepTitle", m.title) end
              return t
            end)
            local Middle = ui.View("DeepMiddle", function() return ui.VStack { ui.Text("m"), Leaf {} } end)
            local Outer = ui.View("DeepOuter", function()
              return ui.VStack { ui.Text("o"), m.shown and Middle {} or ui.Text("gone") }
            end)
            heard = {}
            app = ui.mount(ui.VStack { Outer {}, ui.Text("beside") }
              :onPreferenceChange("deepTitle", function(v) heard[#heard + 1] = v end))
            function step(f) f(); ui.flush(); return table.concat(heard, ",") end
            """)
        XCTAssertEqual(try runtime.evaluate("return table.concat(heard, ',')"), ["none"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.says = true end)"), ["none,t"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.title = 'u' end)"), ["none,t,u"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.says = false end)"), ["none,t,u,none"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.says = true end)"), ["none,t,u,none,u"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.shown = false end)"), ["none,t,u,none,u,none"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.shown = true end)"), ["none,t,u,none,u,none,u"])
        XCTAssertEqual(try runtime.evaluate("return step(function() m.title = 'v' end)"), ["none,t,u,none,u,none,u,v"])
    }

    /// R8: the layout the pass keeps of a view's output holds its child views; a dropped view,
    /// an unmounted app and a released runtime still free them (units hold their parent).
    func testR8APreferenceLayoutHoldsNoViewPastItsEnd() throws {
        var runtime: LunetteRuntime? = try LunetteRuntime()
        _ = try runtime!.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("heldTitle", "")
            local Leaf = ui.View("HeldLeaf", function(self)
              return ui.HStack { ui.Text(self.t) }:preference("heldTitle", self.t)
            end)
            Shown = ui.Observable("HeldShown", { on = true })()
            heard = ""
            function tree()
              return ui.View("HeldRoot", function()
                return ui.VStack { Shown.on and Leaf { t = "a" } or ui.Text("none"), Leaf { t = "b" } }
                  :onPreferenceChange("heldTitle", function(v) heard = v end)
              end)()
            end
            app = ui.mount(tree())
            other = ui.mount(tree())
            """)
        XCTAssertEqual(try runtime!.evaluate("return heard"), ["b"])
        weak let dropped = runtime!.apps.first?.nodes.first?.children.first?.children.first?.children.first
        weak let unmounted = runtime!.apps.first?.nodes.first?.children.first?.children.last?.children.first
        weak let kept = runtime!.apps.last?.nodes.first?.children.first?.children.last?.children.first
        weak let keptView = kept?.owner                       // the unit: the layout holds units, not nodes
        weak let unmountedView = unmounted?.owner
        XCTAssertEqual(dropped?.typeName, "HStack")
        XCTAssertEqual(kept?.typeName, "HStack")
        _ = try runtime!.evaluate("Shown.on = false require('lunette').flush() collectgarbage()")
        XCTAssertNil(dropped)
        XCTAssertEqual(unmounted?.typeName, "HStack")
        _ = try runtime!.evaluate("app:unmount() app = nil collectgarbage()")
        XCTAssertNil(unmounted)
        XCTAssertNil(unmountedView)
        XCTAssertNotNil(kept)
        runtime = nil
        XCTAssertNil(kept)
        XCTAssertNil(keptView)
    }

    /// A unit's parent hears only when its subtree begins or stops holding a preference: 300 rows
    /// that gain a value deep down are counted once at each level above their list (a hostile
    /// read: each row told all its ancestors, so flipping 3,000 rows under 900 levels took 3 to 4
    /// times as long as before the pass skipped subtrees, with no handler mounted).
    func testT06ViewsGainingAPreferenceAreCountedOnceAboveTheirList() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            ui.PreferenceKey("countedK", 0, function(a, b) return a + b end)
            m = ui.Observable("Counted", { on = false })()
            local Row = ui.View("CountedRow", function()
              local t = ui.Text("r")
              if m.on then t = t:preference("countedK", 1) end
              return t
            end)
            local ids = {}
            for i = 1, 300 do ids[i] = i end
            local level = ui.View("CountedLeaf", function() return ui.VStack { ui.ForEach(ids, function(i) return Row { i = i } end) } end)
            for d = 1, 30 do local inner = level; level = ui.View("CountedLevel" .. d, function() return inner {} end) end
            total = 0
            app = ui.mount(ui.VStack { level {} }:onPreferenceChange("countedK", function(v) total = v end))
            """)
        let root = try XCTUnwrap(runtime.apps.last?.root)
        XCTAssertEqual(root.childrenWithPreferences, 0)
        _ = try runtime.evaluate("m.on = true require('lunette').flush()")
        XCTAssertEqual(try runtime.evaluate("return total"), ["300"])
        XCTAssertEqual(root.childrenWithPreferences, 1)
        XCTAssertTrue(root.hasPreferences)                     // its own handler
        _ = try runtime.evaluate("m.on = false require('lunette').flush()")
        XCTAssertEqual(try runtime.evaluate("return total"), ["0"])
        XCTAssertEqual(root.childrenWithPreferences, 0)
    }
}
