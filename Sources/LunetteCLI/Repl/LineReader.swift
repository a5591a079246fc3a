import CEditLine
import Foundation

/// Where the REPL's lines come from: libedit on a terminal (editing, history
/// kept in $XDG_STATE_HOME/lunette/history or ~/.lunette_history), or plain
/// standard input when piped, echoing each line after its prompt so a
/// scripted session reads like a typed one.
final class LineReader {
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C at the prompt: the line is dropped.
        case interrupted
        case end
    }

    let interactive = isatty(STDIN_FILENO) != 0
    private let historyPath: String? = LineReader.historyFile()

    init() {
        if interactive, let historyPath { _ = read_history(historyPath) }
    }

    /// The history file: under $XDG_STATE_HOME if set, else in $HOME (the
    /// environment's, which a person sets, not the password database's).
    static func historyFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            let directory = (state as NSString).appendingPathComponent("lunette")
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return (directory as NSString).appendingPathComponent("history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".lunette_history")
    }

    /// The next input. While a terminal's prompt waits, `idle` runs whenever
    /// `due()` seconds pass without a key (nil: nothing is due) and returns
    /// lines to show: they are printed above the prompt, which is drawn
    /// again with the partial line as it was (the runtime's work stays on
    /// this thread: it runs between waits for input).
    func read(prompt: String, due: () -> Double? = { nil }, idle: () -> [String] = { [] }) -> Input {
        guard interactive else { return readPiped(prompt: prompt, due: due, idle: idle) }
        LineReader.received = nil
        LineReader.finished = false
        Interrupts.atPrompt = true
        rl_callback_handler_install(prompt) { raw in
            LineReader.finished = true
            LineReader.received = raw.map { String(cString: $0) }
            if let raw { free(raw) }
        }
        fflush(stdout)
        defer {
            rl_callback_handler_remove()
            Interrupts.atPrompt = false
        }
        while !LineReader.finished {
            let wait = due()
            let milliseconds = wait.map { Int32(min(max(0, $0) * 1000 + 1, 60_000)) } ?? -1
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if Interrupts.takePressed() {
                rl_replace_line("", 0)                 // the partial line is dropped
                print()
                return .interrupted
            }
            if ready > 0 {
                if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { rl_callback_read_char() }
                if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && descriptor.revents & Int16(POLLIN) == 0 {
                    return .end
                }
            } else if ready == 0 {
                let lines = idle()
                guard !lines.isEmpty else { continue }
                print("\r\u{1B}[K", terminator: "")   // the prompt line goes; what re-rendered shows above it
                for line in lines { print(line) }
                fflush(stdout)
                rl_forced_update_display()               // the prompt and the partial line, as they were
            }
        }
        guard let line = LineReader.received else {
            print()
            return .end
        }
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, let historyPath {
            add_history(line)
            _ = write_history(historyPath)
        }
        return .line(line)
    }

    /// Piped input's bytes read: from `head` on, not yet taken as lines
    /// (taken lines are dropped in bulk, not one by one); `scanned`: how far
    /// a line break has been looked for (each byte is looked at once, however
    /// long a line is); whether the input ended.
    private var pending: [UInt8] = []
    private var head = 0, scanned = 0
    private var pipeEnded = false

    /// The next line of piped input, echoed after its prompt. While none
    /// has come, the clock runs as at a terminal (`due`, `idle`): a session
    /// fed by a script that pauses sees its timers fire and tasks wake, and
    /// what they re-render is printed above the prompt, drawn again after.
    /// Ctrl-C while it waits ends the session, as the end of the input does.
    private func readPiped(prompt: String, due: () -> Double?, idle: () -> [String]) -> Input {
        print(prompt, terminator: "")
        fflush(stdout)
        _ = Interrupts.takePressed()                     // a Ctrl-C that stopped the last line was that line's
        Interrupts.atPrompt = true
        defer { Interrupts.atPrompt = false }
        while true {
            if let newline = pending[max(head, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > head, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: pending[head..<end], as: UTF8.self)
                head = newline + 1
                scanned = head
                if head > 1 << 16, head * 2 > pending.count {   // what was taken goes, in bulk
                    pending.removeSubrange(..<head)
                    scanned -= head
                    head = 0
                }
                return echoed(line)
            }
            scanned = pending.count
            if pipeEnded {
                guard head < pending.count else { print(); return .end }
                let line = String(decoding: pending[head...], as: UTF8.self)     // a last line without its line break
                pending = []
                head = 0
                scanned = 0
                return echoed(line)
            }
            let milliseconds = due().map { Int32(min(max(0, $0) * 1000 + 1, 60_000)) } ?? -1
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if Interrupts.takePressed() { print(); return .end }
            if ready > 0 {
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = chunk.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count > 0 { pending += chunk[..<count] } else if count == 0 || (errno != EINTR && errno != EAGAIN) { pipeEnded = true }
            } else if ready == 0 {
                let lines = idle()
                guard !lines.isEmpty else { continue }
                print()                                      // the prompt waiting ends its line; what ran shows below it
                for line in lines { print(line) }
                print(prompt, terminator: "")
                fflush(stdout)
            }
        }
    }

    private func echoed(_ line: String) -> Input {
        print(line)
        fflush(stdout)
        return .line(line)
    }

    /// What libedit's line handler received (it is a C function: no captures).
    nonisolated(unsafe) private static var received: String?
    nonisolated(unsafe) private static var finished = false
}
