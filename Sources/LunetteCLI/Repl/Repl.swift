import Foundation
import Lunette

/// The REPL: Lua with the runtime loaded. Each input runs, then the views
/// flush, and what re-rendered is reported with why:
/// `↻ BookView#2  (Book#1.title, set at stdin:1)`.
final class Repl {
    let runtime: LunetteRuntime
    private let file: String?
    private let reader = LineReader()

    init(file: String?, limits: ScriptLimits, storage: AppStorageStore) throws {
        self.file = file
        runtime = try Runtimes.make(for: file ?? "./repl", limits: limits, storage: storage)
        runtime.recordProblems()                      // said after each line as they appear (newProblems)
        try runtime.run(source: "ui = require('lunette')", name: "=(repl)")
        runtime.setTracing(true)
    }

    /// Runs the session; false if a line failed.
    func run() -> Bool {
        print("Lunette \(LunetteCommand.configuration.version) (Lua 5.4) — :help for commands")
        if let file { load(file, again: false) }
        Interrupts.install(for: runtime)
        if reader.interactive { Completion.install(for: runtime, commands: Self.commands) }
        var pending: [String] = []
        var interruptedEmpty = false
        loop: while true {
            // While the prompt waits, timers and tasks run on this thread (as under `lunette run`).
            let input = reader.read(prompt: pending.isEmpty ? "> " : ">> ",
                                    due: { [runtime] in runtime.secondsUntilNextDue },
                                    idle: { [unowned self] in self.dueWork() })
            switch input {
            case .end:
                break loop
            case .interrupted:                          // drops the line; twice in a row quits
                if interruptedEmpty { break loop }
                interruptedEmpty = true
                print("(line dropped: Ctrl-C again or Ctrl-D to quit)")
                pending = []
                continue
            case .line(let line):
                interruptedEmpty = false
                if pending.isEmpty, line.hasPrefix(":") {
                    if !command(line) { break loop }
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
        return !failed
    }

    /// A line failed (a piped session then exits with status 1).
    private var failed = false

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
                failed = true
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
            failed = true
        case .syntax(let message):
            if message.hasSuffix("<eof>") { return .incomplete }
            print(message)
            failed = true
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
        for line in dueWork() { print(line) }
        fflush(stdout)
    }

    /// Runs what fell due; the lines that report what re-rendered and the errors.
    private func dueWork() -> [String] {
        runtime.runDueWork()
        var lines = runtime.takeTraceLines()
        for error in runtime.effectErrors.suffix(from: reportedErrors) where error.hasPrefix("effect: ") {
            lines.append("error: \(error)")                // a ui.effect's (events' are problems)
            failed = true
        }
        reportedErrors = runtime.effectErrors.count
        return lines + newProblems()
    }

    private var reportedErrors = 0

    /// "error: View: file:line: message" for each error node made since the
    /// last line (a body that raised after a line, a `:set` or a `:reload`)
    /// and each error of an event, "warning: …" for each warning, as the
    /// runtime recorded them (the cost is what went wrong, not the tree's
    /// size); a piped session with an error exits with status 1.
    private func newProblems() -> [String] {
        let (errors, warnings) = runtime.takeProblems()
        if errors.isEmpty { saidErrors = [] } else { failed = true }   // a line with none: each may be said again
        var lines: [String] = []
        for error in errors where saidErrors.insert(error).inserted { lines.append("error: \(error)") }
        if saidErrors.count > 1000 { saidErrors = [] }
        return lines + warnings.map { "warning: \($0)" }
    }

    /// The errors said since the last line that had none: a body that fails
    /// at every render (a timer drives it) says its error once, not at every
    /// line; after a line without errors, one that comes back is said again.
    private var saidErrors: Set<String> = []

    /// Runs the file; a view it returns is mounted and left as `app`.
    private func load(_ path: String, again: Bool) {
        do {
            // `app` after a reload too: the first load may have failed.
            if let app = again ? try runtime.reload(file: path) : try runtime.run(file: path) {
                try runtime.setGlobal("app", to: app)
            }
        } catch {
            print(error)
            failed = true
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
        case "state", "s":
            print(state(argument))
        case "set":
            print(set(argument))
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
        if let last = lines.last { return "last render of \(view): \(last)" }
        guard runtime.dependencies(of: view) != nil else { return "no view named \(view) is rendered" }
        return "\(view) has not re-rendered since tracing began"
    }

    private func deps(_ view: String) -> String {
        guard !view.isEmpty else { return "usage: :deps VIEW (or VIEW#n)" }
        guard let deps = runtime.dependencies(of: view) else { return "no view named \(view) is rendered" }
        return deps.isEmpty ? "\(view) depends on nothing" : deps.joined(separator: "\n")
    }

    private func state(_ view: String) -> String {
        guard !view.isEmpty else { return "usage: :state VIEW (or VIEW#n)" }
        do {
            guard let state = try runtime.state(of: view) else { return "no view named \(view) is rendered" }
            return state.isEmpty ? "\(view) has no state" : state
        } catch {
            failed = true
            return "\(error)"
        }
    }

    /// `:set VIEW name value`: writes the view's state through the normal path.
    private func set(_ argument: String) -> String {
        let parts = argument.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3 else { return "usage: :set VIEW name value (value is Lua: 3, \"text\", true)" }
        do {
            try runtime.setState(of: parts[0], parts[1], to: parts[2])
        } catch {
            failed = true
            return "\(error)"
        }
        let lines = runtime.takeTraceLines() + newProblems()
        return lines.isEmpty ? "(nothing re-rendered)" : lines.joined(separator: "\n")
    }

    /// The commands, for completion.
    static let commands = [":tree", ":why", ":deps", ":state", ":set", ":reload", ":help", ":quit"]

    static let help = """
        Lua with `ui` loaded; after each line the views flush and what re-rendered is shown:
          ↻ VIEW#n  (what changed, set at file:line)
        :tree          the rendered trees
        :why VIEW      why VIEW last re-rendered
        :deps VIEW     what VIEW (or VIEW#n) depends on
        :state VIEW    its state
        :set VIEW name value   writes its state (value is Lua), as an action would
        :reload        run the file again, keeping the state of views whose identities match
        :help          this text
        :quit          leave (or end of input)
        Ctrl-C stops a running line; the state is kept.
        """
}

/// Ctrl-C while a line runs stops it (the runtime raises "interrupted"); at
/// the prompt it drops the line. A signal handler cannot capture: what it
/// needs is kept here.
enum Interrupts {
    private nonisolated(unsafe) static var target: LunetteRuntime.Interrupter?
    nonisolated(unsafe) static var atPrompt = false
    private nonisolated(unsafe) static var pressed: sig_atomic_t = 0

    static func install(for runtime: LunetteRuntime) {
        target = runtime.interrupter
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            Interrupts.pressed = 1
            if !Interrupts.atPrompt { Interrupts.target?.interrupt() }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0                      // no SA_RESTART: readline returns at once
        sigaction(SIGINT, &action, nil)
    }

    /// Whether Ctrl-C was pressed since the last call.
    static func takePressed() -> Bool {
        defer { pressed = 0 }
        return pressed != 0
    }
}
