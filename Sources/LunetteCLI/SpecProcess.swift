import Foundation

/// Runs one spec file in a child `lunette test --child` process, so nothing
/// a spec does — crash, `os.exit`, a call blocked in C, memory exhaustion —
/// can take the run down with it (TARGETS R13, R17). Results arrive as the
/// child hands them out; a child that stops making progress for longer than
/// the per-test timeout (plus a grace period) is killed, and the test it was
/// running is reported failed. A child that ends without its "done" record
/// failed, whatever its exit status.
struct SpecProcess {
    let file: String
    let childArguments: [String]
    let timeout: Double
    /// Where what the specs print themselves goes.
    var printed: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    /// Called as each test starts (its full name): a terminal shows what is running.
    var started: (String) -> Void = { _ in }
    /// Seconds past the timeout before a silent child is killed: the child's
    /// own limit stops a hung Lua test first; this catches what it cannot.
    static let grace = 5.0

    /// Runs the file; `onCase` receives each finished case as it arrives.
    func run(onCase: (SpecCase) -> Void) -> [SpecCase] {
        var cases: [SpecCase] = []
        func report(_ c: SpecCase) { cases.append(c); onCase(c) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.executablePath)
        process.arguments = ["test", "--child"] + childArguments + [file]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"       // a crash is reported here, briefly
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let stream = ChildStream(output.fileHandleForReading)
        let stderrTail = ChildStream(errors.fileHandleForReading)
        do {
            try process.run()
        } catch {
            report(failure("running \(file)", "could not start a test process: \(error)"))
            return cases
        }
        var running = "loading \(file)"
        var done = false
        var lastProgress = Date()
        var killed = false
        while true {
            let exited = !process.isRunning
            for record in stream.takeRecords(printed: printed) {
                lastProgress = Date()
                switch record.status {
                case "start":
                    running = record.name
                    started(record.name)
                case "done": done = true
                case "passed", "failed", "skipped":
                    report(SpecCase(file: file, name: record.name, status: SpecCase.Status(rawValue: record.status) ?? .failed,
                                    message: record.message, seconds: record.seconds))
                default: break
                }
            }
            if exited { break }
            if Date().timeIntervalSince(lastProgress) > timeout + Self.grace {
                kill(-process.processIdentifier, SIGKILL)      // its group: what it started goes too
                kill(process.processIdentifier, SIGKILL)
                killed = true
                process.waitUntilExit()
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        for record in stream.takeRecords(printed: printed) where ["passed", "failed", "skipped"].contains(record.status) {
            report(SpecCase(file: file, name: record.name, status: SpecCase.Status(rawValue: record.status) ?? .failed,
                            message: record.message, seconds: record.seconds))
        }
        if killed {
            report(failure(running, "timed out after \(timeout)s and was killed (blocked outside Lua?)"))
        } else if !done {
            let how = process.terminationReason == .uncaughtSignal
                ? "crashed (signal \(process.terminationStatus))" : "exited with status \(process.terminationStatus)"
            let tail = stderrTail.text.split(separator: "\n").suffix(3).joined(separator: "\n")
            report(failure(running, "the spec process \(how) before the file finished" + (tail.isEmpty ? "" : ":\n" + tail)))
        }
        return cases
    }

    private func failure(_ name: String, _ message: String) -> SpecCase {
        SpecCase(file: file, name: name, status: .failed, message: message, seconds: 0)
    }
}

/// What a child writes, read on a thread of its own as it comes.
final class ChildStream: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                lock.withLock { buffer.append(data) }
            }
        }
        thread.start()
    }

    /// The complete records received so far, taken out of the buffer; what
    /// the specs printed themselves between records goes to `printed`.
    func takeRecords(printed: (String) -> Void = { _ in }) -> [SpecRecord] {
        lock.withLock {
            var records: [SpecRecord] = []
            while let begin = buffer.firstIndex(of: SpecRecord.recordStart),
                  let end = buffer[begin...].firstIndex(of: SpecRecord.recordEnd) {
                if begin > buffer.startIndex { printed(String(decoding: buffer[buffer.startIndex..<begin], as: UTF8.self)) }
                let text = String(decoding: buffer[buffer.index(after: begin)..<end], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...end)
                if let record = SpecRecord(decoding: text) { records.append(record) }
            }
            if !buffer.isEmpty, !buffer.contains(SpecRecord.recordStart), buffer.last == UInt8(ascii: "\n") {
                printed(String(decoding: buffer, as: UTF8.self))
                buffer.removeAll()
            }
            return records
        }
    }

    /// Everything received, as text.
    var text: String { lock.withLock { String(decoding: buffer, as: UTF8.self) } }
}

extension CommandLine {
    /// This executable, to start children of.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
