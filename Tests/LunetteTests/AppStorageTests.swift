import Foundation
import XCTest
import Lunette
import LunetteStorage

/// T04: `appStorage` kept by a host's store — SQLite here — across runtimes
/// and processes; a broken store gives defaults and a clear error.
final class AppStorageTests: XCTestCase {
    private let counter = """
        local ui = require("lunette")
        return ui.View("Launches", { appStorage = { launches = 0, theme = ui.AppStorage("ui.theme", { name = "dark" }) },
          body = function(self)
            return ui.Button("launches " .. self.launches .. " " .. self.theme.name, function()
              self.launches = self.launches + 1
              self.theme.name = "light"
            end)
          end })()
        """

    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store_\(UUID().uuidString).sqlite").path
    }

    private func tapOnce(_ runtime: LunetteRuntime) throws -> String? {
        let app = try XCTUnwrap(try runtime.run(source: counter))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        return app.nodes.first?.children.first?.text
    }

    func testT04AValueWrittenInOneRuntimeIsReadByTheNext() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try tapOnce(first), "launches 1 light")
        let second = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
        XCTAssertEqual(try tapOnce(second), "launches 2 light")
        XCTAssertTrue(first.storageErrors.isEmpty && second.storageErrors.isEmpty, "\(second.storageErrors)")
    }

    func testT04EveryKindOfValueComesBackAsItWasKept() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAppStorage(path: path)
        try store.setValue(.bool(true), forKey: "b")
        try store.setValue(.int(42), forKey: "i")
        try store.setValue(.double(2.0), forKey: "d")
        try store.setValue(.string("é"), forKey: "s")
        try store.setValue(.list([.int(1), .string("x")]), forKey: "l")
        try store.setValue(.table(["a": .double(1.5), "n": .table(["on": .bool(false)])]), forKey: "t")
        let again = try SQLiteAppStorage(path: path)
        guard case .bool(true)? = try again.value(forKey: "b"), case .int(42)? = try again.value(forKey: "i"),
              case .double(2.0)? = try again.value(forKey: "d"), case .string("é")? = try again.value(forKey: "s"),
              case .list(let list)? = try again.value(forKey: "l"), case .table(let table)? = try again.value(forKey: "t")
        else { return XCTFail("a value changed kind") }
        guard case .int(1) = list[0], case .string("x") = list[1], case .double(1.5)? = table["a"],
              case .table(let nested)? = table["n"], case .bool(false)? = nested["on"]
        else { return XCTFail("a list or table changed: \(list) \(table)") }
        try again.setValue(.none, forKey: "i")
        XCTAssertNil(try again.value(forKey: "i"))
        XCTAssertNil(try again.value(forKey: "never written"))
    }

    func testT04AFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "my notes, not a database".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SQLiteAppStorage(path: path)) { error in
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("not a database"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "my notes, not a database")
    }

    /// A store that fails: the script runs on its defaults, and the failure is reported once.
    func testT04AFailingStoreGivesDefaultsAndOneError() throws {
        final class Broken: AppStorageStore {
            struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }
            func value(forKey key: String) throws -> LuaValue? { throw Failure() }
            func setValue(_ value: LuaValue, forKey key: String) throws { throw Failure() }
        }
        let runtime = try LunetteRuntime(options: .init(appStorage: Broken()))
        XCTAssertEqual(try tapOnce(runtime), "launches 1 light")
        XCTAssertEqual(runtime.storageErrors.count, 1, "\(runtime.storageErrors)")
        XCTAssertTrue(runtime.storageErrors[0].contains("disk on fire"))
    }

    /// A value the binding let in that cannot be stored (a function in a
    /// table the cell holds) is reported at the flush; the others are kept.
    func testT04AnUnstorableNestedValueIsReportedAtTheFlush() throws {
        let store = MemoryAppStorage()
        let runtime = try LunetteRuntime(options: .init(appStorage: store))
        let app = try XCTUnwrap(try runtime.run(source: """
            local ui = require("lunette")
            return ui.View("Nested", { appStorage = { box = { }, n = 0 }, body = function(self)
              return ui.Button("go", function() self.box.f = print; self.n = 5 end)
            end })()
            """))
        try runtime.tap(try XCTUnwrap(app.nodes.first?.children.first))
        XCTAssertTrue(runtime.effectErrors.contains { $0.contains("appStorage 'box' cannot hold a function") },
                      "\(runtime.effectErrors)")
        guard case .int(5)? = store.value(forKey: "n") else { return XCTFail("n was not kept") }
    }
}
