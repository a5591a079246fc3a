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

    /// The next input.
    func read(prompt: String) -> Input {
        guard interactive else {
            print(prompt, terminator: "")
            fflush(stdout)
            guard let line = Swift.readLine() else {
                print()
                return .end
            }
            print(line)
            fflush(stdout)
            return .line(line)
        }
        Interrupts.atPrompt = true
        let raw = readline(prompt)
        Interrupts.atPrompt = false
        if Interrupts.takePressed() {
            if let raw { free(raw) }
            print()
            return .interrupted
        }
        guard let raw else { return .end }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, let historyPath {
            add_history(raw)
            _ = write_history(historyPath)
        }
        return .line(line)
    }
}
