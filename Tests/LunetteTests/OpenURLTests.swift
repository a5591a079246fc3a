import Foundation
import Lunette
import XCTest

/// Issue 19, session 7: `openURL` from the environment (SwiftUI's
/// `OpenURLAction`): the host decides what opening means (`onOpenURL`), the
/// command line prints it; a view's own action may hand a URL on with
/// "systemAction" (https://developer.apple.com/documentation/swiftui/openurlaction).
final class OpenURLTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        local Opener = ui.View("Opener", { environment = { openURL = "openURL" }, body = function(self)
          return ui.Button(self.label, function() self.openURL(self.url) end)
        end })
        return ui.VStack {
          Opener { label = "help", url = "https://example.com/help" },
          Opener { label = "docs", url = "docs" }:environment("openURL", function(url)
            if url == "docs" then return "systemAction", "https://example.com/docs" end
            return "handled"
          end),
          Opener { label = "kept", url = "https://example.com/kept" }:environment("openURL", function() return "discarded" end),
          Opener { label = "same", url = "https://example.com/same" }:environment("openURL", function() return "systemAction" end),
        }
        """

    func testTheHostHearsOfEachURLAfterTheCallThatOpenedIt() throws {
        let runtime = try LunetteRuntime()
        var opened: [String] = []
        runtime.onOpenURL { opened.append($0) }
        let app = try XCTUnwrap(try runtime.run(source: script))
        XCTAssertEqual(opened, [])
        try runtime.tap(XCTUnwrap(app.find(text: "help", type: "Button")))
        XCTAssertEqual(opened, ["https://example.com/help"])
        try runtime.tap(XCTUnwrap(app.find(text: "kept", type: "Button")))    // its view's action discarded it
        XCTAssertEqual(opened, ["https://example.com/help"])
        runtime.onOpenURL(nil)
        try runtime.tap(XCTUnwrap(app.find(text: "help", type: "Button")))    // nobody listens: dropped
        runtime.onOpenURL { opened.append($0) }
        runtime.flush()
        XCTAssertEqual(opened, ["https://example.com/help"])
    }

    func testAViewsOwnActionMayHandTheURLOnWithSystemAction() throws {
        let runtime = try LunetteRuntime()
        var opened: [String] = []
        runtime.onOpenURL { opened.append($0) }
        let app = try XCTUnwrap(try runtime.run(source: script))
        try runtime.tap(XCTUnwrap(app.find(text: "docs", type: "Button")))    // "systemAction" with another URL
        try runtime.tap(XCTUnwrap(app.find(text: "same", type: "Button")))    // "systemAction": the same one
        XCTAssertEqual(opened, ["https://example.com/docs", "https://example.com/same"])
    }

    func testTheCommandLinePrintsTheURL() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("open_\(UUID().uuidString).lua")
        try """
            local ui = require("lunette")
            return ui.View("Opener", { environment = { openURL = "openURL" }, body = function(self)
              return ui.Text("opening"):onAppear(function() self.openURL("https://example.com/start") end)
            end })()
            """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(output.contains("open URL: https://example.com/start\n"), output)
        XCTAssertTrue(output.contains("Text \"opening\""), output)
    }
}
