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
}
