import Foundation

/// Runs one spec file in a child `lunette test --child` process, so nothing
/// a spec does — crash, `os.exit`, a call blocked in C, memory exhaustion —
/// can take the run down with it (TARGETS R13, R17). Results arrive as the
/// child hands them out, on a channel of their own (SpecChannel, R25): what
/// the specs print to stdout and stderr passes through verbatim and never
/// changes a verdict. A child that stops making progress for longer than
/// the per-test timeout (plus a grace period) is killed, and the test it was
/// running is reported failed. A child that ends without its "done" record,
/// or whose channel carried anything malformed, failed, whatever its exit status.
struct SpecProcess {
    let file: String
    let childArguments: [String]
    let timeout: Double
    /// Where what the specs print to stdout goes, as the bytes they wrote.
    var printed: (Data) -> Void = { FileHandle.standardError.write($0) }
    /// Where what they print to stderr goes.
    var printedErrors: (Data) -> Void = { FileHandle.standardError.write($0) }
    /// Called as each test starts (its full name): a terminal shows what is running.
    var started: (String) -> Void = { _ in }
    /// Seconds past the timeout before a silent child is killed: the child's
    /// own limit stops a hung Lua test first; this catches what it cannot.
    static let grace = 5.0

    /// Runs the file; `onCase` receives each finished case as it arrives.
    func run(onCase: (SpecCase) -> Void) -> [SpecCase] {
        var cases: [SpecCase] = []
        func report(_ c: SpecCase) { cases.append(c); onCase(c) }
        let child: ChildIO
        do {
            child = try ChildIO.start(file: file, arguments: ["test", "--child"] + childArguments + [file])
        } catch {
            report(failure("running \(file)", "could not start a test process: \(error)"))
            return cases
        }
        var running = "loading \(file)"
        var lastProgress = Date()
        var killed = false
        var decoder = SpecChannelDecoder()
        var stderrTail = Data()
        child.pump(printed: printed, printedErrors: { data in
            stderrTail = Data((stderrTail + data).suffix(4096))
            printedErrors(data)
        }, results: { data in
            for record in decoder.take(data) {
                lastProgress = Date()
                switch record.status {
                case "start":
                    running = record.name
                    started(record.name)
                case "passed", "failed", "skipped":
                    report(SpecCase(file: file, name: record.name, status: SpecCase.Status(rawValue: record.status) ?? .failed,
                                    message: record.message, seconds: record.seconds))
                    // What ends the process from here on (a teardown's os.exit) is not that test's.
                    if record.name == running { running = "\(file), after “\(record.name)” ended" }
                default: break
                }
            }
        }, shouldKill: {
            killed = Date().timeIntervalSince(lastProgress) > timeout + Self.grace
            return killed
        })
        decoder.finish()
        if let why = decoder.malformed {
            report(failure(running, "the results channel of the spec process was corrupted (\(why)); "
                + "the file's results cannot be trusted"))
        } else if killed {
            report(failure(running, "timed out after \(timeout)s and was killed (blocked outside Lua?)"))
        } else if !decoder.done {
            let how = child.process.terminationReason == .uncaughtSignal
                ? "crashed (signal \(child.process.terminationStatus))"
                : "exited with status \(child.process.terminationStatus)"
            let tail = String(decoding: stderrTail, as: UTF8.self).split(separator: "\n").suffix(3).joined(separator: "\n")
            report(failure(running, "the spec process \(how) before the file finished" + (tail.isEmpty ? "" : ":\n" + tail)))
        }
        return cases
    }

    private func failure(_ name: String, _ message: String) -> SpecCase {
        SpecCase(file: file, name: name, status: .failed, message: message, seconds: 0)
    }
}

/// A child process and its three streams: stdout, stderr (what the specs
/// print) and the results socket (which the child gets as its stdin and
/// moves out of the specs' reach; see SpecChannelWriter).
struct ChildIO {
    let process: Process
    let output: Int32, errors: Int32, results: Int32

    static func start(file: String, arguments: [String]) throws -> ChildIO {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.executablePath)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"       // a crash is reported here, briefly
        process.environment = environment
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw ValidationErrorText("could not make the results channel: \(String(cString: strerror(errno)))")
        }
        let output = Pipe(), errors = Pipe()
        let childEnd = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = childEnd
        do {
            try process.run()
        } catch {
            close(pair[0])
            throw error
        }
        try? childEnd.close()                              // the child has it; our copy would hide its end
        return ChildIO(process: process, output: output.fileHandleForReading.fileDescriptor,
                       errors: errors.fileHandleForReading.fileDescriptor, results: pair[0],
                       keep: [output, errors])
    }

    /// Keeps the Pipes (and so their descriptors) alive as long as this.
    private let keep: [AnyObject]

    private init(process: Process, output: Int32, errors: Int32, results: Int32, keep: [AnyObject]) {
        self.process = process
        self.output = output
        self.errors = errors
        self.results = results
        self.keep = keep
    }

    /// Reads all three streams until the results socket closes (the child
    /// and only it holds the other end) or `shouldKill` says so. The child
    /// sends each record only once the parent has read what was printed
    /// before it (SpecChannelWriter.send), and the parent reads records before
    /// output, so a test's output shows before its result and after the one before.
    func pump(printed: (Data) -> Void, printedErrors: (Data) -> Void, results take: (Data) -> Void,
              shouldKill: () -> Bool) {
        var open: [Int32] = [output, errors, results]
        func pass(_ fd: Int32) -> Bool {
            guard let data = Self.read(fd) else { return false }
            if fd == output { printed(data) } else if fd == errors { printedErrors(data) } else { take(data) }
            return true
        }
        while open.contains(results) {
            // Only the child holds the socket's other end, unless a spec stole a copy
            // (pidfd_getfd): a child gone before a poll that finds nothing is the end too.
            let exited = !process.isRunning
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if ready < 0, errno != EINTR { break }
            if ready == 0, exited { break }
            // Results first: the child sends a record only once the pipes are
            // empty, so what they hold now was printed after every record waiting.
            for entry in fds.filter({ $0.fd == results }) + fds.filter({ $0.fd != results }) where entry.revents != 0 {
                if !pass(entry.fd) { open.removeAll { $0 == entry.fd } }
            }
            if open.contains(results), shouldKill() {
                kill(-process.processIdentifier, SIGKILL)      // its group: what it started goes too
                kill(process.processIdentifier, SIGKILL)
                break
            }
        }
        process.waitUntilExit()
        // What the child wrote before it ended is in the pipes now; a
        // process the spec started may hold them open, so take only what is there.
        drain(results, into: take)                          // what came before a kill
        drain(output, into: printed)
        drain(errors, into: printedErrors)
        close(results)
    }

    /// Passes on what `fd` holds right now, without waiting for more (at most a second of it).
    private func drain(_ fd: Int32, into sink: (Data) -> Void) {
        let until = Date().addingTimeInterval(1)
        while Date() < until {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0, let data = Self.read(fd) else { return }
            sink(data)
        }
    }

    /// One read; nil at the end of the stream (or on an error).
    private static func read(_ fd: Int32) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Foundation.read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Data(buffer[0..<count]) : nil
        }
    }
}

extension CommandLine {
    /// This executable, to start children of.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
