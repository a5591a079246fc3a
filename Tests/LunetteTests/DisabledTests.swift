import Foundation
import Lunette
import XCTest

/// D09 from a host: `:disabled(true)` holds for `LunetteRuntime`'s
/// interactions as it does for scripts — disabled(_:) "adds a condition that
/// controls whether users can interact with this view"
/// (https://developer.apple.com/documentation/swiftui/view/disabled(_:)).
final class DisabledTests: XCTestCase {
    private let form = """
        local ui = require("lunette")
        local rows = {}
        for i = 1, 200 do rows[i] = "row " .. i end
        local Form = ui.View("Form", {
          state = { on = false, name = "ada", n = 1, flavor = "vanilla", locked = true },
          focusState = { "field" },
          body = function(self)
            return ui.VStack {
              ui.Text(("%s %s %d %s"):format(tostring(self.on), self.name, self.n, self.flavor)),
              ui.VStack {
                ui.Button("Save", function() self.n = self.n + 10 end),
                ui.Toggle("On", self["$on"]),
                ui.TextField("Name", self["$name"]):focused(self["$field"], "name"),
                ui.Stepper("N", self["$n"], { 0, 99 }),
                ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
                ui.List(rows, function(r) return ui.Text(r) end),
              }:disabled(self.locked),
              ui.Button("unlock", function() self.locked = false end),
            }
          end,
        })
        return Form {}
        """

    func testD09AHostCannotActOnADisabledControl() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: form))
        func refused(_ act: () throws -> Void, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try act(), file: file, line: line) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)", file: file, line: line)
            }
        }
        refused({ try runtime.tap(try XCTUnwrap(app.find("Save"))) }, "cannot tap Button \"Save\": it is disabled")
        refused({ try runtime.toggle(try XCTUnwrap(app.find("On"))) }, "cannot toggle Toggle \"On\": it is disabled")
        let field = try XCTUnwrap(app.find(type: "TextField"))
        refused({ try runtime.setText(field, "bob") }, "cannot type into TextField \"Name\": it is disabled")
        refused({ try runtime.focus(field) }, "cannot focus TextField \"Name\": it is disabled")
        refused({ try runtime.step(try XCTUnwrap(app.find(type: "Stepper")), by: 1) }, "cannot step Stepper \"N\": it is disabled")
        refused({ try runtime.select(try XCTUnwrap(app.find(type: "Picker")), .string("chocolate")) },
                "cannot pick from Picker \"Flavor\": it is disabled")
        refused({ try runtime.scroll(try XCTUnwrap(app.find(type: "List")), to: 150) }, "cannot scroll List: it is disabled")
        XCTAssertNil(app.find("row 150"))
        XCTAssertNotNil(app.find("false ada 1 vanilla"))              // nothing changed
        XCTAssertEqual(app.find("Save")?.attribute("disabled"), "true")   // what the preview draws
        try runtime.tap(try XCTUnwrap(app.find("unlock")))
        XCTAssertNil(app.find("Save")?.attribute("disabled"))
        try runtime.tap(try XCTUnwrap(app.find("Save")))
        try runtime.toggle(try XCTUnwrap(app.find("On")))
        XCTAssertNotNil(app.find("true ada 11 vanilla"))
        try runtime.scroll(try XCTUnwrap(app.find(type: "List")), to: 150)
        XCTAssertNotNil(app.find("row 150"))
    }
}
