import CLunette

/// Why views re-render, and what they depend on.
///
/// With tracing on (`ui.trace(true)`, the REPL), each run of a view records
/// its reasons — the dependencies whose values moved since its last run,
/// with the `file:line` of the Lua write that moved them — as a line:
/// `↻ BookView#2  (Book#1.title, set at views.lua:12)`.
extension LunetteRuntime {
    /// Turns the why-re-rendered log on or off; `echo` also prints each line as it happens.
    public func setTracing(_ on: Bool, echo: Bool = false) {
        lun_state(L).pointee.baseTracing = on ? 1 : 0   // what ui.reset() comes back to
        tracer.set(on, echo: echo)
    }

    /// The lines logged since the last call (the REPL prints them after each input).
    public func takeTraceLines() -> [String] {
        tracer.take().lines
    }

    /// The lines logged since the last call, the runs they name (told
    /// apart by kind, where a line's text cannot be), and whether they are
    /// every run since: false when the oldest were dropped (past 10,000 to
    /// 15,000) or tracing was turned off or on meanwhile — what a tool that
    /// redraws only the views that ran must know.
    public func takeTrace() -> (lines: [String], runs: [TracedRun], isWhole: Bool) {
        tracer.take()
    }

    /// The why-re-rendered log of an app.
    public func trace(of app: App) -> [String] { app.trace }

    /// What the first view named `viewName` in an app depends on; nil if none is rendered.
    public func dependencies(of viewName: String, in app: App) -> [String]? {
        firstUnit(named: viewName, in: app).map { dependencies(of: $0) }
    }

    /// What a view depends on: "Book#3.title", "Library#1.books", "environment 'theme'" —
    /// each once: a key read is two nodes (its value and whether one appears
    /// above, `environmentProbe`), and after a reload a key can have an old
    /// and a new entry, which read as one dependency.
    func dependencies(of unit: Unit) -> [String] {
        var seen = Set<String>()
        return graph.dependencies(of: unit.node).map { label(of: $0) }.filter { seen.insert($0).inserted }
    }

    /// The unit showing `view` in an app: "BookView" (the first in tree
    /// order) or an instance, "BookView#3".
    func unit(named view: String, in app: App) -> Unit? {
        if view.contains("#") { return app.units().first { $0.kind == .component && $0.label == view } }
        return firstUnit(named: view, in: app)
    }

    /// What the view a component node shows depends on; nil for a node that
    /// shows no view. Found from the node itself: a tool walking a tree asks
    /// for each view it meets without a lookup by label.
    public func dependencies(of node: RenderNode) -> [String]? {
        guard node.kind == .component, let unit = node.unit, !unit.disposed else { return nil }
        return dependencies(of: unit)
    }

    /// What `view` ("BookView" or "BookView#3") depends on, in any mounted app.
    public func dependencies(of view: String) -> [String]? {
        for app in apps { if let unit = unit(named: view, in: app) { return dependencies(of: unit) } }
        return nil
    }

    /// The state of `view` ("BookView" or "BookView#3"), one "name = value" a line.
    public func state(of view: String) throws -> String? {
        guard let unit = apps.lazy.compactMap({ self.unit(named: view, in: $0) }).first else { return nil }
        var text: UnsafePointer<CChar>?
        var length = 0
        guard lun_unit_state(L, unit.recordRef, &text, &length) == LUN_OK, let text else {
            throw LunetteError.script(lastError)
        }
        return string(text, length)
    }

    /// Writes state `name` of `view` to the value of the Lua expression
    /// `value`, through the normal write path, then flushes.
    public func setState(of view: String, _ name: String, to value: String) throws {
        guard let unit = apps.lazy.compactMap({ self.unit(named: view, in: $0) }).first else {
            throw LunetteError.script("no view named \(view) is rendered")
        }
        guard !name.utf8.contains(0) else {                   // C reads the name to its first NUL: another state's
            throw LunetteError.script("\(view) has no state named with a NUL byte")
        }
        let status = value.withCString { lun_unit_set(L, unit.recordRef, name, $0, value.utf8.count) }
        if status == LUN_SYNTAX { throw LunetteError.syntax("'\(value)' is not a Lua value") }
        guard status == LUN_OK else { throw LunetteError.script(lastError) }
        flush()
    }

    /// What an inspector shows of a view (a component node).
    public struct ViewInspection {
        /// "BookView#2": its type and identity.
        public let label: String
        /// Times its body ran.
        public let renders: Int
        /// What it read: "Book#3.title".
        public let dependencies: [String]
        /// Its state, "name = value" lines.
        public let state: String
        /// Its inputs, "name = value" lines.
        public let inputs: String
        /// Why it last rendered, with where the write happened (when tracing).
        public let lastRender: String?
        /// Seconds its last render took (when tracing).
        public let lastRenderSeconds: Double
    }

    /// Seconds the last render of `view` ("BookView#2") took, measured while tracing.
    public func lastRenderSeconds(of view: String) -> Double? {
        apps.lazy.compactMap { self.unit(named: view, in: $0) }.first?.lastRenderSeconds
    }

    /// The inspection of the view a component node shows; nil for other nodes.
    public func inspect(_ node: RenderNode) -> ViewInspection? {
        guard node.kind == .component, let unit = node.unit, !unit.disposed, holds(unit) else { return nil }
        var text: UnsafePointer<CChar>?, length = 0
        let state = lun_unit_state(L, unit.recordRef, &text, &length) == LUN_OK ? text.map { string($0, length) } ?? "" : ""
        var inputText: UnsafePointer<CChar>?, inputLength = 0
        let inputs = lun_unit_inputs(L, unit.recordRef, &inputText, &inputLength) == LUN_OK
            ? inputText.map { string($0, inputLength) } ?? "" : ""
        let last = unit.app.flatMap { app in app.trace.last { $0.hasPrefix("↻ \(unit.label)  (") || $0 == "↻ \(unit.label)" } }
        return ViewInspection(label: unit.label, renders: unit.renderCount, dependencies: dependencies(of: unit),
                              state: state, inputs: inputs, lastRender: last, lastRenderSeconds: unit.lastRenderSeconds)
    }

    /// The first unit rendering a view of this name in an app, in tree order.
    func firstUnit(named name: String, in app: App) -> Unit? {
        guard let root = app.root else { return nil }
        var queue = [root]
        while !queue.isEmpty {
            let unit = queue.removeFirst()
            if unit.kind == .component && unit.name == name { return unit }
            queue += Self.childUnits(of: unit.output)
        }
        return nil
    }

    private static func childUnits(of nodes: [RenderNode]) -> [Unit] {
        nodes.flatMap { node -> [Unit] in
            let presented = childUnits(of: node.ownChildren)     // with a unit: a sheet or alert on it
            if let unit = node.unit { return [unit] + presented }
            return presented
        }
    }
}
