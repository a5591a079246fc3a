/// The units waiting to run, parents first.
///
/// A binary heap ordered by (depth, creation order): popping always yields
/// the shallowest waiting unit, so a parent runs before its children and a
/// child whose parent re-renders runs once, after it. Its cost per flush is
/// O(k log k) for k waiting units, whatever is mounted.
struct Scheduler {
    private var heap: [Unit] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    mutating func schedule(_ unit: Unit) {
        guard !unit.queued, !unit.disposed else { return }
        unit.queued = true
        heap.append(unit)
        siftUp(heap.count - 1)
    }

    mutating func next() -> Unit? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let unit = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        unit.queued = false
        return unit
    }

    private static func precedes(_ a: Unit, _ b: Unit) -> Bool {
        a.depth != b.depth ? a.depth < b.depth : a.id < b.id
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
