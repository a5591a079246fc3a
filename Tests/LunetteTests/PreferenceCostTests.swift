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
}
