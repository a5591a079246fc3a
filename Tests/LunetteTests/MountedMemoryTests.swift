import Foundation
import XCTest
@testable import Lunette

/// What a mounted view holds (TARGETS.md P6: at most 1 KiB a mounted view,
/// Lua's and Swift's heaps together; `scripts/bench` measures the whole in
/// a process of its own). These check the parts a change could grow back.
final class MountedMemoryTests: XCTestCase {
    private func mountRows(_ runtime: LunetteRuntime, _ n: Int) throws {
        _ = try runtime.evaluate("""
            local ui = require("lunette")
            local Item = ui.View("MemItem", function(self) return ui.Text(self.label) end)
            rows = {}
            for i = 1, \(n) do rows[i] = Item { label = "item " .. i } end
            collectgarbage(); collectgarbage()
            before = collectgarbage("count")
            app = ui.mount(ui.VStack(rows))
            collectgarbage(); collectgarbage()
            """)
    }

    /// A component's record holds four fields (its info, inputs, out table
    /// and self; its unit and readiness live in self, its type's methods in
    /// info), so Lua's table has four slots, not eight: 284 bytes a view,
    /// where it was 380.
    func testP6AMountedViewCostsLuaUnder300Bytes() throws {
        let runtime = try LunetteRuntime()
        try mountRows(runtime, 2000)
        let perView = try XCTUnwrap(Double(try runtime.evaluate("return (collectgarbage('count') - before) * 1024 / 2000")[0]))
        XCTAssertLessThanOrEqual(perView, 300, "Lua's heap a mounted one-Text view")
        XCTAssertEqual(try runtime.evaluate("return app:find('item 2000') ~= nil")[0], "true")
    }

    /// A parent keeps its children as an array sized to them (a dictionary
    /// kept three quarters full of 80-byte keys cost half as much again),
    /// and its records and links without the doubling that built them.
    func testP6AParentKeepsItsChildrenAndRecordsSizedToThem() throws {
        let runtime = try LunetteRuntime()
        try mountRows(runtime, 5000)
        let root = try XCTUnwrap(runtime.apps.first?.root)
        XCTAssertEqual(root.children.count, 5000)
        XCTAssertLessThanOrEqual(root.children.capacity, 5000 + 5000 / 8 + 32)
        XCTAssertLessThanOrEqual(root.last.records.capacity, root.last.records.count + root.last.records.count / 8 + 32)
        XCTAssertLessThanOrEqual(root.last.links.capacity, 5000 + 5000 / 8 + 32)
    }

    /// The round batch that ran 5,000 views gives its tickets back when the
    /// flush ends; it kept them for as long as the views stayed mounted.
    func testP6ALargeFlushGivesItsBatchBack() throws {
        let runtime = try LunetteRuntime()
        try mountRows(runtime, 5000)
        XCTAssertLessThanOrEqual(runtime.batch.capacity, RoundBatch.kept)
    }

    /// Children are matched in order while the keys agree, and by key past
    /// the first difference: keyed rows moved to other places keep their
    /// units (their bodies do not run again: their inputs are equal, S09),
    /// and a re-render that keeps its shape keeps every child.
    func testS09ChildrenMatchInOrderAndByKeyAfterAMove() throws {
        let runtime = try LunetteRuntime()
        _ = try runtime.evaluate("""
            ui = require("lunette")
            local Order = ui.Observable("MemOrder", { ids = { 1, 2, 3, 4 }, tick = 0 })
            order = Order()
            local Row = ui.View("MemRow", function(self) return ui.Text("row " .. self.n) end)
            local Rows = ui.View("MemRows", function()
              local out = { ui.Text("tick " .. order.tick) }
              for _, id in ipairs(order.ids) do out[#out + 1] = Row { n = id }:id(id) end
              return ui.VStack(out)
            end)
            app = ui.mount(Rows {})
            """)
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "4")
        _ = try runtime.evaluate("order.tick = 1; ui.flush()")
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "4", "the same shape: every row kept")
        _ = try runtime.evaluate("order.ids = { 3, 1, 4, 2 }; ui.flush()")
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "4", "moved rows kept by key")
        XCTAssertEqual(try runtime.evaluate("return app:find('row 2') ~= nil and app:find('row 3') ~= nil")[0], "true")
        _ = try runtime.evaluate("order.ids = { 3, 1, 5, 2 }; ui.flush()")
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "5", "one new row; 4 gone")
        XCTAssertEqual(try runtime.evaluate("return app:find('row 4') == nil")[0], "true")
        _ = try runtime.evaluate("order.ids = { 3, 3, 1 }; ui.flush()")
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "6", "a second 3 is a copy, new")
        _ = try runtime.evaluate("order.ids = { 3, 3, 1 }; order.tick = 2; ui.flush()")
        XCTAssertEqual(try runtime.evaluate("return app:renders('MemRow')")[0], "6", "both copies kept")
        _ = try runtime.evaluate("app:unmount()")
    }

    /// Freed pages go back to the system after a large flush, at most once
    /// a second: flushes that each run thousands of views in a row (a host
    /// re-rendering every frame) do not each walk the allocator's free lists.
    func testP6FreedPagesGoBackAtMostOnceASecond() throws {
        let runtime = try LunetteRuntime()
        try mountRows(runtime, 3000)
        XCTAssertEqual(runtime.flushState.trims, 1, "after the mount")
        _ = try runtime.evaluate("""
            for round = 1, 5 do
              app:unmount()
              app = require("lunette").mount(require("lunette").VStack(rows))
            end
            """)
        XCTAssertEqual(runtime.flushState.trims, 1, "five more large flushes within the second")
    }
}
