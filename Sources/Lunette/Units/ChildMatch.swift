/// A child unit as its parent keeps it between runs: its key and the unit.
struct ChildEntry {
    let key: OutputBuilder.ChildKey
    let unit: Unit
}

/// Matches the child units a run names against the ones the last run kept.
///
/// A parent keeps its children as an array in output order (`Unit.children`),
/// not a dictionary: every mounted parent holds one, and a dictionary kept
/// three quarters full of 80-byte keys cost half as much again (TARGETS.md
/// P6, a mounted view's memory). A run takes its children in order: while
/// each key is the one at the same place last time — a run that kept its
/// shape — matching hashes nothing, and no key can repeat one met before in
/// the run (those are the last run's, which were distinct). At the first
/// difference the rest of the last run's children are indexed once, and
/// the run's keys from then on are checked for repeats (a second child of
/// one identity takes the next copy number). The indexes are the builder's
/// scratch, kept from run to run and given back past a large run.
struct ChildMatch {
    /// The last run's children, in order; `old[..<cursor]` taken in order.
    private var old: [ChildEntry] = []
    private var cursor = 0
    /// Once the order broke: the last run's untaken children by key, and
    /// this run's by key (for repeats).
    private var ordered = true
    private var oldIndex: [OutputBuilder.ChildKey: Unit] = [:]
    /// The last run's children not taken in order when it broke, in their
    /// order: what goes is disposed in it (its onDisappear, its tasks'
    /// cancels), not in a dictionary's, which Swift seeds per process.
    private var oldRest: [ChildEntry] = []
    private var newIndex: [OutputBuilder.ChildKey: Unit] = [:]
    /// For a key met more than once in this run: the next copy number to
    /// try, so the n-th child of one identity takes one step, not n.
    private var nextCopy: [OutputBuilder.ChildKey: Int32] = [:]
    /// This run's children so far, in order.
    private(set) var taken: [ChildEntry] = []
    /// Copy numbers tried for children of an identity met before (for tests:
    /// they grow with the children, not with their square).
    private(set) var copyProbes = 0

    /// Entries past which an index or list is given back when a run ends.
    static let kept = 1024

    /// Starts a run whose last run kept `children`.
    mutating func begin(_ children: [ChildEntry]) {
        old = children
        oldRest = []
        cursor = 0
        ordered = !children.isEmpty
        clearIndexes()
        taken = []
        taken.reserveCapacity(children.count)      // a run that keeps its children grows nothing
    }

    /// The child at `key`: the last run's there, or a new one `make`s (the
    /// key moved on to a free copy number if this run named it already).
    mutating func place(_ key: inout OutputBuilder.ChildKey, make: () -> Unit) -> (unit: Unit, isNew: Bool) {
        if ordered {
            if cursor < old.count, old[cursor].key == key {
                let unit = old[cursor].unit
                cursor += 1
                taken.append(ChildEntry(key: key, unit: unit))
                return (unit, false)
            }
            breakOrder()
        }
        if oldIndex.isEmpty {
            // Nothing left to match (a first run): the child is new whatever
            // its key, so it goes in first and a key taken already moves it
            // on — one lookup in the common case.
            let child = make()
            if let held = newIndex.updateValue(child, forKey: key) {
                newIndex[key] = held
                key = freeCopy(of: key)
                newIndex[key] = child
            }
            taken.append(ChildEntry(key: key, unit: child))
            return (child, true)
        }
        if newIndex[key] != nil { key = freeCopy(of: key) }
        let found = oldIndex.removeValue(forKey: key)
        let unit = found ?? make()
        newIndex[key] = unit
        taken.append(ChildEntry(key: key, unit: unit))
        return (unit, found == nil)
    }

    /// The last run's children this run did not name.
    var untaken: [ChildEntry] {
        ordered ? Array(old[cursor...]) : oldRest.filter { oldIndex[$0.key] === $0.unit }
    }

    /// Ends the run: this run's children, to keep (`exactlySized`), and the
    /// scratch given back past a large run.
    mutating func finish() -> [ChildEntry] {
        let kept = taken.exactlySized()
        old = []
        oldRest = []
        taken = []
        clearIndexes()
        if oldIndex.capacity > Self.kept { oldIndex = [:] }
        if newIndex.capacity > Self.kept { newIndex = [:] }
        if nextCopy.capacity > Self.kept { nextCopy = [:] }
        return kept
    }

    /// Every child the run holds now (taken or not), for a try that runs again.
    var pool: [ChildEntry] { taken + untaken }

    private mutating func clearIndexes() {
        if !oldIndex.isEmpty { oldIndex.removeAll(keepingCapacity: true) }
        if !newIndex.isEmpty { newIndex.removeAll(keepingCapacity: true) }
        if !nextCopy.isEmpty { nextCopy.removeAll(keepingCapacity: true) }
    }

    /// The order broke: the rest of the last run's children by key, and this
    /// run's so far, so later keys are matched and checked for repeats.
    private mutating func breakOrder() {
        ordered = false
        for entry in old[cursor...] { oldIndex[entry.key] = entry.unit }
        oldRest = Array(old[cursor...])
        for entry in taken { newIndex[entry.key] = entry.unit }
        old = []
        cursor = 0
    }

    /// The first copy of `key` (taken already in this run) that is free:
    /// the copies of one identity are numbered in order, each found in one
    /// step, so many children of one identity cost what as many others do.
    private mutating func freeCopy(of key: OutputBuilder.ChildKey) -> OutputBuilder.ChildKey {
        var copy = key
        copy.copy = nextCopy[key] ?? 1
        copyProbes &+= 1
        while newIndex[copy] != nil { copy.copy += 1; copyProbes &+= 1 }
        nextCopy[key] = copy.copy + 1
        return copy
    }
}
