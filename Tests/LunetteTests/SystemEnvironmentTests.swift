import Foundation
import Lunette
import XCTest

/// Issue 19, session 9 (the documentation check's item 11): the host sets
/// the values the system gives every view. EnvironmentValues: "SwiftUI
/// automatically sets or updates many environment values, like
/// pixelLength, scenePhase, or locale, based on device characteristics,
/// system state, or user settings"
/// (https://developer.apple.com/documentation/swiftui/environmentvalues);
/// scenePhase: "The system sets this value to provide an indication of the
/// operational state of a scene"
/// (https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase).
final class SystemEnvironmentTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        phases = {}
        local Probe = ui.View("SystemProbe", { environment = { scheme = "colorScheme", phase = "scenePhase", locale = "locale" },
          body = function(self)
            return ui.Text(("%s %s %s"):format(self.scheme, self.phase, self.locale))
              :onChange(self.phase, function(_, new) phases[#phases + 1] = new end)
          end })
        return ui.View("SystemRoot", function()
          return ui.VStack { Probe {}, ui.Group { Probe {} }:environment("colorScheme", "light") }
        end)()
        """

    func testTheHostSetsColorSchemeScenePhaseAndLocaleAndReadersRenderAgain() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: script))
        XCTAssertNotNil(app.find(text: "light active en_US"), runtime.text(of: app))
        try runtime.setEnvironment("scenePhase", to: "background")
        try runtime.setEnvironment("colorScheme", to: "dark")
        try runtime.setEnvironment("locale", to: "fr_FR")
        XCTAssertNotNil(app.find(text: "dark background fr_FR"), runtime.text(of: app))
        XCTAssertNotNil(app.find(text: "light background fr_FR"), runtime.text(of: app))   // :environment above wins
        XCTAssertEqual(try runtime.evaluate("return table.concat(phases, ',')", name: "=check"), ["background,background"])
    }

    func testAValueTheKeyCannotHoldAndAnyOtherKeyAreErrors() throws {
        let runtime = try LunetteRuntime()
        _ = try XCTUnwrap(try runtime.run(source: script))
        XCTAssertThrowsError(try runtime.setEnvironment("colorScheme", to: "blue")) { error in
            XCTAssertTrue("\(error)".contains(#"setEnvironment("colorScheme", …): "light" or "dark" expected, got "blue""#), "\(error)")
        }
        XCTAssertThrowsError(try runtime.setEnvironment("isPresented", to: "true")) { error in
            XCTAssertTrue("\(error)".contains("'isPresented' is not a value the system sets (colorScheme, locale or scenePhase)"), "\(error)")
        }
    }
}
