import Foundation
import XCTest

/// The C module in rooms (issue 17, item 4): every C file lives in one of
/// five folders, ordered core < model < life < view < drive, and includes
/// only the headers of its own room and the rooms below it. C refuses a call
/// to a function no included header declares, so these includes are the
/// whole list of what a file may call: no call runs from a lower room to a
/// higher one, and no call cycle spans rooms.
final class RoomsTests: XCTestCase {
    /// The rooms, lowest first.
    static let rooms = ["core", "model", "life", "view", "drive"]

    static var moduleDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CLunette")
    }

    /// The room headers a source file includes ("room/room.h").
    static func roomIncludes(of file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("#include \"") else { return nil }
            let path = line.dropFirst("#include \"".count).prefix { $0 != "\"" }
            let parts = path.split(separator: "/")
            guard parts.count == 2, parts[1] == "\(parts[0]).h" else { return nil }
            return String(parts[0])
        }
    }

    func testEveryCFileLivesInARoom() throws {
        let top = try FileManager.default.contentsOfDirectory(atPath: Self.moduleDirectory.path)
        let loose = top.filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        XCTAssertEqual(loose, [], "C files outside the rooms (core, model, life, view, drive)")
        XCTAssertEqual(Set(top).subtracting(["include"]), Set(Self.rooms), "the module's folders are the rooms and include/")
    }

    func testAFileIncludesOnlyItsOwnRoomAndTheRoomsBelow() throws {
        var checked = 0
        for (rank, room) in Self.rooms.enumerated() {
            let folder = Self.moduleDirectory.appendingPathComponent(room)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                guard name.hasSuffix(".c") || name.hasSuffix(".h") else { continue }
                let includes = try Self.roomIncludes(of: folder.appendingPathComponent(name))
                for included in includes {
                    guard let other = Self.rooms.firstIndex(of: included) else {
                        XCTFail("\(room)/\(name) includes \(included)/\(included).h, which is no room"); continue
                    }
                    XCTAssertLessThanOrEqual(other, rank, "\(room)/\(name) (room \(room)) includes the higher room \(included)")
                }
                if name.hasSuffix(".c") && name != "lun_graph.c" {
                    XCTAssertTrue(includes.contains(room), "\(room)/\(name) does not include its own room's header")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 40)
    }

    /// A room header stands on the rooms below it only.
    func testARoomHeaderIncludesOnlyLowerRooms() throws {
        for (rank, room) in Self.rooms.enumerated() {
            let header = Self.moduleDirectory.appendingPathComponent("\(room)/\(room).h")
            for included in try Self.roomIncludes(of: header) {
                XCTAssertLessThan(Self.rooms.firstIndex(of: included) ?? .max, rank, "\(room).h includes \(included).h")
            }
        }
    }
}
