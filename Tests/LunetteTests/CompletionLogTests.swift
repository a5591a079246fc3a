import Foundation
import Lunette
import XCTest

/// Issue 19, session 7 (a known bug from the hostile read of session 6):
/// `withAnimation` logs the signals its body changes (at most 4096), to
/// know whether a view animates and when its completion runs. The log must
/// be reset even when what runs after the body raises — memory exhausted
/// while making the table of changed signals —, or it stays full and every
/// later body seems to change nothing: its completion would run right after
/// the body although a view animates
/// (https://developer.apple.com/documentation/swiftui/withanimation(_:completioncriteria:_:completion:)).
final class CompletionLogTests: XCTestCase {
    func testAnAllocationFailingAfterTheBodyLeavesTheLogEmptyForLaterBodies() throws {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true, memoryLimit: 24 << 20))
        _ = try runtime.run(source: """
            local ui = require("lunette")
            local Cell = ui.Observable("Cell", { v = 0 })
            cells = {}
            for i = 1, 4200 do cells[i] = Cell() end
            watched = Cell()
            ui.effect(function() for i = 1, #cells do local _ = cells[i].v end end)   -- each cell is a tracked signal
            return ui.View("Watched", function() return ui.Text("v " .. watched.v) end)()
            """)
        let failed = try runtime.evaluate("""
            local ui = require("lunette")
            local ok, err = pcall(ui.withAnimation, ui.Animation.linear(1), function()
              for i = 1, #cells do cells[i].v = 1 end                   -- the log fills (4096)
              for _, size in ipairs({ 4000, 100, 1 }) do                -- memory, to the last bytes
                pcall(function() while true do hog = { hog, ("x"):rep(size) } end end)
              end
            end, function() end)
            hog = nil
            collectgarbage()
            return ok, tostring(err)
            """)
        XCTAssertEqual(failed.first, "false")
        XCTAssertTrue(failed.last?.contains("not enough memory") ?? false, "\(failed)")
        let completion = try runtime.evaluate("""
            local ui = require("lunette")
            done = false
            ui.withAnimation(ui.Animation.linear(1), function() watched.v = 2 end, function() done = true end)
            ui.clock.advance(0)
            local early = done
            ui.clock.advance(1.5)
            return early, done
            """)
        XCTAssertEqual(completion, ["false", "true"])   // a view animates: the completion waits for the duration
    }
}
