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
