/// What went wrong in views and events, kept for a test runner
/// (`lunette_problems`): error nodes, errors raised by onAppear, onChange,
/// onReceive and tasks, and warnings. Recorded only once a runner asked
/// (`installRunnerSupport`), and at most `limit` at a time.
struct Problems {
    struct Problem {
        let isError: Bool
        let text: String
    }

    var recording = false
    private var waiting: [Problem] = []
    private var head = 0
    private let limit = 1000

    mutating func record(error text: String) { append(Problem(isError: true, text: text)) }

    mutating func record(warning text: String) { append(Problem(isError: false, text: text)) }

    /// The oldest problem not taken yet.
    mutating func next() -> Problem? {
        guard head < waiting.count else {
            waiting = []
            head = 0
            return nil
        }
        head += 1
        return waiting[head - 1]
    }

    /// What a walk warned of (a unit and its message), so each is said once
    /// however often the view renders; forgotten past `limit * 10`.
    private var walkWarnings: Set<String> = []

    /// Whether `message` about `unit` is said for the first time (then it is noted).
    mutating func firstWarning(_ message: String, unit: Int32) -> Bool {
        if walkWarnings.count >= limit * 10 { walkWarnings = [] }
        return walkWarnings.insert("\(unit)\n\(message)").inserted
    }

    private mutating func append(_ problem: Problem) {
        guard recording, waiting.count - head < limit else { return }
        waiting.append(problem)
    }
}

extension LunetteRuntime {
    /// Keeps what goes wrong in views and events from now on — error nodes,
    /// errors raised by onAppear, onChange, onReceive or a task, warnings —
    /// for `takeProblems()`, so a tool reports each as it appears (the REPL,
    /// a test runner); at most 1,000 wait.
    public func recordProblems() {
        problems.recording = true
    }

    /// The problems recorded since the last call (`recordProblems()`), oldest first.
    public func takeProblems() -> (errors: [String], warnings: [String]) {
        var errors: [String] = [], warnings: [String] = []
        while let problem = problems.next() {
            if problem.isError { errors.append(problem.text) } else { warnings.append(problem.text) }
        }
        return (errors, warnings)
    }
}
