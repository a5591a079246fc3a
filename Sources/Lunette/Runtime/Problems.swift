/// What went wrong in views and events, kept for a test runner
/// (`lunette_problems`): error nodes, errors raised by onAppear, onChange,
/// onReceive and tasks, and warnings. Recorded only once a runner asked
/// (`installRunnerSupport`, `recordProblems`), and at most `limit` warnings
/// at a time, and as many errors besides.
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
        if !waiting[head - 1].isError { waitingWarnings -= 1 }
        return waiting[head - 1]
    }

    /// What a walk warned of, by unit, so each is said once however often
    /// the view renders; forgotten with the unit (`forgetWarnings`), whose id
    /// another view may take. A root's (unit 0) is said each time.
    private var walkWarnings: [Int32: Set<String>] = [:]

    /// Warnings one view says at most; past them it says once that it says no more.
    static let mostWalkWarnings = 100

    /// What to say of `message` about `unit`: the message the first time
    /// (then it is noted), nothing after; past `mostWalkWarnings` different
    /// ones, once, that the view's other warnings are not said (they were
    /// said again each run: the set was emptied to stay bounded).
    mutating func firstWarning(_ message: String, unit: Int32) -> String? {
        guard unit != 0 else { return message }
        var seen = walkWarnings.removeValue(forKey: unit) ?? []
        defer { walkWarnings[unit] = seen }
        if seen.contains(message) { return nil }
        if seen.count < Self.mostWalkWarnings {
            seen.insert(message)
            return message
        }
        guard seen.insert("\0").inserted else { return nil }    // "\0" stands for the line that says so
        return "more than \(Self.mostWalkWarnings) different warnings: the others are not said"
    }

    /// The unit is gone: what it warned of may be said again by the next view of its id.
    mutating func forgetWarnings(of unit: Int32) {
        if !walkWarnings.isEmpty { walkWarnings[unit] = nil }
    }

    /// Errors and warnings are capped apart: warnings that filled the queue
    /// would drop a later error, and a test or a session would pass it.
    private var waitingWarnings = 0

    /// Errors and warnings left out past the caps since the last taken,
    /// said as one line each so a reader knows there were more.
    private var droppedErrors = 0, droppedWarnings = 0

    private mutating func append(_ problem: Problem) {
        guard recording else { return }
        guard waiting.count - head < 2 * limit, problem.isError || waitingWarnings < limit else {
            if problem.isError { droppedErrors += 1 } else { droppedWarnings += 1 }
            return
        }
        if !problem.isError { waitingWarnings += 1 }
        waiting.append(problem)
    }

    /// How many errors and warnings were left out since the last call, then none.
    mutating func takeDropped() -> (errors: Int, warnings: Int) {
        defer { droppedErrors = 0; droppedWarnings = 0 }
        return (droppedErrors, droppedWarnings)
    }
}

extension LunetteRuntime {
    /// Keeps what goes wrong in views and events from now on — error nodes,
    /// errors raised by onAppear, onChange, onReceive or a task, warnings —
    /// for `takeProblems()`, so a tool reports each as it appears (the REPL,
    /// a test runner); at most 1,000 warnings wait, and as many errors.
    public func recordProblems() {
        problems.recording = true
    }

    /// The problems recorded since the last call (`recordProblems()`), oldest first.
    public func takeProblems() -> (errors: [String], warnings: [String]) {
        var errors: [String] = [], warnings: [String] = []
        while let problem = problems.next() {
            if problem.isError { errors.append(problem.text) } else { warnings.append(problem.text) }
        }
        let dropped = problems.takeDropped()
        if dropped.errors > 0 { errors.append("… and \(dropped.errors) more errors, left out (at most 2,000 problems wait)") }
        if dropped.warnings > 0 { warnings.append("… and \(dropped.warnings) more warnings, left out (at most 1,000 wait)") }
        return (errors, warnings)
    }
}
