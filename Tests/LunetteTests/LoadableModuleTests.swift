import Foundation
import XCTest

/// The loadable module in the stock `lua5.4` (scripts/test installs it as
/// .build/lua/lunette.so before the Swift tests run).
final class LoadableModuleTests: XCTestCase {
    private var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private func lua(_ script: String) throws -> (status: Int32, output: String) {
        let module = root.appendingPathComponent(".build/lua/lunette.so")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: module.path), "scripts/test installs the module")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["lua5.4", "-e", script]
        process.environment = ["LUA_CPATH": root.appendingPathComponent(".build/lua/?.so").path + ";;"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// A call hook that raises (the stock interpreter lets a script set one) refuses every call
    /// the runtime makes: a view's update refused before its body ran shows its error and runs
    /// again at the next change (it stayed pending, its error dropped); a failed run's life list
    /// whose diff was refused is kept, so its task is cancelled once and not started twice (the
    /// task ticked on beside the one its recovery started: a hostile read).
    func testCallsRefusedByAHookLeaveNoViewStuckAndNoTaskRunningTwice() throws {
        let result = try lua("""
            local ui = require("lunette")
            local M = ui.Observable("M", { v = 0 })
            local m = M()
            local armed, ticks = false, 0
            debug.sethook(function() if armed then error("hooked") end end, "c")
            ui.effect(function() if m.v == 1 then armed = true end end)
            local Child = ui.View("Child", function() return ui.Text("child") end)
            local app = ui.mount(ui.View("Root", function()
              return ui.VStack({ ui.Text("v=" .. m.v), Child {} })
            end) {})
            m.v = 1
            pcall(ui.flush)
            armed = false
            print("refused:", app:tree():find("Error Root: ", 1, true) ~= nil)
            m.v = 2
            ui.flush()
            print("recovered:", app:tree():find('Text "v=2"', 1, true) ~= nil)
            app:unmount()
            local Ticks = ui.Observable("Ticks", { v = 0 })()
            local ticker = ui.mount(ui.View("Ticker", function()
              if Ticks.v == 1 then armed = true; error("body failed") end
              return ui.Text("t=" .. Ticks.v):task(function() while true do ui.sleep(1); ticks = ticks + 1 end end)
            end) {})
            ui.clock.advance(0)
            Ticks.v = 1
            pcall(ui.flush)
            armed = false
            Ticks.v = 2
            ui.flush()
            ticks = 0
            ui.clock.advance(3)
            print("ticks:", ticks)
            ticker:unmount()
            """)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("refused:\ttrue"), result.output)
        XCTAssertTrue(result.output.contains("recovered:\ttrue"), result.output)
        XCTAssertTrue(result.output.contains("ticks:\t3"), result.output)
    }

    /// Issue 7, class 4: the first require inside a coroutine must not keep
    /// the coroutine's lua_State (it is collected with the coroutine).
    func testAFirstRequireInsideACoroutineOutlivesTheCoroutine() throws {
        let result = try lua("""
            local co = coroutine.create(function() return require("lunette") end)
            local _, ui = coroutine.resume(co)
            co = nil
            collectgarbage(); collectgarbage()
            local B = ui.Observable("B", { t = "x" })
            local b = B()
            local app = ui.mount(ui.View("V", function() return ui.Text(b.t) end)())
            for i = 1, 50 do
              b.t = "y" .. i; ui.flush()
              local junk = {} for j = 1, 1000 do junk[j] = coroutine.create(print) end
              collectgarbage()
            end
            print(app:tree())
            """)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("Text \"y50\""), result.output)
    }
}
