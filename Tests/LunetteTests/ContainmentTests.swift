import CLunette
import Foundation
import XCTest
@testable import Lunette

/// Failures contained: script code the runtime calls on its own — an effect, a publisher's
/// cancel, a PreferenceKey's reduce, an `__eq` of a compared value — and calls refused at their
/// setup (the C stack or memory at their limits) fail the one unit they were for, are said, and
/// leave nothing stuck, running twice or left behind (README, "Safety": each case a hostile
/// read found, in issue 17's note).
final class ContainmentTests: XCTestCase {
    /// A view that goes cancels what it had: a script's publisher may make the subscription's
    /// cancel, which runs as a run of its own — what it raises is reported, and the rest goes on
    /// (a hostile read: the error unwound the whole flush, the host dropped it, and the view's
    /// task ticked on for ever, keeping `lunette run` alive).
    func testASubscriptionsCancelThatRaisesLetsTheRestOfAGoneViewGo() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { show = true })()
            ticks = 0
            local sub = setmetatable({}, { __index = { cancel = function() error("cancel raised", 0) end } })
            local pub = { sink = function() return sub end }
            local Child = ui.View("Child", function()
              return ui.Text("child"):onReceive(pub, function() end)
                :task(function() while true do ui.sleep(1); ticks = ticks + 1 end end)
            end)
            app = ui.mount(ui.View("Root", function() return ui.VStack({ m.show and Child {} or nil }) end) {})
            ui.clock.advance(2)
            m.show = false
            ui.flush()
            ticks = 0
            ui.clock.advance(3)
            """)
        XCTAssertEqual(try runtime.evaluate("return ticks"), ["0"])
        XCTAssertEqual(runtime.takeProblems().errors.filter { $0.contains("cancel raised") }.count, 1,
                       "\(runtime.effectErrors)")
    }

    /// What a gone view's code raises as it goes — its onDisappear, its subscription's cancel —
    /// names the view, as what it raised while mounted does (session 20: the host no longer knew
    /// the view by then, and the message named nothing).
    func testWhatAGoneViewsCodeRaisesNamesTheView() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { show = true })()
            local sub = setmetatable({}, { __index = { cancel = function() error("cancel raised", 0) end } })
            local pub = { sink = function() return sub end }
            local Leaving = ui.View("Leaving", function()
              return ui.Text("leaving"):onReceive(pub, function() end)
                :onDisappear(function() error("disappear raised", 0) end)
            end)
            app = ui.mount(ui.View("Stays", function() return ui.VStack({ m.show and Leaving {} or nil }) end) {})
            m.show = false
            ui.flush()
            """)
        var errors = runtime.takeProblems().errors
        XCTAssertEqual(errors.filter { $0 == "Leaving: cancel raised" }.count, 1, "\(errors)")
        XCTAssertEqual(errors.filter { $0 == "Leaving: disappear raised" }.count, 1, "\(errors)")

        // A row and a mounted root are named as the host names them (a hostile read: only a
        // component's record held a name).
        _ = try runtime.evaluate("""
            rows = ui.Observable("Rows", { items = { "a" } })()
            lister = ui.mount(ui.View("Lister", function()
              return ui.List(rows.items, function(x) return ui.Text(x):onDisappear(function() error("row went", 0) end) end)
            end) {})
            rows.items = {}
            ui.flush()
            root = ui.mount(ui.Text("r"):onDisappear(function() error("root went", 0) end))
            root:unmount()
            ui.flush()
            """)
        errors = runtime.takeProblems().errors
        XCTAssertEqual(errors.filter { $0 == "Lister row: row went" }.count, 1, "\(errors)")
        XCTAssertEqual(errors.filter { $0 == "root: root went" }.count, 1, "\(errors)")
    }

    /// A publisher's cancel runs while views go: it may not flush, mount, unmount or reset (a
    /// hostile read: a flush in it released the going view's ids early, and a view mounted then
    /// took one, so the going view's onDisappear error named the new, live view).
    func testAPublishersCancelMayNotFlushOrMount() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            local sub = setmetatable({}, { __index = { cancel = function()
              ui.mount(ui.View("Live", function() return ui.Text("live") end) {})
            end } })
            local Leaving = ui.View("Leaving", function()
              return ui.Text("leaving"):onReceive({ sink = function() return sub end }, function() end)
                :onDisappear(function() error("disappear raised", 0) end)
            end)
            app = ui.mount(ui.View("Stays", function() return Leaving {} end) {})
            app:unmount()
            ui.flush()
            """)
        let errors = runtime.takeProblems().errors
        XCTAssertTrue(errors.contains { $0.hasPrefix("Leaving: ") && $0.hasSuffix("ui.mount cannot be called from a publisher's cancel") },
                      "\(errors)")
        XCTAssertEqual(errors.filter { $0 == "Leaving: disappear raised" }.count, 1, "\(errors)")
        XCTAssertEqual(runtime.apps.count, 0)
    }

    /// `ui.effect` and `ui.mount` run what they make at once, in a flush; when that flush raises
    /// (its call refused at the C stack's limit, a stop), nothing is left behind that the caller
    /// has no handle to (a hostile read: the effect ran, and the app rendered, ever after).
    func testAnEffectOrAnAppWhoseFirstFlushRaisesIsNotLeftBehind() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            box = ui.Observable("Box", { n = 0 })()
            handed, ran, refused = {}, {}, 0
            local function nest(depth, id, make)
              if depth == 0 then
                if pcall(make, id) then handed[id] = true else refused = refused + 1 end
                return
              end
              return pcall(nest, depth - 1, id, make)
            end
            for depth = 150, 210 do
              nest(depth, "effect " .. depth, function(id)
                return ui.effect(function() local _ = box.n; ran[id] = true end)
              end)
              nest(depth, "app " .. depth, function(id)
                return ui.mount(ui.View("Counted" .. depth, function() local _ = box.n; ran[id] = true; return ui.Text("v") end) {})
              end)
            end
            ran = {}
            box.n = 1
            ui.flush()
            orphans = {}
            for id in pairs(ran) do if not handed[id] then orphans[#orphans + 1] = id end end
            table.sort(orphans)
            """)
        XCTAssertEqual(try runtime.evaluate("return table.concat(orphans, ', ')"), [""])
        XCTAssertGreaterThan(Int(try runtime.evaluate("return refused").first ?? "") ?? 0, 0)   // some depths refused
    }

    /// Whatever depth a flush runs at, a view that goes takes its task with it: its record's
    /// release is C's and cannot be refused, only a script's cancel can (a hostile read: the
    /// release was made a protected call, and where the C stack refused that call the view's
    /// task ticked on for ever, a second one beside it once the view came back).
    func testAGoneViewsTaskStopsAtEveryDepth() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        _ = try runtime.evaluate("""
            ui = require("lunette")
            leaks = {}
            for depth = 180, 205 do
              local m = ui.Observable("Depth" .. depth, { v = 0 })()
              local ticks = 0
              local Child = ui.View("Ticking" .. depth, function()
                return ui.Text("child"):task(function() while true do ui.sleep(1); ticks = ticks + 1 end end)
              end)
              local app = ui.mount(ui.View("Holder" .. depth, function()
                return ui.VStack({ ui.Text("v=" .. m.v), Child {} })
              end) {})
              ui.clock.advance(1)
              local function at(d)
                if d == 0 then m.v = m.v + 1; return pcall(ui.flush) end
                return pcall(at, d - 1)
              end
              at(depth)                                -- near the limit the holder's update is refused: the child goes
              m.v = 100
              ui.flush()                               -- it comes back, its task anew
              ticks = 0
              ui.clock.advance(3)
              if ticks ~= 3 then leaks[#leaks + 1] = depth .. ": " .. ticks end
              app:unmount()
            end
            """)
        XCTAssertEqual(try runtime.evaluate("return table.concat(leaks, ', ')"), [""])
    }

    /// A gone view hears nothing more from a publisher, whatever its subscription's cancel does;
    /// a task cancelled while it awaits a publisher whose cancel sends sees its cancellation, and
    /// the cancel runs once; a PreferenceKey's reduce that raises is its handler's view's error,
    /// and the flush goes on (a hostile read: the gone view's action ran on every send; the cancel
    /// ran twice and the task took a step; the rest of the flush was skipped).
    func testWhatAScriptsCancelOrReduceDoesStaysWithIt() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { show = true, v = 0 })()
            heard, cancels, steps, cancelled = 0, 0, 0, 0
            local sinks = {}
            local raising = { sink = function(_, f)
              sinks[#sinks + 1] = f
              return setmetatable({}, { __index = { cancel = function() error("cancel raised", 0) end } })
            end }
            local sending = { sink = function(_, f)
              return setmetatable({}, { __index = { cancel = function() cancels = cancels + 1; f("sent by cancel") end } })
            end }
            local Listener = ui.View("Listener", function()
              return ui.Text("l"):onReceive(raising, function() heard = heard + 1 end)
                :task(function()
                  while true do
                    local ok = pcall(ui.await, sending)
                    steps = steps + 1
                    if not ok then cancelled = cancelled + 1; return end
                  end
                end)
            end)
            ui.PreferenceKey("broken", 0, function(a, b) if b == 2 then error("reduce raised", 0) end return a + b end)
            local Reads = ui.View("ReadsAfter", function() return ui.Text("v " .. m.v) end)
            app = ui.mount(ui.View("Holder", function()
              return ui.VStack({
                m.show and Listener {} or ui.Text("none"),
                ui.Text("p"):preference("broken", m.v):onPreferenceChange("broken", function() end),
                Reads {},
              })
            end) {})
            ui.clock.advance(1)
            steps = 0
            m.show = false
            ui.flush()
            for _, f in ipairs(sinks) do f("after it went") end
            m.v = 2
            ui.flush()
            """)
        XCTAssertEqual(try runtime.evaluate("return heard, cancels, steps, cancelled"), ["0", "1", "1", "1"])
        XCTAssertTrue(try runtime.evaluate("return app:tree()").first?.contains("v 2") == true)
        let errors = runtime.takeProblems().errors
        XCTAssertEqual(errors.filter { $0.contains("cancel raised") }.count, 1, "\(errors)")
        XCTAssertEqual(errors.filter { $0.contains("reduce raised") }.count, 1, "\(errors)")
    }

    /// A PreferenceKey's reduce that raises is said once a flush, however many rounds the flush
    /// runs (session 20: it was said once a round), and again at the next flush that meets it.
    func testARaisingReduceIsSaidOnceAFlush() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { v = 0, w = 0 })()
            ui.PreferenceKey("broken", 0, function(a, b) if b >= 2 then error("reduce raised", 0) end return a + b end)
            app = ui.mount(ui.View("Holder", function()
              return ui.VStack({
                ui.Text("w " .. m.w):preference("broken", m.v):preference("broken", m.v),
              }):onPreferenceChange("broken", function() end)
                :onChange(m.v, function(_, new) m.w = new end)   -- a second round, which runs the holder again
            end) {})
            m.v = 2
            ui.flush()
            """)
        XCTAssertTrue(try runtime.evaluate("return app:tree()").first?.contains("w 2") == true)
        XCTAssertEqual(runtime.takeProblems().errors.filter { $0.contains("reduce raised") }.count, 1)
        _ = try runtime.evaluate("m.v = 3; ui.flush()")
        XCTAssertEqual(runtime.takeProblems().errors.filter { $0.contains("reduce raised") }.count, 1)
    }

    /// An onChange value's `__eq` that raises is its view's error, told no change, and the rest
    /// of what the view keeps between runs stays whole: its task runs once, and goes with it (a
    /// hostile read: the raise left the view's list of tasks and subscriptions half compared, a
    /// second task started at the next run, and one ticked on after the view went).
    func testAnOnChangeValuesEqualityThatRaisesLeavesTheViewsTasksWhole() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { v = 0, show = true })()
            armed, ticks, seen = false, 0, {}
            local mt = { __eq = function(a, b) if armed then error("eq raised", 0) end return a.k == b.k end }
            local V = ui.View("Watches", function()
              return ui.VStack({
                ui.Text("v=" .. m.v):task(function() while true do ui.sleep(1); ticks = ticks + 1 end end),
                ui.Text("c"):onChange(setmetatable({ k = m.v }, mt), function() end),
              })
            end)
            app = ui.mount(ui.View("Root", function() return m.show and V {} or ui.Text("none") end) {})
            ui.clock.advance(1)
            armed = true; m.v = 1; ui.flush(); armed = false
            m.v = 2; ui.flush()
            ticks = 0; ui.clock.advance(3); seen[1] = ticks
            m.show = false; ui.flush()
            ticks = 0; ui.clock.advance(3); seen[2] = ticks
            """)
        XCTAssertEqual(try runtime.evaluate("return seen[1], seen[2]"), ["3", "0"])
        XCTAssertEqual(runtime.takeProblems().errors.filter { $0.contains("eq raised") }.count, 1)
    }

    /// A task id's `__eq` and a preference value's `__eq` that raise are their views' errors too:
    /// the view's subscriptions stay one (a hostile read: a raise in the task id's compare left an
    /// onReceive subscribed twice, still heard after its view went), and the preference's handler
    /// gets the latest value (the raise unwound the flush, and it never did).
    func testATaskIdsOrAPreferencesEqualityThatRaisesIsItsViewsError() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        runtime.recordProblems()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            m = ui.Observable("M", { v = 0, show = true })()
            armed, got, delivered = false, 0, {}
            local mt = { __eq = function(a, b) if armed then error("eq raised", 0) end return a.k == b.k end }
            local p = ui.Subject()
            ui.PreferenceKey("boxed", setmetatable({ k = -1 }, mt), function(_, b) return b end)
            local V = ui.View("Keeps", function()
              return ui.VStack({
                ui.Text("v=" .. m.v):onReceive(p, function() got = got + 1 end),
                ui.Text("t"):task(function() while true do ui.sleep(1) end end, { id = setmetatable({ k = 1 }, mt) }),
                ui.Text("p"):preference("boxed", setmetatable({ k = m.v }, mt)),
              }):onPreferenceChange("boxed", function(v) delivered[#delivered + 1] = v.k end)
            end)
            app = ui.mount(ui.View("Root", function() return m.show and V {} or ui.Text("none") end) {})
            armed = true; m.v = 1; ui.flush(); armed = false
            m.v = 2; ui.flush()
            p:send(1); heard = got
            m.show = false; ui.flush()
            got = 0; p:send(1); heardGone = got
            """)
        XCTAssertEqual(try runtime.evaluate("return heard, heardGone, table.concat(delivered, ' ')"), ["1", "0", "0 1 2"])
        XCTAssertGreaterThan(runtime.takeProblems().errors.filter { $0.contains("eq raised") }.count, 0)
    }

    /// Past a thousand failures the host is told that more came, not left to think the list is
    /// whole (a hostile read: the rest were dropped without a word); the list stays bounded.
    func testFailuresPastTheLogsLimitAreSaidToBeLeftOut() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local box = ui.Observable("Box", { n = 0 })()
            for i = 1, 1500 do ui.effect(function() if box.n == 1 then error("failure " .. i, 0) end end) end
            box.n = 1
            ui.flush()
            """)
        XCTAssertEqual(runtime.effectErrors.count, 1001)
        XCTAssertEqual(runtime.effectErrors[999], "effect: failure 1000")
        XCTAssertEqual(runtime.effectErrors.last, "effect: more than 1000 effects failed: the rest are not kept")
    }

    /// The effects of a flush run in one protected call (issue 17: no `lua_pcall` per effect); a
    /// try that fails, is stopped by its budget or suspends on a deep chain ends its own effect's
    /// update as before, reported once, and the batch goes on with the effects after it.
    func testAFailingStoppedOrSuspendedEffectEndsOnlyItsOwnUpdate() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.2))
        _ = try runtime.evaluate("""
            ui = require("lunette")
            box = ui.Observable("Box", { n = 0 })()
            local props = {}
            for i = 1, 80 do                       -- deeper than a read may nest: it suspends
              local prev = i - 1
              props["c" .. i] = ui.computed(function(self)
                if prev == 0 then return box.n end
                return self["c" .. prev] + 1
              end)
            end
            chain = ui.Observable("Chain", props)()
            chain2 = ui.Observable("Chain2", props)()
            seen = {}
            local function effect(name, body)
              return ui.effect(function() local n = box.n; body(n); seen[#seen + 1] = name .. n end)
            end
            effects = {
              effect("a", function() end),
              effect("fails", function(n) if n == 1 then error("boom") end end),
              effect("b", function() end),
              effect("stopped", function(n) if n == 1 then while true do end end end),
              effect("c", function() end),
              effect("caught", function(n)
                if n == 1 then local ok, v = pcall(function() return chain.c80 end); assert(v == 80, tostring(v)) end
              end),
              effect("d", function() end),
              effect("swallowed", function(n)  -- its pcall swallows the suspension: it runs again
                if n == 1 then local _, v = pcall(function() return chain2.c80 end); swallowed = v end
              end),
              effect("e", function() end),
            }
            seen = {}
            """, name: "@batch.lua")
        XCTAssertEqual(runtime.effectErrors, [])
        _ = try runtime.evaluate("box.n = 1")
        runtime.flush()
        XCTAssertEqual(try runtime.evaluate("return table.concat(seen, ' ')"), ["a1 b1 c1 caught1 d1 swallowed1 swallowed1 e1"])
        XCTAssertEqual(try runtime.evaluate("return swallowed"), ["80"])
        XCTAssertEqual(runtime.effectErrors.count, 2, "\(runtime.effectErrors)")
        XCTAssertEqual(runtime.effectErrors.first, "effect: batch.lua:19: boom")
        XCTAssertTrue(runtime.effectErrors.last?.contains("time budget") == true, "\(runtime.effectErrors)")
        _ = try runtime.evaluate("seen = {}; box.n = 2")
        runtime.flush()                            // each runs again at the next change
        XCTAssertEqual(try runtime.evaluate("return table.concat(seen, ' ')"),
                       ["a2 fails2 b2 stopped2 c2 caught2 d2 swallowed2 e2"])
        XCTAssertEqual(runtime.effectErrors.count, 2)
        _ = try runtime.evaluate("for _, e in ipairs(effects) do e:cancel() end")
    }

    /// The batch's own call may be refused before an effect's try begins — the C stack at Lua's
    /// limit (here), memory, a call hook that raises (the stock interpreter's): the effect due
    /// fails with that error, reported, and the queue moves on; one that never began keeps what
    /// it read, and the next change runs it (a hostile read: the error was dropped, nothing left
    /// the queue, and the flush called again forever, where no budget could stop it).
    func testAnEffectBatchRefusedAtItsCallReportsTheEffectDueAndMovesOn() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            local function nest(depth, box)             -- ui.flush at a C-call depth near Lua's limit
              if depth == 0 then box.n = box.n + 1; return pcall(ui.flush) end
              return pcall(nest, depth - 1, box)
            end
            again = 0
            for depth = 150, 210 do                     -- one depth refuses the batch's own call
              local box = ui.Observable("Box" .. depth, { n = 0 })()
              local runs = 0
              local e = ui.effect(function() local _ = box.n; runs = runs + 1 end)
              nest(depth, box)
              box.n = box.n + 1
              ui.flush()
              if runs >= 2 then again = again + 1 end
              e:cancel()
            end
            """, name: "@refused.lua")
        XCTAssertTrue(runtime.effectErrors.contains { $0.contains("C stack overflow") }, "\(runtime.effectErrors)")
        XCTAssertGreaterThan(Int(try runtime.evaluate("return again").first ?? "") ?? 0, 40)
    }
}
