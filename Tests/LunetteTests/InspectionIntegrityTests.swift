import Foundation
import Lunette
import XCTest

/// What inspection shows is the runtime's own reading, which a script cannot
/// rewrite: the runtime sorts a view's state lines and a definition's names
/// in C, never with the script's `table.sort` (a hostile read, session 8,
/// found both sorted with it: `state = { x = 1, y = "two" }` read back as
/// `x = "two"` once a script had replaced `table.sort`).
final class InspectionIntegrityTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        table.sort = function(t) t[1] = t[#t] end       -- a hostile sort: duplicates the last name
        local Form = ui.View("Form", { state = { x = 1, y = "two", z = true }, body = function(self)
          return ui.Text("x=" .. tostring(self.x) .. " y=" .. tostring(self.y) .. " z=" .. tostring(self.z))
        end })
        return Form {}
        """

    func testAScriptsTableSortChangesNeitherStateNorItsInspection() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: script))
        XCTAssertNotNil(app.find(text: "x=1 y=two z=true"))
        let state = try XCTUnwrap(try runtime.state(of: "Form"))
        XCTAssertEqual(state, "x = 1\ny = \"two\"\nz = true")
    }
}
