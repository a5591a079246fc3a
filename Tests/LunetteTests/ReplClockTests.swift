import Foundation
import XCTest

/// Issue 20, item 3: under the real clock the REPL's timers and tasks run
/// while the prompt waits, and what re-renders is shown without disturbing
/// the line being typed (through a pseudo-terminal, as a person uses it).
/// Item 6: `:deps` lists each dependency once.
final class ReplClockTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func script(_ text: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repl_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("clock.lua")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A fresh user's report: with input piped in, the clock stood still
    /// while the REPL waited for the next line (a task sleeping 0.5 s had
    /// stepped once after 6 s), where the README says a piped session runs
    /// as a typed one.
    func testWithInputPipedInTimersTickWhileTheNextLineIsAwaited() throws {
        let file = try script("""
            local Ticks = ui.Observable("Ticks", { n = 0 })
            local ticks = Ticks()
            return ui.View("Ticky", function()
              return ui.Text("ticks " .. ticks.n):task(function()
                while true do ui.sleep(0.2); ticks.n = ticks.n + 1 end
              end)
            end)()
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (process, input, out) = try startedLunette(["repl", file.path])
        Thread.sleep(forTimeInterval: 1.1)               // the pipe is open, no line yet
        input.write(Data("print(ticks_seen)\n:tree\n".utf8))
        try input.close()
        let output = String(decoding: out.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let steps = output.components(separatedBy: "• task step Ticky#1").count - 1
        XCTAssertGreaterThanOrEqual(steps, 4, "the task stepped while the line was awaited: \(output)")
        let shown = output.components(separatedBy: "Text \"ticks ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        XCTAssertGreaterThanOrEqual(shown, 4, output)
    }

    /// A hostile read of the piped reader: Ctrl-C while it waited for the
    /// next line was ignored (it ended the session before, as the input's
    /// end does); and a line that Ctrl-C stopped must not end the session.
    func testWithInputPipedInCtrlCAtThePromptEndsTheSession() throws {
        let (process, input, out) = try startedLunette(["repl"])
        input.write(Data("x = 1\nwhile true do end\n".utf8))
        Thread.sleep(forTimeInterval: 0.8)
        kill(process.processIdentifier, SIGINT)          // stops the loop: the session goes on
        Thread.sleep(forTimeInterval: 0.5)
        input.write(Data("print('still ' .. x)\n".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGINT)          // at the prompt: the session ends, the pipe still open
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(process.isRunning, "Ctrl-C at the prompt ended the session")
        if process.isRunning { process.terminate() }
        try input.close()
        let output = String(decoding: out.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(output.contains("still 1"), output)
    }

    func testTimersTickWhileThePromptWaitsAndThePartialLineSurvives() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let file = try script("""
            local Clock = ui.View("Clock", {
              state = { ticks = 0 },
              body = function(self)
                return ui.Text("ticks " .. self.ticks)
                  :onReceive(ui.Timer.publish(0.2), function() self.ticks = self.ticks + 1 end)
              end,
            })
            return Clock()
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let terminal = try PseudoTerminal(binary: binary, arguments: ["repl", file.path],
                                          home: file.deletingLastPathComponent().path)
        func ticks(_ text: String) -> Int { text.components(separatedBy: "(Clock.state#1.ticks").count - 1 }

        XCTAssertTrue(terminal.wait(for: "> "), terminal.output)
        let started = Date()
        Thread.sleep(forTimeInterval: 1.1)               // idle at the prompt
        let idle = ticks(terminal.output)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(idle, 4, "the timer fired while the prompt waited: \(terminal.output)")
        XCTAssertLessThanOrEqual(abs(Double(idle) - elapsed / 0.2), 1.5, "one tick per 0.2 s (\(idle) in \(elapsed) s)")

        terminal.type("print(\"he")                     // half a line, then the clock ticks over it
        XCTAssertTrue(terminal.wait(for: "> print(\"he"), terminal.output)
        let typed = terminal.output.endIndex
        Thread.sleep(forTimeInterval: 0.5)
        let during = String(terminal.output[typed...])
        XCTAssertGreaterThanOrEqual(ticks(during), 1, "ticks while a line is half typed: \(during)")
        XCTAssertTrue(during.hasSuffix("> print(\"he"), "the prompt and the partial line are drawn again: \(during)")
        let finishing = terminal.output.endIndex
        terminal.type("llo\")\r")
        XCTAssertTrue(terminal.wait(for: "hello\r\n", after: finishing), "the line completes as typed: \(terminal.output)")
        terminal.type(":tree\r")
        XCTAssertTrue(terminal.wait(for: "Text \"ticks ", after: finishing), terminal.output)
        terminal.type(":quit\r")
        XCTAssertTrue(terminal.waitForExit())
    }

    /// After a reload a view depends on two environment entries with one label (and, once the
    /// model changes, two `M#1.n`); `:deps` said each twice.
    func testDepsListsEachDependencyOnce() throws {
        let binary = root.appendingPathComponent(".build/debug/lunette")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
        let file = try script("""
            local M = ui.Observable("M", { n = 1 })
            local V = ui.View("V", { environment = { m = M }, body = function(self)
              return ui.VStack { ui.Text(tostring(self.m.n)), ui.Text(tostring(self.m.n)) }
            end })
            local W = ui.View("W", { environment = { m = M }, body = function(self)
              return ui.Text(tostring(self.m.n + self.m.n))
            end })
            m = M()
            return ui.VStack { V(), W() }:environment(m)
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["repl", file.path]
        let out = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardInput = inp
        try process.run()
        inp.fileHandleForWriting.write(Data(":deps V\n:reload\n:deps V\nm.n = 5\n:deps V\n".utf8))
        try inp.fileHandleForWriting.close()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let answers = output.components(separatedBy: "> :deps V\n").dropFirst().map { $0.components(separatedBy: "> ")[0] }
        XCTAssertEqual(answers.count, 3, output)
        for answer in answers {
            let lines = answer.split(separator: "\n")
            XCTAssertEqual(lines.count, Set(lines).count, "each dependency once: \(answer)")
            XCTAssertTrue(lines.contains("M#1.n") || lines.contains { $0.hasSuffix(".n") }, answer)
        }
    }
}
