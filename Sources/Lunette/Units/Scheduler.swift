/// The units waiting to run, parents first.
///
/// One queue per depth in the unit tree: taking from the shallowest
/// non-empty queue means a parent runs before its children, and a child
/// whose parent re-renders runs once, after it. The queue of one depth is
/// taken whole, as a round's batch (RoundBatch). Scheduling and taking are
/// O(1) per unit (amortised), so a flush costs what changed, whatever is mounted.
struct Scheduler {
    private var queues: [[Int32]] = []
    private var heads: [Int] = []
    private var shallowest = Int.max
    private var waiting = 0
    /// A queue grew past `RoundBatch.kept` ids since the last `shrink`.
    private var grown = false

    var isEmpty: Bool { waiting == 0 }

    /// Queues a unit unless it is already waiting.
    mutating func schedule(_ unit: Unit) {
        guard !unit.run.queued, !unit.disposed else { return }
        unit.run.queued = true
        let depth = unit.depth
        while queues.count <= depth {
            queues.append([])
            heads.append(0)
        }
        queues[depth].append(unit.id)
        if queues[depth].count > RoundBatch.kept { grown = true }
        waiting += 1
        if depth < shallowest { shallowest = depth }
    }

    /// Moves every unit waiting at the shallowest depth, oldest first, into
    /// `batch` (emptied first); false when none is waiting. Units of one depth
    /// cannot be each other's parents, so they run as one batch (lun_flush.c).
    mutating func takeShallowest(into batch: inout [Int32]) -> Bool {
        batch.removeAll(keepingCapacity: true)
        guard waiting > 0 else { return false }
        while heads[shallowest] == queues[shallowest].count {
            queues[shallowest].removeAll(keepingCapacity: true)
            heads[shallowest] = 0
            shallowest += 1
        }
        batch.append(contentsOf: queues[shallowest][heads[shallowest]...])
        waiting -= batch.count
        queues[shallowest].removeAll(keepingCapacity: true)
        heads[shallowest] = 0
        if waiting == 0 { reset() } else { shallowest += 1 }
        return true
    }

    /// Past a large flush (nothing waiting), gives back the queues' storage
    /// beyond `RoundBatch.kept` ids each; true if it did.
    mutating func shrink() -> Bool {
        guard grown, waiting == 0 else { return false }   // most flushes: one test
        grown = false
        var shrunk = false
        for depth in queues.indices where queues[depth].capacity > RoundBatch.kept {
            queues[depth] = []
            shrunk = true
        }
        return shrunk
    }

    private mutating func reset() {
        for depth in queues.indices where !queues[depth].isEmpty {
            queues[depth].removeAll(keepingCapacity: true)
            heads[depth] = 0
        }
        shallowest = Int.max
    }
}
