import CLunette

/// What `ui.trace` / `:trace` record — why views re-render, with where the
/// writes that moved their dependencies happened — and the owner of the
/// host table's trace group.
///
/// Lines are kept to the last `keptLines` (the runtime's, until a host takes
/// them; dropped in batches past half as many again, and `take` then says
/// they are partial) and `keptLinesPerApp` per app, however long tracing
/// stays on. What
/// the tracer needs of the runtime it asks through two closures the runtime
/// sets: a graph node's label and a unit by id.
final class Tracer {
    /// The most lines kept for `take()`, and for each app's trace.
    static let keptLines = 10_000, keptLinesPerApp = 1_000
    /// The most reasons one line names, and the longest line (bytes): a run
    /// whose thousands of dependencies moved says how many more, so what the
    /// tracer keeps is bounded (at most 40 MB for `take()`, 4 MB an app).
    static let reasonsPerLine = 16, longestLine = 4096

    /// Tracing is on: writes say where they happened, runs say why.
    private(set) var tracing = false
    /// Print each line as it is recorded (the REPL's `:trace`).
    private var echo = false
    private var lines: [String] = []
    /// The views that ran since the last `take()`, as the lines name them
    /// but told apart by kind (a row's label may read as a view's).
    private var runs: [TracedRun] = []
    /// Lines were dropped past `keptLines`, or tracing was turned off or on,
    /// since the last `take()`: the lines are not every run since.
    private var partial = false
    /// Where each graph node was last written ("file:line").
    private var lastWrites: [Int32: String] = [:]
    /// The place of the write about to be reported (trace.where, before a write to a Swift property).
    var pendingWritePlace: String?

    /// A graph node's label ("Book#3.title") and a unit by id: the runtime's answers.
    var label: (Int32) -> String = { _ in "a value" }
    var unit: (Int32) -> Unit? = { _ in nil }

    private let graph: Graph
    /// The Lua state whose reads record their places while tracing.
    private let L: OpaquePointer

    init(graph: Graph, state L: OpaquePointer) {
        self.graph = graph
        self.L = L
    }

    /// Turns tracing on or off (C's reads record their places only while on).
    func set(_ on: Bool, echo: Bool) {
        if on != tracing { partial = true }
        tracing = on
        self.echo = on && echo
        lun_state(L).pointee.tracing = on ? 1 : 0
        if !on { lastWrites = [:] }
    }

    /// The lines recorded since the last call, and whether they are every
    /// run since (no line dropped, tracing neither turned off nor on).
    func take() -> (lines: [String], runs: [TracedRun], isWhole: Bool) {
        defer { lines = []; runs = []; partial = false }
        return (lines, runs, !partial)
    }

    /// Notes where a Lua write to `node` happened ("": no Lua code's, so no place).
    func write(to node: Int32, at place: String) {
        lastWrites[node] = place.isEmpty ? nil : place
    }

    /// Records that an event of a view ran: "• onChange BookView#2".
    func event(_ what: String, unit id: Int32) {
        let unit = unit(id)
        record("• \(what) \(unit?.label ?? "a view that is gone")", in: unit?.app)
    }

    /// Records why `unit` is about to run: the dependencies whose values
    /// moved since its last run, each with where it was set.
    func run(of unit: Unit) {
        record("↻ \(unit.label)" + reasons(unit.run.cause.map { Self.text(of: $0, unit) }, node: unit.node), in: unit.app)
        ranQuietly(unit)
    }

    /// Records that `unit` runs, with no line: a List's content or an app's
    /// root, which the timeline leaves out but what ran must name (a
    /// preview patches what ran: a List that lost rows is among it).
    func ranQuietly(_ unit: Unit) {
        runs.append(TracedRun(label: unit.label, unit: unit.id, isView: unit.kind == .component, isNew: unit.run.cause == .new))
        if runs.count > Self.keptLines + Self.keptLines / 2 {
            runs.removeFirst(runs.count - Self.keptLines)
            partial = true
        }
    }

    /// A cause as the trace spells it: "new", "reloaded", "inputs from BookList#1".
    private static func text(of cause: Unit.RunState.Cause, _ unit: Unit) -> String {
        switch cause {
        case .new: return "new"
        case .reloaded: return "reloaded"
        case .inputs: return "inputs from \(unit.parent?.label ?? "its parent")"
        }
    }

    /// Records why a `ui.effect` (its graph node) is about to run: "↻ effect  (new)" the first
    /// time, then "↻ effect  (Cell#1.v, set at …)".
    func effectRun(node: Int32, isNew: Bool) {
        record("↻ effect" + reasons(isNew ? "new" : nil, node: node), in: nil)
    }

    /// "  (cause; Book#3.title, set at file:line; …)": what moved since the node's last run.
    private func reasons(_ cause: String?, node: Int32) -> String {
        var reasons: [String] = []
        if let cause { reasons.append(cause) }
        var l = graph.node(node).deps
        while l != 0 {
            let link = graph.link(l)
            if link.version != graph.node(link.dep).version {
                var reason = label(link.dep)
                if let place = lastWrites[link.dep] { reason += ", set at \(place)" }
                reasons.append(reason)
            }
            l = link.nextDep
        }
        if reasons.count > Self.reasonsPerLine {
            let more = reasons.count - Self.reasonsPerLine
            reasons.removeLast(more)
            reasons.append("and \(more) more")
        }
        return reasons.isEmpty ? "" : "  (\(reasons.joined(separator: "; ")))"
    }

    private func record(_ line: String, in app: App?) {
        var line = line
        if line.utf8.count > Self.longestLine {
            line = String(decoding: line.utf8.prefix(Self.longestLine - 3), as: UTF8.self) + "…"
        }
        lines.append(line)
        if lines.count > Self.keptLines + Self.keptLines / 2 {   // in batches: one removal a line would be quadratic
            lines.removeFirst(lines.count - Self.keptLines)
            partial = true
        }
        if let app {
            app.trace.append(line)
            if app.trace.count > Self.keptLinesPerApp { app.trace.removeFirst(app.trace.count - Self.keptLinesPerApp) }
        }
        if echo { print(line) }
    }
}

/// A run the trace recorded: the unit's label and number, whether it is a view's (not
/// a list's, a row's or an app root's, whose labels may read as a view's:
/// "X row#1"), and whether it was its first. A List's content and an app's
/// root have runs but no line.
public struct TracedRun: Sendable, Equatable {
    /// "BookView#2", "BookList row#3", "BookList list" (a view's is its own;
    /// two Lists of one view share theirs).
    public let label: String
    /// The unit that ran, as `RenderNode.hostedUnit` names it: one unit's
    /// while it lives.
    public let unit: Int32
    /// A view's run (a `ui.View`), not a list's or a row's.
    public let isView: Bool
    /// Its first run.
    public let isNew: Bool
}
