import CLunette
import Foundation
import XCTest
import Lunette

/// A runtime over a Lua state someone else made and closes (the stock
/// interpreter loading the module): the state may close while the runtime
/// lives on.
final class AdoptedStateTests: XCTestCase {
    /// The watchdog thread looks at every runtime's budget each 20 ms. Before
    /// session 13 it looked through the runtime's C state — a userdata of the
    /// Lua state, freed when that state closed — so under busted it read freed
    /// memory at exit (a hostile read saw it with valgrind; the address
    /// sanitizer run of this test, scripts/sanitize, reports it). Now it holds
    /// the budget, which the runtime owns, and a closing state empties the
    /// budget's chain of its threads.
    func testAStateClosedBeforeItsRuntimeLeavesTheWatchdogNothingFreedToRead() throws {
        let state = try XCTUnwrap(lun_new_state(0))
        XCTAssertEqual(lun_open_libraries(state, 0), LUN_OK)
        var runtime: LunetteRuntime? = try LunetteRuntime(adopting: state)
        _ = try runtime?.evaluate("""
            local ui = require("lunette")
            local Box = ui.Observable("Box", { n = 1 })
            box = Box()
            app = ui.mount(ui.View("Reader", function() return ui.Text("n " .. box.n) end)())
            box.n = 2
            ui.flush()
            """)
        lua_close(state)
        Thread.sleep(forTimeInterval: 0.1)            // the watchdog looks at least four times
        runtime = nil                                 // and the runtime goes after its state, as in busted
        XCTAssertNil(runtime)
    }
}
