import CLunette
import Dispatch

/// The scheduler's work: flushing, running units, making and disposing them.
extension LunetteRuntime {
    /// Runs every pending update now: changes coalesce until here. Dirty
    /// units run parents first, each once (unless a body keeps writing what
    /// it reads, which is reported after `renderLoopLimit` runs).
    ///
    /// Then what waits for the update runs — onAppear/onDisappear, onChange,
    /// starting tasks, subscribing onReceive — and, if that changed data, the
    /// views update again (at most `renderLoopLimit` rounds).
    public func flush() {
        if lun_flush(L) != LUN_OK { reportFailure(of: "a flush") }   // the loop is C's (lun_flush.c); the decisions below are ours
        reportTreeChanges()
    }

    /// What raised out of a flush the host asked for (memory at the cap, its call refused, a
    /// stop): said, as an effect's failure is (`effectErrors`), never dropped.
    func reportFailure(of what: String) {
        let text = "\(what) failed: \(lastError)"
        problems.record(error: text)
        effectLog.append(text)
    }

    /// Calls `onTreeChange` with what rendered anew, outside any Lua call
    /// (a host may flush or tap from it).
    /// A view is reported once, and only if its output differs from what the
    /// host last heard of: a body that ran again to the same output (a change
    /// from another thread settled at the next flush) is not news.
    func reportTreeChanges() {
        reportOpenedURLs()                            // what scripts opened (onOpenURL), at the same places
        guard let callback = treeChangeCallback, !flushState.changed.isEmpty else { return }
        let ran = flushState.changed.values.sorted { $0.app.idNumber < $1.app.idNumber }
        flushState.changed = [:]
        for entry in ran where mounting.appsByID[entry.app.id] === entry.app {
            let renewed = entry.units.filter { record in
                guard !record.unit.disposed else { return false }
                guard let before = record.before else { return true }
                return !OutputComparison.same(before, record.unit.output)
                    || !OutputComparison.same(record.attributesBefore, record.unit.last.attributes)
            }
            guard !renewed.isEmpty else { continue }
            callback(TreeChange(app: entry.app, views: renewed.filter { $0.unit.kind == .component }.map(\.unit.label)))
        }
    }

    /// A flush starts, unless one is running: what other threads changed is settled first.
    func beginFlush() -> Bool {
        guard !flushState.flushing else { return false }
        flushState.flushing = true
        flushState.flushes += 1
        flushState.roundsLeft = options.renderLoopLimit
        let settle = flushState.rechecks
        flushState.rechecks = []
        for node in settle where graph.isLive(node) { graph.changed(node) }
        drainInbox()
        freeReleasedNodes()
        // A change from outside (a write, a tap, a timer, another thread) starts the count of
        // flushes in a row that carry anew: the count bounds chains that feed themselves. Work a
        // flush left when it ran out of rounds is its own, not a change from outside.
        let g = graph.handle.pointee
        if !flushState.leftWork && (graph.hasPending || !scheduler.isEmpty || g.effectsHead < g.effects.count) {
            lun_state(L)!.pointee.carryStreak = 0
        }
        flushState.leftWork = false
        return true
    }

    /// A round starts: false past `renderLoopLimit` rounds, and then what
    /// still waits is reported (it runs at the next flush).
    func beginRound() -> Bool {
        guard flushState.roundsLeft > 0 else {
            if somethingWaits {
                flushState.leftWork = true                // what waits is this flush's, not a change from outside
                let message = "a flush stopped after \(options.renderLoopLimit) rounds: events (onChange, onAppear, a "
                    + "task's start…) or effects keep changing what views read; what was still waiting may show old values "
                    + "until it runs again"
                problems.record(warning: message)
                for app in apps { app.warningLog.append(message) }
            }
            return false
        }
        flushState.roundsLeft -= 1
        flushState.flushCount += 1
        if !flushState.deferred.isEmpty {             // put off by the last round (or a held unit a change reached)
            for unit in flushState.deferred where !unit.disposed { scheduler.schedule(unit) }
            flushState.deferred.removeAll(keepingCapacity: true)
        }
        schedulePendingEffects()
        return true
    }

    /// A round ended, `ran` events having run: whether another round is due.
    func endRound(ran: Int32) -> Bool {
        drainInbox()
        schedulePendingEffects()
        return ran != 0 || !scheduler.isEmpty || !flushState.deferred.isEmpty
    }

    /// A view or an effect waits to run (queued, pending, or put off to the next round).
    private var somethingWaits: Bool {
        graph.hasPending || !scheduler.isEmpty || !flushState.deferred.isEmpty || lun_effects_waiting(lun_state(L)) != 0
    }

    func endFlush() {
        if !flushState.deferred.isEmpty {             // put off past the last round: stopped, till the next change
            for unit in flushState.deferred where !unit.disposed { letGo(unit) }
            flushState.deferred.removeAll(keepingCapacity: true)
        }
        // A unit carried into this flush is not carried out of it, and no more than LUN_CARRY_STREAK
        // flushes in a row carry: loops that feed themselves, or each other by turns, would make
        // flush after flush. (C decided the same for effects, just before.)
        let state = lun_state(L)!
        let mayCarry = state.pointee.carryStreak < LUN_CARRY_STREAK
        var carried = false
        if !flushState.held.isEmpty {                 // stopped in this flush: the next change runs them, or the
            for unit in flushState.held where !unit.disposed {    // next flush if one reached them meanwhile
                unit.run.held = false
                guard graph.release(unit.node) else { continue }
                if mayCarry && unit.run.carriedFlush != flushState.flushes - 1 {
                    unit.run.carriedFlush = flushState.flushes
                    flushState.deferred.append(unit)
                    carried = true
                } else {
                    letGo(unit)
                }
            }
            flushState.held.removeAll(keepingCapacity: true)
        }
        // Held units a change reached, views here and effects in C (lun_effects_end_flush,
        // just before): the next flush runs them; a host that flushes on request is asked for one.
        let anyCarried = carried || state.pointee.effectsCarried > 0
        state.pointee.carryStreak = anyCarried ? state.pointee.carryStreak + 1 : 0
        if anyCarried { inbox.wakeUp() }
        storage.commit()                              // what the flush wrote, to the store's queue (R21)
        freeReleasedNodes()
        hosts.pruneIdentities()
        // Past a large flush (a mount of thousands of views), its scratch goes
        // back, and the freed pages to the system: what the process holds
        // afterwards is what stays mounted (TARGETS.md P6's memory). At most
        // once a second: a host that re-renders thousands of views a frame
        // pays for the walk over the free lists once, not every frame.
        let shrunk = batch.shrink()
        if scheduler.shrink() || shrunk {
            let now = DispatchTime.now().uptimeNanoseconds
            if now &- flushState.lastTrim >= 1_000_000_000 || flushState.lastTrim == 0 {
                flushState.lastTrim = now
                flushState.trims += 1
                lun_heap_trim()
            }
        }
        if !flushState.rechecks.isEmpty { inbox.wakeUp() }
        flushState.flushing = false
    }

    /// Fills the next batch of the round: every unit waiting at the
    /// shallowest depth, in order, that may run (not disposed, not stopped,
    /// within the render loop limit). Returns how many; 0 ends the round.
    func nextBatch() -> Int32 {
        batch.removeAll()
        guard graph.hasPending || !scheduler.isEmpty else { return 0 }   // most rounds of a flush of effects
        schedulePendingEffects()
        var ids = batch.ids
        batch.ids = []                                // one owner: emptying it keeps its storage
        defer { batch.ids = ids }
        while batch.count == 0, scheduler.takeShallowest(into: &ids) {
            for id in ids {
                guard let unit = units[id] else { continue }
                unit.run.queued = false
                guard !unit.disposed, admitRun(of: unit) else { continue }
                if mounting.lineMoves != nil, let app = unit.app { mounting.ranEarly.insert(app.id) }   // before its mount
                batch.append(unit, plain: runsPlainly(unit))
            }
        }
        return Int32(batch.count)
    }

    /// Unit `id`, or the gone unit whose record C is releasing now (named, and
    /// its environment found, while it goes).
    func unitOrReleased(_ id: Int32) -> Unit? {
        units[id] ?? flushState.releasing.flatMap { $0.id == id ? $0 : nil }
    }

    /// While a reload runs: moves the sites of `app`'s children to the new
    /// lines as the new code mounts it (ReloadLines).
    func moveLines(of app: App) {
        guard var moves = mounting.lineMoves, mounting.movedApps.insert(app.id).inserted else { return }
        if !moves.checked {                               // the first mount: the script has loaded what it loads
            moves = mounting.lines.checked(moves, in: L)
            mounting.lineMoves = moves
        }
        mounting.lines.move(app, as: moves, ranEarly: mounting.ranEarly.contains(app.id))
    }

    /// A view whose run may end as one entry of a batch's call (`units_done`, lun_Ticket.plain):
    /// its output holds nothing the builder must follow — no child unit, no
    /// environment value, no preference — and no transaction waits for it.
    /// C falls back to the full path the moment the run needs more.
    func runsPlainly(_ unit: Unit) -> Bool {
        (unit.kind == .component || unit.kind == .row) && unit.children.isEmpty && unit.environmentEntries.isEmpty
            && !unit.hasPreferences && unit.run.pendingTransaction == nil && !tracer.tracing
    }

    /// The plain runs of a batch ended having asked nothing (`units_done`):
    /// each entry is a unit (`Int32`), its records' length (`Int`), then the
    /// records, in the order the runs ended. True if an entry's output became
    /// an error node (C asks with one entry when it must know which).
    func endPlainUpdates(_ entries: UnsafeRawBufferPointer) -> Bool {
        let header = MemoryLayout<Int32>.size + MemoryLayout<Int>.size
        builder.plainBatches &+= 1
        var offset = 0
        var madeError = false
        while entries.count - offset >= header {
            let id = entries.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let length = entries.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int32>.size, as: Int.self)
            offset += header
            guard length >= 0, length <= entries.count - offset else { break }   // C wrote whole entries
            let records = UnsafeRawBufferPointer(rebasing: entries[offset ..< offset + length])
            if endPlainUpdate(of: id, records: records) { madeError = true }
            offset += length
        }
        return madeError
    }

    /// A plain run ended having asked nothing (one entry of `units_done`): the same
    /// bookkeeping as `beginUpdate`, the builder's `write` and `finish`,
    /// for an output of nodes only. Past the memory cap, or when a
    /// transaction or tracing came after its batch was made, it takes the
    /// full path (the error node; the animation; the trace line).
    @discardableResult
    func endPlainUpdate(of id: Int32, records: UnsafeRawBufferPointer) -> Bool {
        guard let unit = units[id], !unit.disposed else { return false }
        // A transaction that reached it, or tracing turned on, after its
        // batch was made (by a body before it): the full path takes them.
        guard unit.run.pendingTransaction == nil, !tracer.tracing, builder.installPlain(records, on: unit) else {
            beginUpdate(of: id)
            builder.write(records)
            return endUpdate(of: id, status: Int32(LUN_UNIT_RAN), message: nil)
        }
        countRender(of: unit)
        unit.run.ran()
        return false
    }

    /// A component's body ran: its instance's and its app's counts (`app:renders`).
    private func countRender(of unit: Unit) {
        guard unit.kind == .component, let app = unit.app else { return }
        app.renderCounts.add(unit.typeId)
        unit.renderCount += 1
    }

    /// What C hears at the end of an update (LUN_ENDED_* in clunette.h):
    /// whether disposed units wait to be released, and whether the output
    /// became an error node the builder made (its views are gone).
    func endedBits(madeError: Bool) -> Int32 {
        (flushState.hasPendingReleases ? Int32(LUN_ENDED_RELEASES) : 0) | (madeError ? Int32(LUN_ENDED_ERROR) : 0)
    }

    /// Makes unit `id` the one being updated, unless it is already (a retried run began once).
    private func select(_ id: Int32) {
        guard flushState.updating?.id != id else { return }
        flushState.updating = units[id]
        flushState.updatingBegan = false
    }

    /// The unit's function is about to run (C may retry a run: counted once).
    func beginUpdate(of id: Int32) {
        select(id)
        beginUpdate()
    }

    /// The unit is stale (or new): its function is about to run.
    private func beginUpdate() {
        guard let unit = flushState.updating else { return }
        if !flushState.updatingBegan { countRender(of: unit) }
        if !flushState.updatingBegan, tracer.tracing {
            if unit.kind != .list, unit.kind != .root { tracer.run(of: unit) } else { tracer.ranQuietly(unit) }
        }
        unit.run.ran()
        if tracer.tracing { flushState.updateStarted = DispatchTime.now().uptimeNanoseconds }   // its cost, for inspectors
        flushState.updatingBegan = true
        builder.begin(unit)
    }

    /// The update of unit `id` ended (a skipped one never began).
    /// Returns whether the output became an error node.
    @discardableResult
    func endUpdate(of id: Int32, status: Int32, message: String?) -> Bool {
        select(id)
        return endUpdate(status: status, message: message)
    }

    /// The update finished: install the output (or the error), report what
    /// it wrote; returns whether the output is an error node.
    private func endUpdate(status: Int32, message: String?) -> Bool {
        let failed = status == Int32(LUN_UNIT_FAILED) || status == Int32(LUN_UNIT_STOPPED)
        let refused = failed && !flushState.updatingBegan
        if refused, let unit = flushState.updating {
            flushState.updatingBegan = true           // refused before it ran (the C stack, memory): no run to
            builder.begin(unit)                       // count, trace or time, but its error shows, in its output's place
        }
        guard let unit = flushState.updating else { return false }
        flushState.updating = nil
        if tracer.tracing, flushState.updatingBegan, !refused {
            unit.lastRenderSeconds = Double(DispatchTime.now().uptimeNanoseconds &- flushState.updateStarted) / 1e9
        }
        if status == Int32(LUN_UNIT_STOPPED) { unit.run.stoppedInFlush = flushState.flushes }
        if status == Int32(LUN_UNIT_SKIPPED) { countCheck(of: unit) }
        if failed, let message { builder.fail(message) }
        let madeError = flushState.updatingBegan && builder.finish()
        reportWritesDuringRender()
        return madeError
    }

    /// Counts runs per flush; past the limit the unit is stopped and reported.
    private func admitRun(of unit: Unit) -> Bool {
        if unit.run.flushStamp != flushState.flushCount {
            unit.run.flushStamp = flushState.flushCount
            unit.run.runsThisFlush = 0
            unit.run.checksThisFlush = 0
        }
        if unit.run.checksThisFlush >= min(options.renderLoopLimit, 1 << 30) {   // checked enough this round: the next
            flushState.deferred.append(unit)                                 // (still pending, not lost)
            return false
        }
        unit.run.runsThisFlush += 1
        if unit.run.stoppedInFlush == flushState.flushes {               // stopped by its budget: once per flush is enough;
            hold(unit, missed: true)                                        // the change that queued it runs it at the next
            return false
        }
        guard unit.run.runsThisFlush > options.renderLoopLimit else { return true }
        if unit.run.runsThisFlush == options.renderLoopLimit + 1 {
            warn(in: unit, "\(unit.displayName) was stopped after rendering \(options.renderLoopLimit) times in one flush: its body keeps changing what it reads")
        }
        hold(unit, missed: false)                     // the change that queued it is its own loop's
        return false
    }

    /// A stopped unit stays pending for the rest of the flush (a write stops
    /// at it, as at any pending node); when the flush ends it is unstuck, so
    /// the next change (in a later flush) runs it again, even through
    /// computeds left pending.
    /// A stopped unit not carried: unstuck (the next change runs it), without
    /// the transaction a change brought it (its next run is a later change's).
    private func letGo(_ unit: Unit) {
        graph.unstick(unit.node)
        unit.run.pendingTransaction = nil
    }

    private func hold(_ unit: Unit, missed: Bool) {
        graph.hold(unit.node, missed: missed)         // again if it ran since it was first held (that cleared it)
        guard !unit.run.held else { return }
        unit.run.held = true
        flushState.held.append(unit)
    }

    /// A check that found nothing it read changed is no run: a view that
    /// others' changes reach many times in a round is not stopped for them.
    /// Checked `renderLoopLimit` times in a round, it waits for the next one
    /// (`admitRun`): computeds that write each other's inputs again and again
    /// to the same values end with the flush's rounds, which are reported.
    private func countCheck(of unit: Unit) {
        if unit.run.runsThisFlush > 0 { unit.run.runsThisFlush -= 1 }
        unit.run.checksThisFlush += 1
    }

    /// Releases the records of disposed units (their tasks stop, their
    /// subscriptions end, their onDisappear actions are queued).
    func releasePendingRefs() {
        if flushState.hasPendingReleases { _ = lun_release_all(L) }
    }

    /// A new unit under `parent`, scheduled to render.
    func makeUnit(kind: Unit.Kind, typeId: Int32, parent: Unit?, app: App? = nil) -> Unit {
        let id = units.nextID()
        let node = graph.newNode(.effect, owner: id, slot: 0, origin: .unit)
        let name = kind == .component ? viewTypeName(typeId) : kind.name
        let unit = Unit(id: id, kind: kind, typeId: typeId, name: name, parent: parent,
                        app: app ?? parent?.app, node: node)
        if kind == .component || kind == .row {
            let key = kind == .component ? typeId : -1
            mounting.viewOrdinals[key, default: 0] += 1
            unit.ordinal = mounting.viewOrdinals[key]!
        }
        units[id] = unit
        scheduler.schedule(unit)
        return unit
    }

    /// Removes a unit and everything below it: its graph node, its Lua record.
    func dispose(_ unit: Unit) {
        guard !unit.disposed else { return }
        if unit.preferencesInSubtree {                          // its values leave the reduction
            preferences.dirty = true
            unit.leavePreferences()
        }
        unit.disposed = true
        builder.release(unit)
        unit.holdsPreferences(false)                            // gone: its parent is not told again
        for child in unit.children { dispose(child.unit) }
        for entry in unit.environmentEntries.values { dropEnvironmentEntry(entry) }
        for probe in unit.last.rare?.environmentProbes ?? [] { graph.freeNode(probe.node) }
        problems.forgetWarnings(of: unit.id)
        unit.children = []
        unit.output = []                                     // its nodes hold it: the cycle ends here
        unit.environmentEntries = [:]
        graph.freeNode(unit.node)
        batch.cancel(unit)                                   // not run if its batch is running
        if unit.recordRef > 0 { flushState.pendingReleases.append((unit.recordRef, unit)) }
        unit.recordRef = 0
        units[unit.id] = nil
    }

    /// Queues the units whose graph nodes became pending (the C graph
    /// collects them as writes happen: no crossing per write). A unit made
    /// stale inside a transaction carries it to its next run.
    ///
    /// A unit already waiting for an earlier change of the same update (the
    /// graph reports it again inside a transaction) merges the transactions
    /// (`Unit.RunState.receive`). A transaction that disables animations and
    /// has none of its own reaches no unit already waiting (the graph does
    /// not report them: lun_transaction_tell), so it does not turn off what
    /// an earlier plain change's `:animation(a, value)` does. T02.
    func schedulePendingEffects() {
        guard graph.hasPending else { return }
        for node in graph.takePendingInPlace() where graph.isLive(node) && graph.origin(node) == .unit {
            guard let unit = units[graph.node(node).owner], unit.node == node else { continue }
            if let transaction = flushState.transaction { unit.run.receive(transaction) }
            // Held (stopped in this flush), a change's transaction reached it: it keeps it for the next flush.
            if Int32(graph.node(node).flags) & Int32(LUN_GRAPH_HELD) != 0 { continue }
            scheduler.schedule(unit)
        }
    }

    /// Mounts the view value held in a record (C renders it right after). While a
    /// script runs again (`reload`), its mounts replace the roots of its
    /// earlier apps instead, in order, so views whose identities match keep
    /// their state.
    func mount(recordRef: Int32) -> App {
        if let reused = mounting.reloading?.first {
            moveLines(of: reused)                         // the new code renders it: its lines move
            mounting.reloading?.removeFirst()
            if let root = reused.root, !root.disposed {
                flushState.pendingReleases.append((root.recordRef, root))
                root.recordRef = recordRef
                root.run.needsRender = true
                root.run.cause = .reloaded
                scheduler.schedule(root)
                return reused
            }
        }
        let app = App(id: mounting.nextAppID)
        app.script = mounting.running
        app.typeID = { [viewTypes = labels.viewTypes] name in viewTypes.existingID(for: name) }
        mounting.nextAppID += 1
        mounting.appsByID[app.id] = app
        let root = makeUnit(kind: .root, typeId: 0, parent: nil, app: app)
        root.recordRef = recordRef
        app.root = root
        if mounting.lineMoves != nil { mounting.movedApps.insert(app.id) }   // a reload's new app: the new code's lines
        else { mounting.lines.mounted(app) }
        return app
    }

    /// A fresh start (ui.reset): every app unmounted, the clock reset (C
    /// cancels the effects and gives back its settings, tracing among them).
    func reset() {
        for app in apps { removeApp(app) }
        clock.reset()
        storage.reset()
    }

    /// Disposes an app's views and forgets it; safe inside a Lua call (`app:unmount()`):
    /// the records are released and onDisappear runs at the next flush.
    func removeApp(_ app: App) {
        if let root = app.root { dispose(root) }
        app.root = nil                          // units hold their app: break the cycle (R8)
        app.lastFind = nil                      // its remembered find goes with it
        mounting.appsByID[app.id] = nil
    }

    /// The probe node of `key` read through `unit` (`LastOutput.Rare.environmentProbes`), made on first read.
    func environmentProbe(of unit: Unit, key: String) -> Int32 {
        let rare = unit.last.makeRare()
        if let node = rare.probe(key) { return node }
        let node = graph.newNode(.signal, owner: unit.id, slot: 0, origin: .environment)   // its owner names its key
        rare.environmentProbes.append((key, node))
        return node
    }

    /// An environment value is no longer set: its readers re-render, its node goes.
    func dropEnvironmentEntry(_ entry: EnvironmentEntry) {
        graph.changed(entry.node)                       // its readers run again and find the value above, or none:
        graph.freeNodeLater(entry.node)                 // freed when the flush ends, so their check sees the change
        labels.environmentKeys[entry.node] = nil
    }

    private func reportWritesDuringRender() {
        guard !flushState.writesDuringRender.isEmpty else { return }
        let writes = flushState.writesDuringRender
        flushState.writesDuringRender = []
        for (unit, node) in writes where unit.run.runsThisFlush == 1 && !unit.disposed {
            warn(in: unit, "\(unit.displayName) wrote \(label(of: node)) during its body, which also reads it")
        }
    }

    /// "Book#3.title": what a graph node stands for.
    func label(of node: Int32) -> String {
        guard graph.isLive(node) else { return "a released value" }
        let owner = graph.node(node).owner, slot = graph.node(node).slot
        switch graph.origin(node) {
        case .luaObject:
            var buffer = [CChar](repeating: 0, count: 256)
            guard lun_object_label(L, owner, slot, &buffer, buffer.count) != 0 else { return "a collected object" }
            return String(cString: buffer)
        case .hostObject:
            guard let entry = hosts.entry(owner), let type = hosts.type(at: entry.type) else { return "a Swift property" }
            return slot == 0 ? hosts.describe(owner) : "\(hosts.describe(owner)).\(type.properties[Int(slot) - 1].name)"
        case .environment:
            let probe = owner != 0 ? units[owner]?.last.rare?.environmentProbes.first { $0.node == node }?.key : nil
            guard let key = labels.environmentKeys[node] ?? probe else { return "an environment value" }
            return key.hasPrefix("@") ? "environment \(key.dropFirst())" : "environment '\(key)'"
        case .unit:
            return units[owner]?.displayName ?? "a view"
        case .effect:
            return "an effect"
        }
    }

    func viewTypeName(_ id: Int32) -> String {
        labels.viewTypes.name(of: id)
    }

    /// Says `message` in the unit's app's warnings, and (unless the caller
    /// records it as an error already: an event's) as a problem.
    func warn(in unit: Unit?, _ message: String, asProblem: Bool = true) {
        if asProblem { problems.record(warning: message) }
        guard let app = unit?.app else { return }
        app.warningLog.append(message)
    }

    // MARK: deferred work

    /// Graph nodes released by Lua's collector (which may run mid-render) are freed here.
    func freeReleasedNodes() {
        lun_graph_free_released(graph.handle)
    }

    /// A write from Lua to a Swift property ended (`made`: it was): what it
    /// changed is applied at once, traced at the script's line when tracing.
    func applyHostWrite(_ made: Bool) {
        guard made else { tracer.pendingWritePlace = nil; return }
        if let place = tracer.pendingWritePlace, inbox.hasPending {
            tracer.pendingWritePlace = nil
            for post in inbox.drain() where graph.isLive(post.node) {
                tracer.write(to: post.node, at: place)
                graph.changed(post.node)
                if post.fromOtherThread { flushState.rechecks.append(post.node) }
            }
        }
        drainInbox()
    }

    /// Applies changes posted from Swift models (any thread) to the graph.
    func drainInbox() {
        guard inbox.hasPending else { return }
        for post in inbox.drain() where graph.isLive(post.node) {
            graph.changed(post.node)
            if post.fromOtherThread { flushState.rechecks.append(post.node) }
        }
    }
}
