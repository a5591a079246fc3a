import CLunette

/// A unit of rendering: something that runs Lua in its own tracking scope.
///
/// A root (a mounted view value), a component (a `ui.View` body), a list's
/// content (iterating its data) or a row (one call of the row function); a
/// `ui.effect` is C's (lun_effect.c), not a unit. Each has an effect node in the graph; when what it
/// read changes, the scheduler runs it again. Its Lua side — inputs, state,
/// the values its output keeps — is a record table held by `recordRef`.
final class Unit {
    enum Kind: Int32 {
        case root = 1, component, list, row

        /// "row", "effect": a unit's name when it is no component. Spelled
        /// out: interpolating a case reflects on it, microseconds per unit.
        var name: String {
            switch self {
            case .root: return "root"
            case .component: return "component"
            case .list: return "list"
            case .row: return "row"
            }
        }
    }

    // Stored widest first (Swift lays a class's fields out in the order
    // written): every mounted view holds one, and its size is most of what a
    // mounted view costs Swift (TARGETS.md P6). What few units use lives in
    // `LastOutput.Rare`, allocated when first set.
    let name: String
    /// Strong, as `children` is (no weak reference: a weakly referenced
    /// object's every retain takes Swift's slow path). The cycle lasts while
    /// both are mounted; `dispose` and the runtime's deinit break it.
    let parent: Unit?
    let app: App?
    /// What its last run left (its records until read, then its nodes).
    @exclusivity(unchecked) var last = LastOutput()
    /// What the scheduler keeps of it between runs.
    @exclusivity(unchecked) var run = RunState()

    /// The rendered output: the top-level nodes of its last run, built from
    /// its records when first read. Setting it replaces the records.
    var output: [RenderNode] {
        get {
            if let nodes = last.nodes { return nodes }
            let nodes = OutputNodes.build(self)
            last.nodes = nodes
            last.records = []                    // the nodes hold the text now, within the same charge
            last.links = []
            return nodes
        }
        set {
            last.nodes = newValue
            last.records = []
            last.links = []
            last.rare?.preferenceLayout = nil   // it holds child units: no cycle outlives a dispose
        }
    }
    /// Child units with their structural keys (position and type, or
    /// explicit identity), in output order (`ChildMatch`).
    @exclusivity(unchecked) var children: [ChildEntry] = []
    /// Environment values set by ancestors between the parent unit and this one.
    @exclusivity(unchecked) var environment: [EnvironmentEntry] = []
    /// Environment values this unit's output sets, by position and key.
    @exclusivity(unchecked) var environmentEntries: [OutputBuilder.EntryKey: EnvironmentEntry] = [:]
    /// Body runs of this instance (`app:renders("BookView#2")`).
    var renderCount = 0
    let id: Int32
    let typeId: Int32
    let node: Int32
    @exclusivity(unchecked) var recordRef: Int32 = 0
    /// How deep the node hosting it sits in the whole rendered tree (R18).
    @exclusivity(unchecked) private var treeDepth32: Int32 = 0
    private let depth32: Int32
    /// Its number among the views of its type ("BookView#2"), for diagnostics.
    private var ordinal32: Int32 = 0
    let kind: Kind
    @exclusivity(unchecked) var disposed = false
    /// The output of its last run holds a preference value or handler (T06).
    private(set) var hasPreferences = false
    /// Its children whose subtrees hold a preference value or handler: the
    /// preference pass skips a subtree that holds none, so it costs where
    /// preferences are, not what is mounted. Kept in the rare part: few
    /// units are on the way to a preference, and a field here moved every
    /// unit to the next allocation size (P6's memory: 982 → 999 B a view).
    private(set) var childrenWithPreferences: Int32 {
        get { last.rare?.childrenWithPreferences ?? 0 }
        set {
            if newValue == 0, last.rare == nil { return }
            last.makeRare().childrenWithPreferences = newValue
        }
    }

    /// Whether it or a unit below it holds a preference value or handler.
    var preferencesInSubtree: Bool { hasPreferences || childrenWithPreferences > 0 }

    /// Whether its output holds a preference value or handler. Its parent
    /// hears only when its subtree begins or stops holding one, and so on up:
    /// 3,000 rows that gain a value stop at their list.
    func holdsPreferences(_ holds: Bool) {
        guard holds != hasPreferences else { return }
        let before = preferencesInSubtree
        hasPreferences = holds
        if preferencesInSubtree != before { tellParent(holds) }
    }

    /// It goes: its parent no longer counts it (before it is marked disposed;
    /// what its children do as they go stays with it).
    func leavePreferences() {
        if preferencesInSubtree { tellParent(false) }
    }

    /// Its subtree began (or stopped) holding preferences: its parent's count
    /// moves, and the parent's parent's if the parent's subtree changed too —
    /// up to a unit that is going (its own count was taken away already). A
    /// unit keeps its parent for life; the chain is under
    /// `LUN_MAX_TREE_DEPTH` long.
    private func tellParent(_ holds: Bool) {
        var unit = self
        while !unit.disposed, let parent = unit.parent {
            let before = parent.preferencesInSubtree
            parent.childrenWithPreferences += holds ? 1 : -1
            guard parent.preferencesInSubtree != before else { return }
            unit = parent
        }
    }

    /// How deep the node hosting it sits in the whole rendered tree (R18;
    /// under `LUN_MAX_TREE_DEPTH`, so kept in 32 bits).
    var treeDepth: Int {
        get { Int(treeDepth32) }
        set { treeDepth32 = Int32(clamping: newValue) }
    }
    /// How deep it is among units (the root 0; its parent's plus one: under
    /// the tree's depth, so kept in 32 bits).
    var depth: Int { Int(depth32) }
    /// Its number among the views of its type ("BookView#2"), for diagnostics.
    var ordinal: Int {
        get { Int(ordinal32) }
        set { ordinal32 = Int32(clamping: newValue) }
    }
    /// Seconds its last run took (measured while tracing).
    var lastRenderSeconds: Double {
        get { last.rare?.renderSeconds ?? 0 }
        set { last.makeRare().renderSeconds = newValue }
    }

    /// What Swift holds for a child unit besides its output's records — the
    /// unit, its entry among its parent's children, its node — charged to
    /// the memory cap by the output that links it (P6's memory bench
    /// measures about 700 bytes a mounted view, Lua's part included).
    static let heldBytes = 640

    init(id: Int32, kind: Kind, typeId: Int32, name: String, parent: Unit?, app: App?, node: Int32) {
        self.id = id
        self.kind = kind
        self.typeId = typeId
        self.name = name
        self.parent = parent
        self.depth32 = (parent?.depth32 ?? -1) + 1
        self.app = app
        self.node = node
    }

    /// Its name in diagnostics: "BookView#2", "List row#5".
    var label: String { ordinal > 0 ? "\(displayName)#\(ordinal)" : displayName }

    /// A readable name for messages: "BookView", "List row", "effect".
    var displayName: String {
        switch kind {
        case .component: return name
        case .row: return "\(parent?.parentComponentName ?? "List") row"
        case .list: return "\(parent?.displayName ?? "root") list"
        case .root: return "root"
        }
    }

    private var parentComponentName: String? {
        var unit: Unit? = self
        while let u = unit {
            if u.kind == .component { return u.name }
            unit = u.parent
        }
        return nil
    }

    /// Finds the nearest environment entry for `key`, from this unit upward.
    func environmentEntry(for key: String) -> EnvironmentEntry? {
        var unit: Unit? = self
        while let u = unit {
            if let entry = u.environment.last(where: { $0.key == key }) { return entry }
            unit = u.parent
        }
        return nil
    }
}

extension Unit {
    /// What a unit's last run left: the records it wrote (`OutputRecords`)
    /// until something reads `output` — a run builds no node a host, a test
    /// or the preview does not look at — then the nodes built from them.
    struct LastOutput {
        /// The records, until read.
        var records: [UInt8] = []
        /// The child units the records' links name, in order.
        var links: [Unit] = []
        /// The nodes built from the records, once read.
        var nodes: [RenderNode]? = []
        /// Bytes of script strings the output holds (records or nodes), charged to the memory cap (R19).
        var bytes = 0
        /// Bumped on each run; node handles re-resolve against the current output.
        var generation = 0
        /// What few runs leave (an animation, the output's own facts, a traced time).
        var rare: Rare?

        /// What a unit's last run left that few units have, kept apart so that
        /// the others do not carry it.
        final class Rare {
            var animation: String?
            var attributes: [(name: String, value: String)] = []
            var renderSeconds = 0.0
            /// A graph node for each environment key read through it (found
            /// or not), which the readers track: it changes when a value for
            /// the key appears above it, or a nearer one
            /// (`OutputBuilder.environmentMoved`). Freed with the unit. A
            /// list, not a dictionary: a unit reads few keys (a control's
            /// `isEnabled`), and a dictionary's storage costs a hundred bytes.
            var environmentProbes: [(key: String, node: Int32)] = []
            /// Where its output's preference handlers, values and child units
            /// stand, in tree order, once the preference pass asked
            /// (`PreferenceList`); dropped when it runs again.
            var preferenceLayout: PreferenceLayout?
            /// `Unit.childrenWithPreferences`.
            var childrenWithPreferences: Int32 = 0

            /// The probe node of `key`, if it was read through this unit.
            func probe(_ key: String) -> Int32? { environmentProbes.first { $0.key == key }?.node }
        }

        /// The rare part, made when first written.
        mutating func makeRare() -> Rare {
            if let rare { return rare }
            let made = Rare()
            rare = made
            return made
        }

        /// The animation of the transaction the run belonged to (its top-level nodes').
        var animation: String? {
            get { rare?.animation }
            set { if newValue != nil || rare != nil { makeRare().animation = newValue } }
        }
        /// Facts about the output as a whole (a lazy list's hidden rows), shown on the hosting node.
        var attributes: [(name: String, value: String)] {
            get { rare?.attributes ?? [] }
            set { if !newValue.isEmpty || rare != nil { makeRare().attributes = newValue } }
        }
    }

    /// What the scheduler keeps of a unit between its runs (Rendering.swift,
    /// `Scheduler`, `RoundBatch`).
    struct RunState {
        /// Loop detection: the flush its runs are counted in, and how many.
        var flushStamp = 0
        var runsThisFlush = 0
        /// Checks in the same round that found nothing it read changed (Rendering.swift's `countCheck`).
        var checksThisFlush = 0
        /// The flush in which its run was stopped by the time budget (not run again in it).
        var stoppedInFlush = -1
        /// The last flush it was carried from (`FlushState.flushes`): carried into a flush, it is not carried out.
        var carriedFlush = -1
        /// The transaction that made it stale, for its next run.
        var pendingTransaction: Transaction?
        /// Its place in the last round batch it was put in (RoundBatch.cancel).
        var batchSlot: Int32 = -1
        /// Why it must run regardless of its dependencies (the trace's reason).
        var cause: Cause? = .new
        /// Must run at the next flush whatever its dependencies say (new, inputs changed).
        var needsRender = true
        /// Waiting in the scheduler's queue.
        var queued = false
        /// Stopped in this flush and listed in `FlushState.held` (released when the flush ends).
        var held = false

        /// Why a unit must run whatever its dependencies say.
        enum Cause: UInt8 {
            case new, reloaded, inputs
        }

        /// It runs now: nothing more forces it to run again, until something does.
        mutating func ran() {
            cause = nil
            needsRender = false
        }

        /// A change in `transaction` reached it before its next run. One run
        /// has one transaction, so they merge as closely as that allows: the
        /// first stays, unless it does not animate and this one does (so a
        /// plain change, a key or `withAnimation(nil)` then `withAnimation`
        /// animates, whatever the order; an animation, once it reached the
        /// unit, stays). T02.
        mutating func receive(_ transaction: Transaction) {
            guard let current = pendingTransaction else { pendingTransaction = transaction; return }
            if current.animation == nil, transaction.animation != nil { pendingTransaction = transaction }
        }
    }
}

/// A value set by `:environment(...)` on a node of some unit's output.
final class EnvironmentEntry {
    let key: String
    /// The graph node readers track; notified when a re-render passes another value.
    let node: Int32
    /// Where the value lives: the owning unit's record `out` table, at `slot`.
    @exclusivity(unchecked) var recordRef: Int32
    /// Its slot in the run being built (or the last one)…
    var slot: Int32 = 0
    /// …and in the last run that finished, whose `out` table the record holds.
    var committedSlot: Int32 = 0

    init(key: String, node: Int32, recordRef: Int32) {
        self.key = key
        self.node = node
        self.recordRef = recordRef
    }
}

/// Body runs counted by view type id. The ids are dense from 1 (ViewTypes
/// numbers each name as it is first described), so the first ones are an
/// array: a render adds one without hashing. Past `arrayed` ids (a script
/// that defines thousands of view types) they are a dictionary, so what an
/// app keeps grows with the types it rendered, not with the largest id.
struct RenderCounts {
    static let arrayed = 256
    private var counts: [Int] = []
    private var more: [Int32: Int] = [:]

    /// One more run of a body of type `typeId`.
    mutating func add(_ typeId: Int32) {
        let index = Int(typeId)
        guard index >= 0, index < Self.arrayed else { more[typeId, default: 0] += 1; return }
        if index >= counts.count { counts.append(contentsOf: repeatElement(0, count: index - counts.count + 1)) }
        counts[index] += 1
    }

    /// Counts kept (for tests: what an app holds for them).
    var slots: Int { counts.count + more.count }

    /// Runs of bodies of type `typeId` so far.
    subscript(typeId: Int32) -> Int {
        let index = Int(typeId)
        guard index >= 0, index < Self.arrayed else { return more[typeId] ?? 0 }
        return index < counts.count ? counts[index] : 0
    }
}

/// A mounted root: its unit, and what happened in it.
public final class App {
    let id: Int32
    var root: Unit!
    /// The script whose run mounted it (`LunetteRuntime.script`: "@/abs/path"
    /// for a file); nil for one mounted otherwise (an action's `ui.mount`, a line evaluated).
    var script: String?
    /// Body runs by view type id (names are the runtime's: ViewTypes).
    @exclusivity(unchecked) var renderCounts = RenderCounts()
    /// The view type id of a name, for `renders(of:)`.
    var typeID: (String) -> Int32? = { _ in nil }
    /// Its warnings (app:warnings()): the first 1000, then a line saying more were not kept.
    var warnings: [String] { warningLog.messages }
    @exclusivity(unchecked) var warningLog = MessageLog(overflow: "more than \(MessageLog.limit) warnings")
    /// Errors raised outside bodies — by onAppear, onDisappear, onChange,
    /// onReceive and tasks — each "View: file.lua:12: message" (also listed
    /// among the warnings, where scripts read them with app:warnings()): the
    /// first 1000, then a line saying more were not kept.
    public var eventErrors: [String] { eventLog.messages }
    var eventLog = MessageLog(overflow: "more than \(MessageLog.limit) errors of events")
    /// The why-re-rendered log of this app (when tracing).
    var trace: [String] = []
    /// The last query's matches (`app:findAll` asks for them one by one).
    var lastFind: TreeQuery.Remembered?
    /// Searches of the tree for a query (for tests: findAll searches once).
    private(set) var searches = 0

    /// Handles to the matches of `query` as the tree is after round
    /// `round`: remembered from the last call when it asked the same since.
    func matches(of query: TreeQuery.Query, round: Int) -> [NodeHandles.Handle] {
        if let last = lastFind, last.query == query, last.round == round { return last.found }
        guard let root else { return [] }
        searches += 1
        let found = TreeQuery.find(in: root, query).map { NodeHandles.Handle(unit: $0.unit, path: $0.path, kind: $0.node.kind) }
        lastFind = TreeQuery.Remembered(query: query, round: round, found: found)
        return found
    }

    init(id: Int32) {
        self.id = id
    }

    /// The app's number (1, 2, ... in mounting order).
    public var idNumber: Int32 { id }

    /// The rendered tree's top-level nodes.
    public var nodes: [RenderNode] { root?.output ?? [] }

    /// How many times bodies of the view type named `viewName` ran in this app;
    /// for "BookView#2", how many times that instance's body ran.
    public func renders(of viewName: String) -> Int {
        if viewName.contains("#") { return units().first { $0.kind == .component && $0.label == viewName }?.renderCount ?? 0 }
        return typeID(viewName).map { renderCounts[$0] } ?? 0
    }

    /// Every render count back to 0 (a test then asserts "rendered once").
    public func resetRenderCounts() {
        renderCounts = RenderCounts()
        for unit in units() { unit.renderCount = 0 }
    }

    /// The units of this app, parents first.
    func units() -> [Unit] {
        guard let root else { return [] }
        var found: [Unit] = [root], i = 0
        while i < found.count {
            found += found[i].children.map(\.unit).sorted { $0.id < $1.id }
            i += 1
        }
        return found
    }
}

extension App {
    /// Error nodes in the rendered tree: "BookView: file.lua:12: boom".
    public var errors: [String] {
        var found: [String] = []
        func visit(_ nodes: [RenderNode]) {
            for node in nodes {
                if node.kind == .error { found.append("\(node.attribute("view") ?? "view"): \(node.text ?? "")") }
                visit(node.children)
            }
        }
        visit(nodes)
        return found
    }
}
