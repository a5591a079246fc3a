/// The state of flushing: the flush in progress, its rounds, the unit being
/// updated, and what the updates left for after them. The loop itself is C's
/// (lun_flush.c); Rendering.swift answers its questions from this.
struct FlushState {
    /// A flush is running (a second one waits for it).
    var flushing = false
    /// Flush rounds so far, ever: stamps a unit's runs per round.
    var flushCount = 0
    /// Flushes begun so far, ever: stamps the flush a unit was carried from.
    var flushes = 0
    /// When freed pages last went back to the system (ns, uptime): at most
    /// once a second; and how many times (for tests).
    var lastTrim: UInt64 = 0
    var trims = 0
    /// The last flush ran out of rounds with work waiting: the next one's pending work is not from outside.
    var leftWork = false
    /// Rounds this flush may still take (`renderLoopLimit`).
    var roundsLeft = 0
    /// The unit C is updating, and whether its run began.
    var updating: Unit?
    var updatingBegan = false
    /// When the unit's run began (while tracing: its cost is measured).
    var updateStarted: UInt64 = 0
    /// Writes a body made to what it had read (S36), reported after its update.
    var writesDuringRender: [(Unit, Int32)] = []
    /// Nodes changed from other threads: marked changed again at the next flush (see Inbox).
    var rechecks: [Int32] = []
    /// Units checked `renderLoopLimit` times this round without running: the next round's (still pending).
    /// Held by reference: a unit id is reused once its unit is disposed.
    var deferred: [Unit] = []
    /// Units stopped in this flush (run limit, budget): pending until it ends, then released
    /// (`Graph.release`): run at the next flush if a change reached them meanwhile.
    var held: [Unit] = []
    /// Registry references of disposed units, for C to release between
    /// updates — in the order they were disposed (`takeRelease`), so the
    /// views that go say onDisappear in the order they were written.
    var pendingReleases: [(recordRef: Int32, unit: Unit?)] = []
    private var releaseHead = 0
    /// The unit whose record C is releasing now (gone from the unit table,
    /// it is still named in what its code raises as it goes).
    private(set) var releasing: Unit?

    /// Whether a release waits.
    var hasPendingReleases: Bool { releaseHead < pendingReleases.count }

    /// The oldest release waiting, or nil (then the list starts anew).
    mutating func takeRelease() -> Int32? {
        guard releaseHead < pendingReleases.count else {
            releasing = nil
            if pendingReleases.isEmpty { return nil }                                     // most flushes: none
            pendingReleases.removeAll(keepingCapacity: pendingReleases.count <= 1024)   // a large unmount's goes back
            releaseHead = 0
            return nil
        }
        releaseHead += 1
        let release = pendingReleases[releaseHead - 1]
        pendingReleases[releaseHead - 1].unit = nil                                     // held no longer than needed
        releasing = release.unit
        return release.recordRef
    }
    /// The running transaction (ui.withAnimation, ui.withTransaction), if any.
    var transaction: Transaction?
    /// What ran since the host last heard (`onTreeChange`), by app: each unit
    /// once, with the output the host last saw (nil: the unit is new).
    var changed: [Int32: RanSinceReport] = [:]

    /// The units of one app that ran since the last report, in the order they first ran.
    struct RanSinceReport {
        let app: App
        var units: [(unit: Unit, before: [RenderNode]?, attributesBefore: [(name: String, value: String)])] = []
        var seen: Set<Int32> = []
    }

    /// A unit is about to install a new output (its old one is still in place).
    mutating func noteChanged(_ app: App, _ unit: Unit) {
        var entry = changed[app.id] ?? RanSinceReport(app: app)
        if entry.seen.insert(unit.id).inserted {
            entry.units.append((unit, unit.last.generation == 0 ? nil : unit.output, unit.last.attributes))
        }
        changed[app.id] = entry
    }
}
