import Foundation
import XCTest

/// Issue 19, session 8: a `lunette test --child` (and what its specs
/// started) ends when its parent `lunette test` dies — killed by `timeout`,
/// a CI runner or a person — instead of running on as an orphan.
extension CommandLineTests {
    /// The pids of the live (not zombie) processes in process group `group`.
    private func liveMembers(ofGroup group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // after "pid (comm)": state ppid pgrp ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
        }
    }

    func testAChildEndsWithWhatItStartedWhenItsParentIsKilled() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orphan_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("child.pid")
        let spec = directory.appendingPathComponent("orphan_spec.lua")
        try """
            describe("an orphan", function()
              it("blocks in C, in a process it started", function()
                local f = io.open("\(pidFile.path)", "w")
                f:write(io.open("/proc/self/stat"):read("l"):match("^(%d+)"))
                f:close()
                os.execute("sleep 300")
              end)
            end)
            """.write(to: spec, atomically: true, encoding: .utf8)
        let parent = Process()
        parent.executableURL = binary
        parent.arguments = ["test", "--timeout", "600", spec.path]   // nothing but the parent's death ends it soon
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        var child: Int32 = 0
        let started = Date()
        while child == 0, Date().timeIntervalSince(started) < 30 {
            child = Int32((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "") ?? 0
            usleep(50_000)
        }
        defer { if child > 0 { kill(-child, SIGKILL) } }               // the cleanup, should the test fail
        XCTAssertGreaterThan(child, 0, "the child never wrote its pid")
        var members: [Int32] = []
        while members.count < 2, Date().timeIntervalSince(started) < 30 {   // the child and the sleep (or its shell)
            members = liveMembers(ofGroup: child)
            usleep(50_000)
        }
        XCTAssertTrue(members.contains(child), "\(members)")
        XCTAssertGreaterThanOrEqual(members.count, 2, "the spec's sleep is not running: \(members)")
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        let killed = Date()
        while !liveMembers(ofGroup: child).isEmpty, Date().timeIntervalSince(killed) < 10 { usleep(50_000) }
        XCTAssertEqual(liveMembers(ofGroup: child), [], "still running 10 s after the parent was killed")
    }
}
