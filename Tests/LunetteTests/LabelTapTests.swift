import Foundation
import Lunette
import XCTest

/// Issue 19, session 8: a host's `runtime.tap(_:)` on a node of a Button's
/// (or a NavigationLink's) label view taps the Button, as `node:tap()` does
/// in Lua and a click does in the preview: the label is the button's content,
/// "a view that describes the purpose of the button's action"
/// (https://developer.apple.com/documentation/swiftui/button/init(action:label:)).
final class LabelTapTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        local Badge = ui.View("Badge", function(self) return ui.Text("badge " .. self.n) end)
        return ui.View("Labels", { state = { n = 0, locked = false }, body = function(self)
          return ui.NavigationStack {
            ui.VStack {
              ui.Button(ui.HStack { ui.Image { systemName = "plus" }, ui.Text("Add") }, function() self.n = self.n + 1 end),
              ui.Button(Badge { n = self.n }, function() self.n = self.n + 10 end),
              ui.Button(ui.Text("Locked"), function() self.n = self.n + 100 end):disabled(self.locked),
              ui.Button("lock", function() self.locked = true end),
              ui.NavigationLink(ui.Label("Work Folder", "folder"), ui.Text("in the folder")),
              ui.Text("count " .. self.n),
            },
          }
        end })()
        """

    func testAHostsTapOnALabelViewTapsItsButton() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: script))
        try runtime.tap(XCTUnwrap(app.find(text: "Add")))               // a Text in the label's HStack
        try runtime.tap(XCTUnwrap(app.find(text: "plus")))              // the Image beside it
        XCTAssertNotNil(app.find(text: "count 2"), runtime.text(of: app))
        try runtime.tap(XCTUnwrap(app.find(text: "badge 2")))           // inside a view of its own (another unit)
        XCTAssertNotNil(app.find(text: "count 12"), runtime.text(of: app))
        try runtime.tap(XCTUnwrap(app.find(text: "Locked")))
        XCTAssertNotNil(app.find(text: "count 112"), runtime.text(of: app))
        try runtime.tap(XCTUnwrap(app.find(text: "lock")))
        XCTAssertThrowsError(try runtime.tap(XCTUnwrap(app.find(text: "Locked")))) { error in
            XCTAssertTrue("\(error)".contains("cannot tap Button"), "\(error)")
            XCTAssertTrue("\(error)".contains("it is disabled"), "\(error)")
        }
        XCTAssertNotNil(app.find(text: "count 112"), runtime.text(of: app))
        XCTAssertThrowsError(try runtime.tap(XCTUnwrap(app.find(text: "count 112")))) { error in
            XCTAssertTrue("\(error)".contains("nothing to tap"), "\(error)")   // a node in no Button
        }
        try runtime.tap(XCTUnwrap(app.find(text: "Work Folder")))      // a NavigationLink's Label
        XCTAssertNotNil(app.find(text: "in the folder"), runtime.text(of: app))
    }

    /// A host toggles only a Toggle and types only into a TextField or a
    /// SecureField, as `node:toggle()` and `node:setText(s)` do: a Toggle is
    /// "A control that toggles between on and off states"
    /// (https://developer.apple.com/documentation/swiftui/toggle). Before,
    /// toggling a TextField wrote false into its text.
    func testAHostTogglesOnlyAToggleAndTypesOnlyIntoAField() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Odd", { state = { on = false, name = "ada" }, body = function(self)
              return ui.VStack {
                ui.Toggle("On", self["$on"]), ui.TextField("Name", self["$name"]),
                ui.Text(tostring(self.on) .. " " .. tostring(self.name)),
              }
            end })()
            """))
        XCTAssertThrowsError(try runtime.toggle(XCTUnwrap(app.find(type: "TextField")))) { error in
            XCTAssertTrue("\(error)".contains(#"toggle: TextField "Name" cannot be toggled (only a Toggle can)"#), "\(error)")
        }
        XCTAssertThrowsError(try runtime.setText(XCTUnwrap(app.find(type: "Toggle")), "yes")) { error in
            XCTAssertTrue("\(error)".contains(#"setText: Toggle "On" cannot be typed into"#), "\(error)")
        }
        XCTAssertNotNil(app.find(text: "false ada"), runtime.text(of: app))
        try runtime.toggle(XCTUnwrap(app.find(type: "Toggle")))
        try runtime.setText(XCTUnwrap(app.find(type: "TextField")), "bob")
        XCTAssertNotNil(app.find(text: "true bob"), runtime.text(of: app))
    }
}
