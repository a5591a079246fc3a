import Foundation
import Lunette
import XCTest

/// Issue 16, the Swift side: what a host or Swift does for a script stays
/// bounded (TARGETS R18-R26). Each case failed before its mechanism.
final class SafetyTests: XCTestCase {
    func testR19AnEmbeddingsOptionsOutOfRangeAreRefusedNotTrapped() {
        let bad: [LunetteRuntime.Options] = [
            .init(memoryLimit: -1), .init(memoryLimit: Int.max), .init(timeBudget: -1),
            .init(timeBudget: .infinity), .init(timeBudget: .nan), .init(timeBudget: 1e-10), .init(renderLoopLimit: 0),
        ]
        for options in bad {
            XCTAssertThrowsError(try LunetteRuntime(options: options)) { error in
                XCTAssertTrue("\(error)".hasPrefix("Options."), "\(error)")
            }
        }
        XCTAssertNoThrow(try LunetteRuntime(options: .init(memoryLimit: 0, timeBudget: 0)))
    }

    private let nanosecondTimer = """
        local ui = require("lunette")
        fired = 0
        subscription = ui.Timer.publish(1e-9):sink(function() fired = fired + 1 end)
        """

    func testR20ANanosecondTimerOnTheRealClockCoalescesMissedFirings() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 0.5))
        _ = try runtime.run(source: nanosecondTimer, name: "@timer.lua")
        Thread.sleep(forTimeInterval: 0.05)             // millions of firings missed
        let started = Date()
        XCTAssertTrue(runtime.runDueWork())
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.4)
        XCTAssertEqual(try runtime.evaluate("return fired"), ["1"], "missed firings are one firing")
        XCTAssertTrue(runtime.hasPendingWork)
    }

    func testR20ANanosecondTimerOnTheVirtualClockIsStoppedByTheBudgetAndReported() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true, timeBudget: 0.2))
        _ = try runtime.run(source: nanosecondTimer, name: "@timer.lua")
        let started = Date()
        runtime.advanceClock(by: 1)                     // a billion firings due
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(runtime.effectErrors.contains { $0.contains("the clock's due work ran longer than its time budget") },
                      "\(runtime.effectErrors)")
        XCTAssertEqual(try runtime.evaluate("return 40 + 2"), ["42"])
    }

    func testR19StringsCopiedIntoNodesAreChargedToTheMemoryCapAndGivenBack() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 64 << 20, timeBudget: 5))
        // One 8 MB Lua string shown by 40 Texts: 8 MB for Lua, 320 MB of copies without the charge.
        _ = try runtime.run(source: """
            local ui = require("lunette")
            big = string.rep("x", 8 * 1024 * 1024)
            local rows = {}
            for i = 1, 40 do rows[i] = ui.Text(big) end
            app = ui.mount(ui.View("Big", function() return ui.VStack(rows) end) {})
            """, name: "@big.lua")
        runtime.flush()
        let tree = try runtime.evaluate("return app:tree()")[0]
        XCTAssertTrue(tree.contains("Error Big: not enough memory: its output holds more text than the memory cap allows"), tree)
        // What a failed or unmounted output held is given back: a smaller one fits.
        _ = try runtime.evaluate("""
            app:unmount()
            local ui = require("lunette")
            local rows = {}
            for i = 1, 4 do rows[i] = ui.Text(big) end
            app = ui.mount(ui.View("Fits", function() return ui.VStack(rows) end) {})
            """)
        runtime.flush()
        let fits = try runtime.evaluate("return #app:findAll { type = 'Text' }")
        XCTAssertEqual(fits, ["4"])
        _ = try runtime.evaluate("app:unmount(); app = nil; big = nil; collectgarbage()")
        XCTAssertLessThan(runtime.memoryInUse, 4 << 20, "nothing stays charged")
    }

    /// What Swift holds for each child unit (a ForEach's row) is charged to
    /// the cap by the output linking it: 100,000 rows of nothing (34 MB of
    /// Lua) held about 70 MB of Swift objects a 64 MB cap never saw (a
    /// hostile read: 2 million rows held 2.5 GB under a 1 GB cap). Given
    /// back when they go.
    func testR19ChildUnitsAreChargedToTheMemoryCapAndGivenBack() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 64 << 20, timeBudget: 60))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            data = {}
            for i = 1, 100000 do data[i] = i end
            app = ui.mount(ui.View("Rows", function()
              return ui.VStack { ui.ForEach(data, function() return ui.EmptyView() end) }
            end) {})
            """, name: "@rows.lua")
        runtime.flush()
        let tree = try runtime.evaluate("return app:tree()")[0]
        XCTAssertTrue(tree.contains("not enough memory"), String(tree.prefix(300)))
        _ = try runtime.evaluate("app:unmount(); app = nil; data = nil; collectgarbage()")
        XCTAssertLessThan(runtime.memoryInUse, 4 << 20, "nothing stays charged")
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local few = {}
            for i = 1, 1000 do few[i] = i end
            app = ui.mount(ui.VStack { ui.ForEach(few, function(i) return ui.Text(tostring(i)) end) })
            """)
        runtime.flush()
        XCTAssertEqual(try runtime.evaluate("return #app:findAll { type = 'Text' }"), ["1000"])
    }

    /// A run that suspends and tries again (a deep computed chain read by the walk) gives
    /// back what its first try charged: 120 such runs of a 200 KB output fit a 16 MB cap.
    func testR19ARetriedRunGivesBackWhatItsFirstTryCharged() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 16 << 20, timeBudget: 20))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local Cell = ui.Observable("Cell", { prev = ui.ignored(false), base = 0,
              value = ui.computed(function(self) return self.prev and self.prev.value + 1 or self.base end) })
            local Holder = ui.Observable("Holder", { last = ui.none })
            local function chain(n) local c = Cell() for _ = 1, n do c = Cell { prev = c } end return c end
            h = Holder { last = chain(100) }
            function renew() h.last = chain(100) end
            local big = string.rep("x", 200 * 1024)
            app = ui.mount(ui.View("V", { state = { shown = true }, body = function(self)
              local last = h.last
              return ui.VStack { ui.Text(big) }:sheet(self["$shown"], function() return ui.Text(tostring(last.value)) end)
            end }) {})
            """, name: "@retry.lua")
        for _ in 0..<120 {
            _ = try runtime.evaluate("renew()")
            runtime.flush()
        }
        let tree = try runtime.evaluate("return app:tree()")[0]
        XCTAssertFalse(tree.contains("Error"), String(tree.prefix(300)))
        XCTAssertTrue(tree.contains("Text \"100\""), String(tree.suffix(200)))
    }

    /// Past the memory cap a run's records are not kept, but a new child still gets its
    /// record's reference, so the error path releases it: the registry does not grow.
    func testR19PastTheCapNewChildrenStillReleaseTheirRecords() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 8 << 20, timeBudget: 20))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local Holder = ui.Observable("Holder", { round = 0 })
            h = Holder()
            local big = string.rep("x", 2800 * 1024)
            local C = ui.View("C", function() return ui.Text("c") end)
            app = ui.mount(ui.View("V", function()
              local kids = {}
              for i = 1, 50 do kids[i] = C {}:id(h.round * 1000 + i) end
              return ui.VStack { ui.Text(big), ui.VStack(kids) }
            end) {})
            function heap() collectgarbage(); collectgarbage(); return collectgarbage("count") end
            """, name: "@overcap.lua")
        var heaps: [Double] = []
        for round in 1...30 {
            _ = try runtime.evaluate("h.round = \(round)")
            runtime.flush()
            if round == 5 || round == 30 { heaps.append(Double(try runtime.evaluate("return heap()")[0]) ?? 0) }
        }
        XCTAssertTrue(try runtime.evaluate("return app:tree()")[0].contains("not enough memory"))
        // 50 new children a round: their records (tables of a few hundred bytes) must not stay.
        XCTAssertLessThan(heaps[1] - heaps[0], 100, "Lua heap in KB at rounds 5 and 30: \(heaps)")
    }

    /// Constructor slot names Swift keeps for child identity are charged: a script that
    /// makes a new one every render runs into the cap with a clear error, not unbounded memory.
    /// A view with no child view keeps none (nothing keys a child by it): the same
    /// renders, in a runtime of its own, never reach the cap. (In one runtime the
    /// second depended on the margin the first left under the cap.)
    func testR19ConstructorSlotNamesAreChargedToTheCap() throws {
        func rounds(_ content: String) throws -> String {
            let runtime = try LunetteRuntime(options: .init(memoryLimit: 8 << 20, timeBudget: 20))
            _ = try runtime.run(source: """
                local ui = require("lunette")
                local Holder = ui.Observable("Holder", { round = 0 })
                h = Holder()
                local pad = string.rep("s", 4000)
                local Child = ui.View("Child", function() return ui.Text("c") end)
                app = ui.mount(ui.View("V", function()
                  local v = ui.VStack { \(content) }
                  rawset(v, "slots", { pad .. h.round })
                  return v
                end) {})
                """, name: "@slots.lua")
            for round in 1...3000 {                     // 3000 names of 4 KB: 12 MB, past the 8 MB cap
                _ = try runtime.evaluate("h.round = \(round)")
                runtime.flush()
            }
            return try runtime.evaluate("return app:tree()")[0]
        }
        let keyed = try rounds("Child {}")
        XCTAssertTrue(keyed.contains("too many different constructor slots"), String(keyed.prefix(300)))
        let plain = try rounds("ui.Text(\"a\")")
        XCTAssertTrue(plain.contains("Text \"a\""), String(plain.prefix(300)))
        XCTAssertFalse(plain.contains("Error"), String(plain.prefix(300)))
    }

    /// An output past the memory cap is an error node Swift makes; as for a
    /// body that raises (R1), the views the last output held are gone while
    /// it stands and appear again after (the hostile read of session 10:
    /// only a Lua error ended their life).
    func testR19AnOutputPastTheCapEndsItsViewsLifeAsAnErrorDoes() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 24 << 20, timeBudget: 20))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local M = ui.Observable("M", { x = 1 })
            m = M()
            log = {}
            local big = string.rep("b", 9 * 1024 * 1024)
            app = ui.mount(ui.View("V", function()
              return ui.Text(m.x == 2 and big or "small")
                :onAppear(function() log[#log + 1] = "appear" .. m.x end)
                :onDisappear(function() log[#log + 1] = "disappear" .. m.x end)
            end) {})
            """, name: "@cap.lua")
        _ = try runtime.evaluate("m.x = 2")
        runtime.flush()
        XCTAssertTrue(try runtime.evaluate("return app:tree()")[0].contains("more text than the memory cap allows"))
        XCTAssertEqual(try runtime.evaluate("return table.concat(log, ',')"), ["appear1,disappear2"])
        _ = try runtime.evaluate("m.x = 1")
        runtime.flush()
        XCTAssertEqual(try runtime.evaluate("return table.concat(log, ',')"), ["appear1,disappear2,appear1"])
        // A view whose first output passes the cap never appeared: nothing runs for it
        // (the second hostile read of session 10: its onAppear ran, then its onDisappear).
        let fresh = try LunetteRuntime(options: .init(memoryLimit: 24 << 20, timeBudget: 20))
        _ = try fresh.run(source: """
            local ui = require("lunette")
            first = {}
            local big = string.rep("y", 9 * 1024 * 1024)
            app2 = ui.mount(ui.View("First", function()
              return ui.Text(big):onAppear(function() first[#first + 1] = "appear" end)
                :onDisappear(function() first[#first + 1] = "disappear" end)
            end) {})
            """, name: "@first.lua")
        fresh.flush()
        XCTAssertTrue(try fresh.evaluate("return app2:tree()")[0].contains("more text than the memory cap allows"))
        XCTAssertEqual(try fresh.evaluate("return table.concat(first, ',')"), [""])
    }

    func testR19AHugeErrorMessageIsCutNotCopiedWhole() throws {
        let runtime = try LunetteRuntime(options: .init(timeBudget: 5))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            app = ui.mount(ui.View("Loud", function() error(string.rep("y", 32 * 1024 * 1024)) end) {})
            """, name: "@loud.lua")
        runtime.flush()
        let tree = try runtime.evaluate("return app:tree()")[0]
        XCTAssertLessThan(tree.utf8.count, 64 * 1024)
        XCTAssertTrue(tree.contains("more bytes)"), String(tree.prefix(200)))
    }

    /// Found by the hostile pass: Swift memory a script controls outside the
    /// cap — view type names (1 MB each, a thousand of them) and values kept
    /// in the in-memory store (100 keys of 8 MB).
    func testR19ViewNamesAndStoredValuesAreBounded() throws {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 64 << 20, timeBudget: 10))
        XCTAssertThrowsError(try runtime.evaluate("require('lunette').View(('x'):rep(1000000), function() end)")) { error in
            XCTAssertTrue("\(error)".contains("a view's name is 1 to 256 bytes"), "\(error)")
        }
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            local storage = {}
            for i = 1, 100 do storage["k" .. i] = "" end
            return ui.View("Big", { appStorage = storage, body = function(self)
              return ui.Button("fill", function()
                local big = ("x"):rep(8 * 1024 * 1024)
                for i = 1, 100 do self["k" .. i] = big end
              end)
            end })()
            """, name: "@fill.lua"))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        runtime.waitForStorage()
        let errors = runtime.storageErrors.joined(separator: "\n")
        XCTAssertTrue(errors.contains("MiB of app storage wait to be kept") || errors.contains("holds at most 64 MiB"), errors)
    }
}
