import CLunette

/// Takes a unit's new output from the records its run wrote (`OutputRecords`)
/// and matches the child units it names against the previous run's.
///
/// The records are kept as they are (the unit's nodes are built from them
/// when first read: `OutputNodes`); what the run needs at once is followed
/// here: the open node's position, the environment values around it, the
/// output's own attributes, the child units born, changed and gone.
///
/// Structural identity: a child without an explicit id is keyed by its
/// position in the output and its type; with an id (`:id(v)`, a row's
/// element), by the id and type. A child whose key is gone is disposed.
///
/// Positions are kept as integers (two per open node: its place, or its
/// interned constructor slot, and its kind), so opening a node and keying a
/// child build no strings; `position` spells one out only when asked.
final class OutputBuilder {
    /// The identity of a child unit within its parent's output.
    struct ChildKey: Hashable {
        var kind: Int32
        var typeId: Int32
        var id: String?
        var path: PathKey
        /// Where it was built (F01): its file's number (lun_site.c; 0: code loaded from text,
        /// -1: a line a reload found edited or removed) and its line.
        var siteFile: Int32 = 0
        var site: Int32
        var copy: Int32 = 0

        /// The integers folded into one word before the (keyed) hasher
        /// sees it: one combine, not a dozen, as keying a child is on the
        /// mount path. Each value is mixed in turn (PathKey.fold), so keys
        /// that differ in one field differ in the word; equality still
        /// compares every field.
        func hash(into hasher: inout Hasher) {
            var word = PathKey.fold(0, UInt64(UInt32(bitPattern: kind)) << 32 | UInt64(UInt32(bitPattern: typeId)))
            word = PathKey.fold(word, UInt64(UInt32(bitPattern: site)) << 32 | UInt64(UInt32(bitPattern: copy)))
            word = PathKey.fold(word, UInt64(UInt32(bitPattern: siteFile)))
            hasher.combine(path.folded(into: word))
            if let id { hasher.combine(id) }
        }
    }

    /// An environment value's place: the node that sets it, and its key.
    struct EntryKey: Hashable {
        var path: PathKey
        var key: String
    }

    @exclusivity(unchecked) private(set) var unit: Unit?
    /// The records of this run so far, and the child units they link.
    @exclusivity(unchecked) private var records: [UInt8] = []
    @exclusivity(unchecked) private var links: [Unit] = []
    /// Nodes placed so far in each open node (the first: the output's top level).
    @exclusivity(unchecked) private var placed: [Int32] = []
    @exclusivity(unchecked) private var path: [Int32] = []
    /// Constructor slots (F02) met so far, numbered: a path holds -(number).
    @exclusivity(unchecked) private var slotIDs: [String: Int32] = [:]
    @exclusivity(unchecked) private var slotNames: [String] = []
    @exclusivity(unchecked) private var outputAttributes: [(name: String, value: String)] = []
    @exclusivity(unchecked) private var environmentMarks: [Int] = []
    @exclusivity(unchecked) private var environmentStack: [EnvironmentEntry] = []
    /// The last stacks `movedKeys` compared, and its answer (this run's).
    private var lastMove: (old: [EnvironmentEntry], new: [EnvironmentEntry], keys: Set<String>)?
    /// The run's child units against the last run's.
    @exclusivity(unchecked) private var children = ChildMatch()
    @exclusivity(unchecked) private var oldEntries: [EntryKey: EnvironmentEntry] = [:]
    @exclusivity(unchecked) private var newEntries: [EntryKey: EnvironmentEntry] = [:]
    @exclusivity(unchecked) private var lastEntry: EnvironmentEntry?
    @exclusivity(unchecked) private var errorMessage: String?
    /// Bytes of script strings this run copied (charged to the cap), and whether it ran out.
    @exclusivity(unchecked) private var runBytes = 0
    @exclusivity(unchecked) private var overCap = false
    /// The constructor slot of the next node opened, when it differs from its place (F02).
    @exclusivity(unchecked) private var nextPosition: Int32?
    /// The line of the body that built the next child unit, when it has no explicit id (F01).
    @exclusivity(unchecked) private var nextSite: (file: Int32, line: Int32) = (0, 0)
    /// The run recorded a preference value or handler (T06), or animated a node.
    @exclusivity(unchecked) private var sawPreferences = false
    @exclusivity(unchecked) private var sawAnimation = false
    /// The transaction this run belongs to, if any.
    @exclusivity(unchecked) private(set) var transaction: Transaction?
    /// Hand-overs of records (output.write calls) since the runtime started, for tests of the seam.
    @exclusivity(unchecked) private(set) var handOvers = 0
    /// Runs that ended as an entry of a batch's call (`installPlain`), for tests of the seam.
    @exclusivity(unchecked) private(set) var plainRuns = 0
    /// Calls that handed over plain runs (`units_done`, one a batch), for tests of the seam.
    @exclusivity(unchecked) var plainBatches = 0
    /// Copy numbers tried for children of an identity met before (for tests:
    /// they grow with the children, not with their square).
    var copyProbes: Int { children.copyProbes }

    /// The runtime whose units the output makes and keys (unowned(unsafe):
    /// the runtime owns the builder and outlives it; no retain per call).
    unowned(unsafe) let runtime: LunetteRuntime
    /// View type names and ids (output.view_type), shared with the runtime's labels.
    let viewTypes: ViewTypes
    /// Text handed to C (output.unit_name, output.path): valid until the next call.
    let text = CStringBuffer()

    init(runtime: LunetteRuntime, viewTypes: ViewTypes) {
        self.runtime = runtime
        self.viewTypes = viewTypes
    }

    func begin(_ unit: Unit) {
        // A try that did not finish (it suspended, and runs again): what it
        // charged is given back, and the children and environment entries it
        // made or kept go back in the pool, so this try keeps them or
        // `finish` disposes them (none is orphaned).
        let retry = self.unit === unit
        if self.unit != nil, runBytes > 0 { _ = lun_memory_charge(runtime.L, -Int64(runBytes)) }
        let kept = retry ? children.pool : unit.children
        let entries = retry ? oldEntries.merging(newEntries) { old, _ in old } : unit.environmentEntries
        if retry { for entry in entries.values { entry.slot = entry.committedSlot } }
        self.unit = unit
        records = []
        records.reserveCapacity(unit.last.records.count)
        links = []
        placed.removeAll(keepingCapacity: true)     // the builder's own scratch: kept from run to run
        placed.append(0)
        path.removeAll(keepingCapacity: true)
        outputAttributes = []
        environmentMarks.removeAll(keepingCapacity: true)
        environmentStack = []
        lastMove = nil
        children.begin(kept)
        oldEntries = entries
        newEntries = [:]
        lastEntry = nil
        errorMessage = nil
        runBytes = 0
        overCap = false
        nextPosition = nil
        nextSite = (0, 0)
        if !retry || unit.run.pendingTransaction != nil {   // a retry keeps the first try's (taken then)
            transaction = unit.run.pendingTransaction
            unit.run.pendingTransaction = nil
        }
        sawPreferences = false
        sawAnimation = false
    }

    // MARK: records

    /// Takes records C wrote (output.write): keeps them, charged to the
    /// memory cap, and follows what the rest of the run depends on.
    func write(_ bytes: UnsafeRawBufferPointer) {
        handOvers &+= 1
        guard unit != nil else { return }
        // Past the cap the records are not kept (the run ends as an error),
        // but still followed: a new child's record must reach its unit.
        if charge(bytes.count) { records.append(contentsOf: bytes) }
        var reader = OutputRecords(bytes)
        while let record = reader.next() { follow(record) }
    }

    private func follow(_ record: OutputRecords.Record) {
        switch record {
        case let .begin(kind, _):
            let place = nextPosition ?? placed[placed.count - 1]
            placed[placed.count - 1] += 1
            placed.append(0)
            path.append(place)
            path.append(kind)
            nextPosition = nil
            environmentMarks.append(environmentStack.count)
        case .end:
            guard placed.count > 1 else { return }
            placed.removeLast()
            path.removeLast(2)
            let mark = environmentMarks.removeLast()
            if environmentStack.count > mark { environmentStack.removeSubrange(mark...) }   // most nodes set none
        case let .position(slot):
            nextPosition = slot.string.map(slotID)
        case let .attribute(name, value):
            if name.hasPrefix("preference:") { sawPreferences = true }
            if name.hasPrefix("onPreferenceChange:") {
                sawPreferences = true
                runtime.preferences.inUse = true
            }
            if placed.count == 1 { outputAttributes.append((name.string ?? "", value.string ?? "")) }
        case let .site(file, line):
            nextSite = (file, line)
        case let .unitRecord(id, ref):
            runtime.units[id]?.recordRef = ref
        case let .unitChanged(id):
            childChanged(id)
        case .environmentChanged:
            if let entry = lastEntry { environmentNodeChanged(entry.node) }
        case .animate:
            sawAnimation = true
        case .modifier, .slot, .link:
            break
        case .invalid:
            fail("internal: an output record was cut short or unknown")
        }
    }

    /// The open node's position in the output ("0VStack.1Text"), spelled out.
    var position: String {
        stride(from: 0, to: path.count, by: 2).map { i in
            let place = path[i] >= 0 ? String(path[i]) : slotNames[Int(-path[i]) - 1]
            return place + (RenderNode.Kind(rawValue: path[i + 1])?.name ?? "?")
        }.joined(separator: ".")
    }

    /// The number of a constructor slot, as a path holds it: "2" is place 2
    /// (as a node at place 2 without a hint), "2.0" a number of its own.
    private func slotID(_ slot: String) -> Int32 {
        if let place = Int32(slot), place >= 0 { return place }
        if let id = slotIDs[slot] { return id }
        // Kept for the runtime's life (a child's key holds the number): charged, so bounded.
        guard lun_memory_charge(runtime.L, Int64(slot.utf8.count + 64)) != 0 else {
            fail("not enough memory: too many different constructor slots (\(slotNames.count) kept)")
            return 0
        }
        slotNames.append(slot)
        let id = -Int32(slotNames.count)
        slotIDs[slot] = id
        return id
    }

    // MARK: memory held for the script (R19)

    /// Charges `count` more bytes of kept records to the Lua state's memory
    /// cap, for as long as the output holds them (as records, or as the
    /// nodes built from them). Past the cap the run ends as an error node
    /// saying so: what Swift keeps for a script is bounded as Lua's own
    /// memory is.
    private func charge(_ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard !overCap, lun_memory_charge(runtime.L, Int64(count)) != 0 else {
            if !overCap, errorMessage == nil {
                errorMessage = "not enough memory: its output holds more text than the memory cap allows "
                    + "(\(count) bytes after \(runBytes) bytes)"
            }
            overCap = true
            return false
        }
        runBytes += count
        return true
    }

    /// Gives back what a unit's output held (the unit is gone).
    func release(_ unit: Unit) {
        if unit.last.bytes > 0 { _ = lun_memory_charge(runtime.L, -Int64(unit.last.bytes)) }
        unit.last.bytes = 0
    }

    func fail(_ message: String) {
        errorMessage = message
    }

    // MARK: child units

    /// The child unit for the open node: the previous run's at this key, or a
    /// new one; nil if the open node is already `LUN_MAX_TREE_DEPTH` deep in
    /// the whole tree, across bodies (R18: no walk of a tree recurses further).
    func child(kind: Unit.Kind, typeId: Int32, key: String?) -> (unit: Unit, isNew: Bool)? {
        let depth = (unit?.treeDepth ?? 0) + placed.count - 1
        guard depth < LUN_MAX_TREE_DEPTH else { return nil }
        var structural = key.map { ChildKey(kind: kind.rawValue, typeId: typeId, id: $0, path: .none, site: 0) }
            ?? ChildKey(kind: kind.rawValue, typeId: typeId, id: nil, path: PathKey(path), siteFile: nextSite.file,
                        site: nextSite.line)
        nextSite = (0, 0)
        let (child, isNew) = children.place(&structural) { runtime.makeUnit(kind: kind, typeId: typeId, parent: unit) }
        if structural.copy > 0, kind == .row { lun_state(runtime.L).pointee.rowRepeated = 1 }   // C warns (lun_update.c)
        if !isNew, !(child.environment.isEmpty && environmentStack.isEmpty), !child.environment.elementsEqual(environmentStack, by: ===) {
            environmentMoved(from: child.environment, to: environmentStack, below: child)
        }
        child.environment = environmentStack
        if !isNew, child.treeDepth != depth {
            // Kept at another depth (its parent wraps it anew): it runs again, so
            // the depths of everything below it are checked anew too (R18).
            child.run.needsRender = true
            runtime.scheduler.schedule(child)
        }
        child.treeDepth = depth
        link(child)
        return (child, isNew)
    }

    /// Records that the open node hosts `child` (its content is the child's output).
    private func link(_ child: Unit) {
        var index = Int32(links.count)
        links.append(child)
        // The child's link and what Swift holds for the child itself, charged
        // again each run that keeps it (a ForEach of millions of rows is
        // bounded by the cap as Lua's own memory is); past the cap the run
        // is an error node anyway.
        _ = charge(1 + MemoryLayout<Int32>.size + Unit.heldBytes)
        records.append(OutputRecords.linkOp)
        withUnsafeBytes(of: &index) { records.append(contentsOf: $0) }
    }

    /// A kept child's inputs changed (or its view type was defined again): it renders again.
    func childChanged(_ id: Int32) {
        guard let child = runtime.units[id] else { return }
        child.run.needsRender = true
        if runtime.tracer.tracing, child.run.cause == nil { child.run.cause = .inputs }
        if let transaction { child.run.receive(transaction) }
        runtime.scheduler.schedule(child)
    }

    // MARK: environment

    /// A kept child is placed under other environment values than last run:
    /// for each key whose nearest value there moved (a value added, dropped,
    /// or a nearer one), the reads of that key through the child or a unit
    /// below it must be made again — a read tracked the old value's node, or
    /// nothing when it fell back to the default (S23, F03). Each unit read
    /// through has a probe node per key its readers track, whoever they are
    /// (its body, a view holding its `self`, an effect): it changes here.
    /// The walk is iterative, and leaves a key at a unit with a value of its
    /// own for it (that value shadows the change); it happens only when the
    /// values around a kept child change.
    private func environmentMoved(from old: [EnvironmentEntry], to new: [EnvironmentEntry], below child: Unit) {
        let keys = movedKeys(from: old, to: new)
        guard !keys.isEmpty else { return }
        var pending = [(child, keys)]
        while let (unit, keys) = pending.popLast() {
            if let rare = unit.last.rare, !rare.environmentProbes.isEmpty {
                for key in keys { if let node = rare.probe(key) { environmentNodeChanged(node) } }
            }
            for entry in unit.children {
                var left = keys
                for value in entry.unit.environment where left.contains(value.key) { left.remove(value.key) }
                if !left.isEmpty { pending.append((entry.unit, left)) }
            }
        }
    }

    /// An environment value's node (or a probe) changed in this run: its
    /// readers run again, in this run's transaction — what changed because
    /// of a change made inside `withAnimation` animates with it (S20).
    private func environmentNodeChanged(_ node: Int32) {
        runtime.graph.changed(node)
        guard let transaction else { return }
        let outer = runtime.flushState.transaction
        runtime.flushState.transaction = transaction
        runtime.schedulePendingEffects()
        runtime.flushState.transaction = outer
    }

    /// The keys whose nearest value differs between two stacks of values.
    /// Siblings share their stacks: the last answer is kept while they do.
    private func movedKeys(from old: [EnvironmentEntry], to new: [EnvironmentEntry]) -> Set<String> {
        if let last = lastMove, last.old.elementsEqual(old, by: ===), last.new.elementsEqual(new, by: ===) { return last.keys }
        func nearest(_ stack: [EnvironmentEntry]) -> [String: EnvironmentEntry] {
            var found: [String: EnvironmentEntry] = [:]
            for entry in stack { found[entry.key] = entry }
            return found
        }
        let before = nearest(old), after = nearest(new)
        var keys: Set<String> = []
        for (key, entry) in before where after[key] !== entry { keys.insert(key) }
        for (key, entry) in after where before[key] !== entry { keys.insert(key) }
        lastMove = (old, new, keys)
        return keys
    }

    /// Records an environment value on the open node; returns the slot it had last run (0 if new).
    func environment(key: String, slot: Int32) -> Int32 {
        let position = EntryKey(path: PathKey(path), key: key)
        let entry = oldEntries.removeValue(forKey: position)
            ?? EnvironmentEntry(key: key, node: runtime.graph.newNode(.signal, owner: 0, slot: 0, origin: .environment),
                                recordRef: unit?.recordRef ?? 0)
        if runtime.labels.environmentKeys[entry.node] == nil { runtime.labels.environmentKeys[entry.node] = key }
        let previous = entry.committedSlot
        entry.slot = slot
        entry.recordRef = unit?.recordRef ?? 0
        newEntries[position] = entry
        environmentStack.append(entry)
        lastEntry = entry
        return previous
    }

    // MARK: finishing

    /// Installs a plain run's records as `unit`'s output (`endPlainUpdate`):
    /// what `begin`, `write` and `finish` do for an output of nodes only, with
    /// no child, environment value, preference, own attribute or animation to
    /// follow. False, having changed nothing, if the records would pass the
    /// memory cap.
    func installPlain(_ bytes: UnsafeRawBufferPointer, on unit: Unit) -> Bool {
        let delta = bytes.count - unit.last.bytes
        if delta != 0, lun_memory_charge(runtime.L, Int64(delta)) == 0 { return false }
        handOvers &+= 1
        plainRuns &+= 1
        if runtime.treeChangeCallback != nil, let app = unit.app { runtime.flushState.noteChanged(app, unit) }
        unit.last.generation += 1
        unit.last.nodes = nil
        if unit.last.records.count == bytes.count, let base = bytes.baseAddress {   // a re-render of the same size: most
            unit.last.records.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        } else {
            unit.last.records.removeAll(keepingCapacity: true)
            unit.last.records.append(contentsOf: bytes)
        }
        unit.last.animation = nil
        unit.last.bytes = bytes.count
        if !unit.last.attributes.isEmpty { unit.last.attributes = [] }
        return true
    }

    /// Installs the new output; disposes what the run no longer produced.
    /// Returns whether the output is an error node.
    @discardableResult
    func finish() -> Bool {
        guard let unit else { return false }
        let isError = errorMessage != nil
        if runtime.treeChangeCallback != nil, let app = unit.app { runtime.flushState.noteChanged(app, unit) }
        let animated = errorMessage == nil && (sawAnimation || transaction?.animation != nil)
        let old = animated ? unit.output : []     // built (if not yet) as of its own generation
        unit.last.generation += 1                       // the nodes built from these records are of this generation
        if let message = errorMessage {
            runtime.problems.record(error: "\(unit.displayName): \(message)")
            let node = RenderNode(kind: .error, text: message)
            node.ownAttributes.append(("view", unit.displayName))
            if let location = Self.location(in: message) { node.ownAttributes.append(("location", location)) }
            unit.output = [node]
            for entry in newEntries.values { entry.slot = entry.committedSlot }   // the record keeps its last out table
            release(unit)
            _ = lun_memory_charge(runtime.L, -Int64(runBytes))
        } else {
            for entry in newEntries.values { entry.committedSlot = entry.slot }
            unit.last.nodes = nil
            unit.last.records = records.exactlySized()
            unit.last.links = links.exactlySized()
            unit.last.animation = transaction?.animation
            release(unit)
            unit.last.bytes = runBytes
            if animated { Animations.record(old: old, new: unit.output) }
        }
        unit.last.attributes = outputAttributes
        // A view whose output holds preferences, or held some, or that holds
        // views that do (it may have moved them: their order is the fold's)
        if sawPreferences || unit.preferencesInSubtree { runtime.preferences.dirty = true }
        unit.holdsPreferences(sawPreferences)
        unit.last.rare?.preferenceLayout = nil
        let gone = isError ? children.pool : children.untaken     // an error node keeps no child
        let kept = children.finish()
        for entry in gone { runtime.dispose(entry.unit) }
        for entry in oldEntries.values { runtime.dropEnvironmentEntry(entry) }
        unit.children = isError ? [] : kept
        unit.environmentEntries = newEntries
        self.unit = nil
        runBytes = 0
        records = []
        links = []
        placed.removeAll(keepingCapacity: true)
        oldEntries = [:]
        newEntries = [:]
        environmentStack = []
        lastEntry = nil
        return isError
    }

    /// "file.lua:12" from a Lua error message "file.lua:12: boom".
    static func location(in message: String) -> String? {
        let chars = Array(message.prefix(512))
        var i = 0
        while i < chars.count {
            if chars[i] == ":" {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                if j > i + 1, j < chars.count, chars[j] == ":" { return String(chars[0..<j]) }
            }
            i += 1
        }
        return nil
    }
}
