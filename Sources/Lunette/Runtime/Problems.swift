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

    private mutating func append(_ problem: Problem) {
        guard recording, waiting.count - head < limit else { return }
        waiting.append(problem)
    }
}
