/// The units waiting to run, parents first.
///
/// A binary heap of (depth, unit id) pairs: popping always yields the
/// shallowest waiting unit, so a parent runs before its children and a child
/// whose parent re-renders runs once, after it. Its cost per flush is
/// O(k log k) for k waiting units, whatever is mounted.
struct Scheduler {
    private struct Entry {
        let depth: Int32
        let id: Int32

        func precedes(_ other: Entry) -> Bool {
            depth != other.depth ? depth < other.depth : id < other.id
        }
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }

    /// Queues a unit unless it is already waiting.
    mutating func schedule(_ unit: Unit) {
        guard !unit.queued, !unit.disposed else { return }
        unit.queued = true
        heap.append(Entry(depth: Int32(unit.depth), id: unit.id))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The id of the next unit to run.
    mutating func next() -> Int32? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count, heap[left].precedes(heap[best]) { best = left }
            if right < heap.count, heap[right].precedes(heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return first.id
    }
}
