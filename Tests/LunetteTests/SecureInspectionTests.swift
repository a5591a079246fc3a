import Foundation
import Lunette
import XCTest

/// Issue 19, session 8: a SecureField's text never shows — not in trees,
/// and not in inspection either (the REPL's `:state`, the preview's
/// inspector, `runtime.state(of:)` and `runtime.inspect(_:)`). SecureField
/// "Displays one dot for each character someone types"
/// (https://developer.apple.com/documentation/swiftui/securefield): the state
/// a SecureField binds is shown as its bullets, marked hidden, and a Binding
/// input that reaches it too; other state shows as before.
final class SecureInspectionTests: XCTestCase {
    private let script = """
        local ui = require("lunette")
        local Pin = ui.View("PinField", { binding = { "code" }, body = function(self)
          return ui.SecureField("PIN", self["$code"])
        end })
        return ui.View("Login", { state = { user = "ada", pw = "sesame", pin = "1234", form = { secret = "hunter2" } },
          body = function(self)
            return ui.VStack {
              ui.TextField("User", self["$user"]),
              ui.SecureField("Password", self["$pw"]),
              Pin { code = self["$pin"] },
              ui.SecureField("Secret", self["$form"].secret),
            }
          end })()
        """

    func testStateASecureFieldBindsIsHiddenInInspection() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: script))
        let state = try XCTUnwrap(try runtime.state(of: "Login"))
        for secret in ["sesame", "1234", "hunter2"] { XCTAssertFalse(state.contains(secret), state) }
        XCTAssertTrue(state.contains(#"pw = "••••••" (hidden: a SecureField's text)"#), state)
        XCTAssertTrue(state.contains(#"pin = "••••" (hidden: a SecureField's text)"#), state)   // bound in a child view
        XCTAssertTrue(state.contains("form = (hidden: a SecureField's text)"), state)           // a field of it is bound
        XCTAssertTrue(state.contains(#"user = "ada""#), state)                                   // a TextField's is not hidden
        let login = try XCTUnwrap(runtime.inspect(try XCTUnwrap(app.find(type: "Login"))))
        XCTAssertFalse(login.state.contains("sesame"), login.state)
        let pin = try XCTUnwrap(runtime.inspect(try XCTUnwrap(app.find(type: "PinField"))))
        XCTAssertFalse(pin.inputs.contains("1234"), pin.inputs)                                  // the Binding input
        XCTAssertTrue(pin.inputs.contains(#"code = Binding("••••") (hidden: a SecureField's text)"#), pin.inputs)
        // Writing still works (the REPL's :set, the preview's inspector): nothing is shown.
        try runtime.setState(of: "Login", "pw", to: #""open""#)
        XCTAssertTrue(try XCTUnwrap(try runtime.state(of: "Login")).contains(#"pw = "••••" (hidden: a SecureField's text)"#))
    }

    /// Session 9: the leaks the hostile read of session 8 found, each
    /// closed by one rule (model/lun_secret.c): what a SecureField's binding
    /// reached is secret on its instance and its declaration, and a Binding
    /// whose value comes from a secret source hides itself wherever it is
    /// described.
    private let leaks = """
        local ui = require("lunette")
        local Child = ui.View("Child", { binding = { "code" }, body = function(self) return ui.Text("child") end })
        return ui.View("Login", { state = { pw = "sesame", pw2 = "hunter2", pw3 = "swordfish", user = "ada" },
          body = function(self)
            return ui.VStack {
              ui.SecureField("Password", self["$pw"]),
              ui.SecureField("P2", ui.Binding(function() return self.pw2 end, function(v) self.pw2 = v end)),
              ui.SecureField("P3", self["$pw3"]),
              Child { code = self["$pw"], wrapped = { b = self["$pw3"] }, list = { self["$pw"] }, who = self["$user"] },
            }
          end })()
        """

    func testABindingInsideATableInputIsHidden() throws {
        let runtime = try LunetteRuntime()
        let app = try XCTUnwrap(try runtime.run(source: leaks))
        let child = try XCTUnwrap(runtime.inspect(try XCTUnwrap(app.find(type: "Child"))))
        for secret in ["sesame", "swordfish"] { XCTAssertFalse(child.inputs.contains(secret), child.inputs) }
        XCTAssertTrue(child.inputs.contains(#"wrapped = {b=Binding("•••••••••") (hidden: a SecureField's text)}"#), child.inputs)
        XCTAssertTrue(child.inputs.contains(#"list = {Binding("••••••") (hidden: a SecureField's text)}"#), child.inputs)
        XCTAssertTrue(child.inputs.contains(#"who = Binding("ada")"#), child.inputs)               // a TextField's: shown
    }

    func testStateAGetSetBindingReadsIsHidden() throws {
        let runtime = try LunetteRuntime()
        _ = try XCTUnwrap(try runtime.run(source: leaks))
        let state = try XCTUnwrap(try runtime.state(of: "Login"))
        XCTAssertFalse(state.contains("hunter2"), state)
        XCTAssertTrue(state.contains(#"pw2 = "•••••••" (hidden: a SecureField's text)"#), state)
        XCTAssertTrue(state.contains(#"user = "ada""#), state)
    }

    /// A field not walked yet: a sheet another Login showed, and the first
    /// inspection after a reload that made the state anew.
    func testStateOfAFieldNotWalkedYetIsHidden() throws {
        let script = """
            local ui = require("lunette")
            local Login = ui.View("SheetLogin", { state = { pw = "sesame", asking = false }, body = function(self)
              return ui.Button("Sign in", function() self.asking = true end)
                :sheet(self["$asking"], function() return ui.SecureField("Password", self["$pw"]) end)
            end })
            return ui.View("Two", { state = { second = false }, body = function(self)
              return ui.VStack { Login {}, self.second and Login {} or ui.Button("more", function() self.second = true end) }
            end })()
            """
        let file = NSTemporaryDirectory() + "secure-\(UUID().uuidString).lua"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let runtime = try LunetteRuntime(options: .init(sandboxed: false, virtualClock: true))
        let app = try XCTUnwrap(try runtime.run(file: file))
        try runtime.tap(try XCTUnwrap(app.find(text: "Sign in")))
        XCTAssertTrue(try XCTUnwrap(runtime.state(of: "SheetLogin#1")).contains("(hidden: a SecureField's text)"))
        try runtime.tap(try XCTUnwrap(app.find(text: "more")))
        let second = try XCTUnwrap(runtime.state(of: "SheetLogin#2"))         // its sheet was never shown
        XCTAssertFalse(second.contains("sesame"), second)
        XCTAssertTrue(second.contains(#"pw = "••••••" (hidden: a SecureField's text)"#), second)

        try script.replacingOccurrences(of: "asking = false }", with: "asking = false, tries = 0 }")
            .write(toFile: file, atomically: true, encoding: .utf8)             // new keys: the state is made anew
        _ = try runtime.reload(file: file)
        let reloaded = try XCTUnwrap(runtime.state(of: "SheetLogin#1"))
        XCTAssertTrue(reloaded.contains("tries = 0"), reloaded)
        XCTAssertFalse(reloaded.contains("sesame"), reloaded)
    }
}
