import CEditLine
import Foundation

/// Where the REPL's lines come from: libedit on a terminal (editing, history
/// kept in ~/.lunette_history), or plain standard input when piped, echoing
/// each line after its prompt so a scripted session reads like a typed one.
final class LineReader {
    let interactive = isatty(STDIN_FILENO) != 0
    private let historyPath = FileManager.default.homeDirectoryForCurrentUser
        .appendingPathComponent(".lunette_history").path

    init() {
        if interactive { _ = read_history(historyPath) }
    }

    /// The next line, or nil at the end of input.
    func read(prompt: String) -> String? {
        guard interactive else {
            print(prompt, terminator: "")
            fflush(stdout)
            guard let line = Swift.readLine() else {
                print()
                return nil
            }
            print(line)
            fflush(stdout)
            return line
        }
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(raw)
            _ = write_history(historyPath)
        }
        return line
    }
}
