import Foundation
import Lunette
import XCTest

/// Issue 19, session 7: a host acts on list rows as a person would —
/// `delete`, `move(to:)` on any node of a row (its ForEach's onDelete and
/// onMove), `refresh` on a `:refreshable` view, and `select` on a List with
/// a selection (https://developer.apple.com/documentation/swiftui/dynamicviewcontent/ondelete(perform:)).
final class ListEditingTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        return ui.View("Names", { state = { names = { "ann", "bob", "cy" }, chosen = ui.none, loads = 0 }, body = function(self)
          return ui.VStack {
            ui.List({ selection = self["$chosen"] }, {
              ui.ForEach(self.names, function(name) return ui.Text("name " .. name) end)
                :onDelete(function(indices) table.remove(self.names, indices[1]) end)
                :onMove(function(indices, to)
                  local moved = table.remove(self.names, indices[1])
                  table.insert(self.names, to > indices[1] and to - 1 or to, moved)
                end),
            }):refreshable(function() ui.sleep(1); self.loads = self.loads + 1 end),
            ui.Text(table.concat(self.names, ",") .. " " .. tostring(self.chosen) .. " " .. self.loads),
          }
        end })()
        """

    func testAHostDeletesMovesSelectsAndRefreshes() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true))
        let app = try XCTUnwrap(try runtime.run(source: script))
        XCTAssertNotNil(app.find(text: "ann,bob,cy nil 0"))
        try runtime.delete(XCTUnwrap(app.find(text: "name bob")))
        XCTAssertNotNil(app.find(text: "ann,cy nil 0"))
        try runtime.move(XCTUnwrap(app.find(text: "name ann")), to: 3)
        XCTAssertNotNil(app.find(text: "cy,ann nil 0"))
        try runtime.select(XCTUnwrap(app.find(type: "List")), .string("ann"))
        XCTAssertNotNil(app.find(text: "cy,ann ann 0"))
        try runtime.refresh(XCTUnwrap(app.find(type: "List")))
        XCTAssertEqual(app.find(type: "List")?.attribute("refreshing"), "true")
        _ = runtime.advanceClock(by: 1.5)
        XCTAssertNotNil(app.find(text: "cy,ann ann 1"))
        XCTAssertNil(app.find(type: "List")?.attribute("refreshing"))
        XCTAssertThrowsError(try runtime.delete(XCTUnwrap(app.find(text: "cy,ann ann 1")))) { error in
            XCTAssertTrue("\(error)".contains("is in no row of a ForEach with :onDelete or :onMove"), "\(error)")
        }
    }
}
