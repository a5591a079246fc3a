import CEditLine
import Foundation
import Lunette

/// Tab completion at the REPL's prompt (libedit): REPL commands after a
/// leading ':', modifiers after ':' in an expression, and the fields of what
/// a dotted name names (`ui.Te` → `ui.Text`, `book.ti` → `book.title`), or
/// globals. Never file names.
enum Completion {
    /// (the line before the word, the word) -> candidates.
    nonisolated(unsafe) private static var provider: ((String, String) -> [String])?
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var next = 0
    /// Where words break: so `ui.Text("x"):fo` completes `:fo` and `ui.Te` completes whole.
    nonisolated(unsafe) private static var breaks = strdup(" \t\n\"\\'`@$><=;|&{(),[]+-*/~^%#")

    static func install(for runtime: LunetteRuntime, commands: [String]) {
        provider = { before, word in candidates(before: before, word: word, runtime: runtime, commands: commands) }
        rl_completer_word_break_characters = breaks
        rl_attempted_completion_function = { text, start, _ in
            let word = text.map { String(cString: $0) } ?? ""
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let before = String(decoding: Array(line.utf8.prefix(Int(start))), as: UTF8.self)
            Completion.matches = Completion.provider?(before, word) ?? []
            rl_attempted_completion_over = 1              // no file names, even with no match
            return rl_completion_matches(text) { _, state in
                if state == 0 { Completion.next = 0 }
                guard Completion.next < Completion.matches.count else { return nil }
                defer { Completion.next += 1 }
                return strdup(Completion.matches[Completion.next])
            }
        }
    }

    /// The completions of `word`, given what precedes it on the line.
    static func candidates(before: String, word: String, runtime: LunetteRuntime, commands: [String]) -> [String] {
        if word.hasPrefix(":") {
            if before.trimmingCharacters(in: .whitespaces).isEmpty { return commands.filter { $0.hasPrefix(word) } }
            let names = (try? runtime.evaluate("""
                local ok, mt = pcall(function() return debug.getmetatable(require("lunette").Text("")) end)
                local names = {}
                if ok and mt and mt.__modifiers then for k in pairs(mt.__modifiers) do names[#names + 1] = k end end
                table.sort(names)
                return table.concat(names, " ")
                """, name: "=(completion)").first) ?? ""
            return names.split(separator: " ").map { ":" + $0 }.filter { $0.hasPrefix(word) }
        }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        let base = parts.dropLast().joined(separator: ".")
        guard base.isEmpty || base.range(of: #"^[A-Za-z_][A-Za-z0-9_.]*$"#, options: .regularExpression) != nil else { return [] }
        let keys = (try? runtime.evaluate("""
            local names, seen = {}, {}
            local function add(k) if type(k) == "string" and not seen[k] then seen[k] = true; names[#names + 1] = k end end
            local target = \(base.isEmpty ? "_G" : base)
            if type(target) == "table" or type(target) == "userdata" then
              pcall(function() for k in pairs(target) do add(k) end end)
            end
            table.sort(names)
            return table.concat(names, " ")
            """, name: "=(completion)").first) ?? ""
        let prefix = base.isEmpty ? "" : base + "."
        return keys.split(separator: " ").map { prefix + $0 }.filter { $0.hasPrefix(word) }
    }
}
