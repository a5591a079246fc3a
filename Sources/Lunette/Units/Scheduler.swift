/// The units waiting to run, parents first.
///
/// One queue per depth in the unit tree: taking from the shallowest
/// non-empty queue means a parent runs before its children, and a child
/// whose parent re-renders runs once, after it. Scheduling and taking are
/// O(1) (amortised), so a flush costs what changed, whatever is mounted.
struct Scheduler {
    private var queues: [[Int32]] = []
    private var heads: [Int] = []
    private var shallowest = Int.max
    private var waiting = 0

    var isEmpty: Bool { waiting == 0 }

    /// Queues a unit unless it is already waiting.
    mutating func schedule(_ unit: Unit) {
        guard !unit.queued, !unit.disposed else { return }
        unit.queued = true
        let depth = unit.depth
        while queues.count <= depth {
            queues.append([])
            heads.append(0)
        }
        queues[depth].append(unit.id)
        waiting += 1
        if depth < shallowest { shallowest = depth }
    }

    /// The id of the next unit to run: the oldest waiting at the shallowest depth.
    mutating func next() -> Int32? {
        guard waiting > 0 else { return nil }
        while heads[shallowest] == queues[shallowest].count {
            queues[shallowest].removeAll(keepingCapacity: true)
            heads[shallowest] = 0
            shallowest += 1
        }
        let id = queues[shallowest][heads[shallowest]]
        heads[shallowest] += 1
        waiting -= 1
        if waiting == 0 { reset() }
        return id
    }

    private mutating func reset() {
        for depth in queues.indices where !queues[depth].isEmpty {
            queues[depth].removeAll(keepingCapacity: true)
            heads[depth] = 0
        }
        shallowest = Int.max
    }
}
