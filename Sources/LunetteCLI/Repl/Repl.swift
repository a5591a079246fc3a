import Foundation
import Lunette

/// The REPL: Lua with the runtime loaded. Each input runs, then the views
/// flush, and what re-rendered is reported with why:
/// `↻ BookView#2  (Book#1.title, set at stdin:1)`.
final class Repl {
    private let runtime: LunetteRuntime
    private let file: String?
    private let reader = LineReader()

    init(file: String?, limits: ScriptLimits) throws {
        self.file = file
        runtime = try Runtimes.make(for: file ?? "./repl", limits: limits)
        try runtime.run(source: "ui = require('lunette')", name: "=(repl)")
        runtime.setTracing(true)
    }

    func run() {
        print("Lunette \(LunetteCommand.configuration.version) (Lua 5.4) — :help for commands")
        if let file { load(file, again: false) }
        Interrupts.install(for: runtime)
        var pending: [String] = []
        while let line = reader.read(prompt: pending.isEmpty ? "> " : ">> ") {
            if pending.isEmpty, line.hasPrefix(":") {
                if !command(line) { break }
                continue
            }
            pending.append(line)
            switch evaluate(pending) {
            case .incomplete: continue
            case .done: pending = []
            }
            settle()
        }
    }

    // MARK: evaluating

    private enum Outcome { case done, incomplete }

    /// Runs the input as an expression if it is one (printing its values, as
    /// lua5.4 does), else as statements; waits for more when it is unfinished.
    private func evaluate(_ lines: [String]) -> Outcome {
        let source = lines.joined(separator: "\n")
        if lines.count == 1 {
            switch run("return " + source) {
            case .values(let values):
                show(values)
                return .done
            case .failed(let error):
                print(error)
                fflush(stdout)
                return .done
            case .syntax:
                break                                   // not an expression: statements
            }
        }
        switch run(source) {
        case .values(let values): show(values)
        case .failed(let error):
            print(error)
            fflush(stdout)
        case .syntax(let message):
            if message.hasSuffix("<eof>") { return .incomplete }
            print(message)
        }
        return .done
    }

    private enum Result {
        case values([String]), failed(Error), syntax(String)
    }

    private func run(_ source: String) -> Result {
        do {
            return .values(try runtime.evaluateInterruptibly(source, name: "=stdin"))
        } catch LunetteError.syntax(let message) {
            return .syntax(message)
        } catch {
            return .failed(error)
        }
    }

    private func show(_ values: [String]) {
        if !values.isEmpty { print(values.joined(separator: "\t")) }
        fflush(stdout)
    }

    /// Flushes, runs what fell due, and reports what re-rendered.
    private func settle() {
        runtime.flush()
        runtime.runDueWork()
        for line in runtime.takeTraceLines() { print(line) }
        for error in runtime.effectErrors.suffix(from: reportedErrors) { print("error: \(error)") }
        reportedErrors = runtime.effectErrors.count
        fflush(stdout)
    }

    private var reportedErrors = 0

    private func load(_ path: String, again: Bool) {
        do {
            if again { try runtime.reload(file: path) } else { try runtime.run(file: path) }
        } catch {
            print(error)
        }
        settle()
    }

    // MARK: commands

    /// Runs a `:command`; false to quit.
    private func command(_ line: String) -> Bool {
        let parts = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch parts.first ?? "" {
        case "quit", "q", "exit":
            return false
        case "help", "h":
            print(Self.help)
        case "tree", "t":
            let trees = runtime.apps.map { runtime.text(of: $0) }
            print(trees.isEmpty ? "(nothing is mounted: return a view from a file, or call ui.mount)\n" : trees.joined(), terminator: "")
        case "why", "w":
            print(why(argument))
        case "deps", "d":
            print(deps(argument))
        case "reload", "r":
            guard let file else {
                print("nothing to reload: start the REPL with a file (lunette repl FILE)")
                break
            }
            load(file, again: true)
        default:
            print("unknown command \(line) (:help lists them)")
        }
        return true
    }

    private func why(_ view: String) -> String {
        guard !view.isEmpty else { return "usage: :why VIEW" }
        let lines = runtime.apps.flatMap { runtime.trace(of: $0) }
            .filter { $0.hasPrefix("↻ \(view)#") || $0 == "↻ \(view)" || $0.hasPrefix("↻ \(view)  (") }
        return lines.last.map { "last render of \(view): \($0)" } ?? "\(view) has not re-rendered since tracing began"
    }

    private func deps(_ view: String) -> String {
        guard !view.isEmpty else { return "usage: :deps VIEW" }
        for app in runtime.apps {
            if let deps = runtime.dependencies(of: view, in: app) {
                return deps.isEmpty ? "\(view) depends on nothing" : deps.joined(separator: "\n")
            }
        }
        return "no view named \(view) is rendered"
    }

    static let help = """
        Lua with `ui` loaded; after each line the views flush and what re-rendered is shown:
          ↻ VIEW#n  (what changed, set at file:line)
        :tree          the rendered trees
        :why VIEW      why VIEW last re-rendered
        :deps VIEW     what VIEW depends on
        :reload        run the file again, keeping the state of views whose identities match
        :help          this text
        :quit          leave (or end of input)
        Ctrl-C stops a running line; the state is kept.
        """
}

/// Ctrl-C while a line runs stops it (the runtime raises "interrupted"). A
/// signal handler cannot capture: the REPL's runtime is kept here for it.
enum Interrupts {
    private nonisolated(unsafe) static var target: LunetteRuntime.Interrupter?

    static func install(for runtime: LunetteRuntime) {
        target = runtime.interrupter
        signal(SIGINT) { _ in Interrupts.target?.interrupt() }
    }
}
