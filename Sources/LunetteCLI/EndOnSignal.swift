import Foundation
import ArgumentParser
import Lunette

/// Ctrl-C (SIGINT) or SIGTERM ends `lunette run` and `preview` the way
/// their own end does: the loop stops once what runs returns to it
/// (`requested`), the store keeps what the flushes wrote (at most 5 s), the
/// errors are printed, and the process exits with 128 + the signal's number.
/// Before, the default action ended it at once: a write still being kept
/// was lost, with no message. A second signal, or a command that does not
/// come back to its loop within 10 s, ends it after the store kept what was
/// handed over; a command with no loop to come back to (the REPL, whose
/// Ctrl-C stops a line) ends so at once.
///
/// A handler cannot capture: what it needs is kept here. It only writes the
/// signal's number to a pipe (async-signal-safe); a thread of its own does
/// the rest. A real handler, not SIG_IGN: a process a script starts gets
/// the default action back at exec, as before.
enum EndOnSignal {
    private nonisolated(unsafe) static var pipeEnds: [Int32] = [-1, -1]
    private nonisolated(unsafe) static var number: Int32 = 0
    private static let lock = NSLock()
    private static let wake = DispatchSemaphore(value: 0)

    /// The signal that asked the command to end (0: none yet).
    static var requested: Int32 { lock.lock(); defer { lock.unlock() }; return number }

    /// Sleeps `seconds` (at most a day), or until a signal asks to end.
    static func sleep(_ seconds: Double) {
        _ = wake.wait(timeout: .now() + max(0, min(seconds.isFinite ? seconds : 86_400, 86_400)))
    }

    /// Throws the exit status a signal asks for, once the command ended its work.
    static func exitIfRequested() throws {
        let signal = requested
        if signal != 0 { throw ExitCode(128 + signal) }
    }

    static func install(keeping wait: LunetteRuntime.StorageWait, loop: Bool, signals: [Int32] = [SIGINT, SIGTERM]) {
        guard pipe(&pipeEnds) == 0 else { return }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }   // no process a script starts holds them
        let reading = pipeEnds[0]
        Thread {
            var byte: UInt8 = 0
            while read(reading, &byte, 1) < 0 && errno == EINTR {}
            if loop {                                 // a loop to come back to: ask it to end
                lock.lock()
                number = Int32(byte)
                lock.unlock()
                wake.signal()
                var second = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
                _ = poll(&second, 1, 10_000)          // the command's own end exits before this ends
            }
            if !wait.wait(timeout: 5) {
                let text = "error: app storage: changes may not be kept: the store has not finished after 5.0 s\n"
                _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            }
            fflush(stdout)
            _exit(128 + Int32(byte))
        }.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(EndOnSignal.pipeEnds[1], &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in signals { sigaction(signal, &action, nil) }
    }
}
