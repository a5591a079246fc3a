import Lunette
import XCTest

/// The embedding's sandbox is an allow-list (TARGETS R5): what is not on it
/// does not exist, however a script looks for it.
final class SandboxTests: XCTestCase {
    private func evaluate(_ source: String, sandboxed: Bool = true) throws -> [String] {
        try LunetteRuntime(options: .init(sandboxed: sandboxed)).evaluate(source)
    }

    func testR5NothingOutsideTheAllowListCanBeReached() throws {
        let reached = try evaluate("""
            local found = {}
            local function probe(name, value) if value ~= nil then found[#found + 1] = name end end
            probe("io", io); probe("dofile", dofile); probe("loadfile", loadfile)
            probe("string.dump", string.dump); probe("package.loadlib", package.loadlib)
            probe("package.searchpath", package.searchpath)
            for _, name in ipairs { "io", "os", "debug" } do
              local ok, lib = pcall(require, name)
              if ok and type(lib) == "table" then
                for key in pairs(lib) do
                  local allowed = { clock = 1, time = 1, date = 1, difftime = 1, traceback = 1 }
                  if not allowed[key] then found[#found + 1] = name .. "." .. key end
                end
              elseif ok then found[#found + 1] = "require " .. name end
            end
            for name in pairs(package.loaded) do
              local allowed = { _G = 1, package = 1, coroutine = 1, table = 1, string = 1, math = 1,
                                utf8 = 1, os = 1, debug = 1, lunette = 1 }
              if not allowed[name] then found[#found + 1] = "package.loaded." .. name end
            end
            probe("debug.getregistry", debug.getregistry); probe("os.execute", os.execute)
            probe("os.getenv", os.getenv); probe("os.exit", os.exit); probe("os.remove", os.remove)
            probe("C searcher", package.searchers[3]); probe("all-in-one searcher", package.searchers[4])
            return table.concat(found, ", ")
            """)
        XCTAssertEqual(reached, [""])
    }

    func testR5BinaryChunksAreRefused() throws {
        let bytecode = try evaluate("return #string.dump(function() end) > 0", sandboxed: false)
        XCTAssertEqual(bytecode, ["true"])
        let result = try evaluate("""
            local ok, err = load("\\27Lua binary")
            return ok == nil and err:find("attempt to load a binary chunk") ~= nil
            """)
        XCTAssertEqual(result, ["true"])
    }

    func testR5RequireFindsNoFilesOutsideTheModulePaths() throws {
        let result = try evaluate("return (pcall(require, 'busted'))")
        XCTAssertEqual(result, ["false"])
    }

    func testR22AssigningPackagePathReachesNoFileOutsideTheHostsModulePaths() throws {
        let fm = FileManager.default
        let base = fm.temporaryDirectory.appendingPathComponent("r22_\(UUID().uuidString)")
        let scripts = base.appendingPathComponent("scripts"), outside = base.appendingPathComponent("outside")
        try fm.createDirectory(at: scripts, withIntermediateDirectories: true)
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: base) }
        try "return { ok = 'mine' }".write(to: scripts.appendingPathComponent("helper.lua"), atomically: true, encoding: .utf8)
        try "TOKEN=secret".write(to: outside.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try "return 'secret module'".write(to: outside.appendingPathComponent("stolen.lua"), atomically: true, encoding: .utf8)
        let runtime = try LunetteRuntime(options: .init(sandboxed: true, modulePaths: [scripts.path]))
        let result = try runtime.evaluate("""
            local seen = { require("helper").ok }
            package.path = "\(outside.path)/?;\(outside.path)/?.lua;/etc/?"
            for _, name in ipairs { "stolen", ".env", "os-release", "../outside/stolen", "" } do
              local ok, err = pcall(require, name)
              seen[#seen + 1] = tostring(ok) .. ":" .. tostring(err)
            end
            return table.concat(seen, "|")
            """)[0]
        XCTAssertTrue(result.hasPrefix("mine|false:"), result)
        for leak in ["secret", "TOKEN", outside.path, "/etc", "os-release'" + " from"] {
            XCTAssertFalse(result.contains(leak), "\(leak) in \(result)")
        }
        XCTAssertTrue(result.contains("no module 'stolen' in the script's module paths"), result)
        XCTAssertTrue(result.contains("the sandbox finds modules by names of letters"), result)
    }

    /// Found by the hostile pass: a link in the module folder pointing out,
    /// and a folder whose name holds ';' or '?' (it was parsed as templates).
    func testR22NeitherLinksNorTemplateCharactersInAFolderNameReachOutside() throws {
        let fm = FileManager.default
        let base = fm.temporaryDirectory.appendingPathComponent("r22b_\(UUID().uuidString)")
        let scripts = base.appendingPathComponent("odd;name?"), outside = base.appendingPathComponent("outside")
        try fm.createDirectory(at: scripts, withIntermediateDirectories: true)
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: base) }
        try "TOKEN = 'secret'".write(to: outside.appendingPathComponent("secret.lua"), atomically: true, encoding: .utf8)
        try "return 'mine'".write(to: scripts.appendingPathComponent("mine.lua"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: scripts.appendingPathComponent("cfg.lua").path, withDestinationPath: "../outside/secret.lua")
        try fm.createSymbolicLink(atPath: scripts.appendingPathComponent("root").path, withDestinationPath: "/")
        try fm.createSymbolicLink(atPath: scripts.appendingPathComponent("pw.lua").path, withDestinationPath: "/etc/passwd")
        let runtime = try LunetteRuntime(options: .init(sandboxed: true, modulePaths: [scripts.path]))
        let outsideModule = outside.path.dropFirst().replacingOccurrences(of: "/", with: ".") + ".secret"
        let result = try runtime.evaluate("""
            local seen = { (require("mine")) }
            for _, name in ipairs { "cfg", "pw", "root.etc.passwd", "\(outsideModule)", "secret" } do
              local ok, err = pcall(require, name)
              seen[#seen + 1] = tostring(ok)
            end
            return table.concat(seen, " ") .. " " .. tostring(TOKEN)
            """)[0]
        XCTAssertEqual(result, "mine false false false false false nil")
    }

    func testR5TheAllowedLibrariesWork() throws {
        let result = try evaluate("""
            local ui = require("lunette")
            return table.concat({ string.format("%d", math.floor(2.5)), utf8.char(72), type(os.time()),
                                  type(debug.traceback()), tostring(coroutine.wrap(function() return 1 end)()) }, " ")
            """)
        XCTAssertEqual(result, ["2 H number string 1"])
    }

    func testFinalizersAreRefusedEvenOutsideTheSandbox() throws {
        XCTAssertThrowsError(try evaluate("setmetatable({}, { __gc = print })", sandboxed: false)) { error in
            XCTAssertTrue("\(error)".contains("finalizers (__gc) are not available"), "\(error)")
        }
        XCTAssertThrowsError(try evaluate("debug.setmetatable({}, { __gc = print })", sandboxed: false))
    }
}
