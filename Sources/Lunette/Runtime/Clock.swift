import Foundation

/// The runtime's clock: what is due when (task sleeps, timers).
///
/// Virtual under `lunette test` (time moves only with `ui.clock.advance`),
/// real otherwise (seconds since the runtime started). Entries are kept in a
/// heap ordered by due time, then by when they were scheduled. A cancelled
/// entry stays in the heap until it comes up, or until the dead outnumber
/// the live (then the heap is rebuilt without them): cancelling costs the
/// same however many wait, and what waits is bounded by twice what is live
/// — a script that starts and cancels sleeps in a loop, with nothing run
/// due meanwhile (a host's own loop), kept every one of them before, and
/// each cancel scanned them all.
final class Clock {
    enum Mode { case real, virtual }

    struct Entry {
        let due: Double
        let order: Int
        let kind: Int32
        let id: Int32
        let every: Double
    }

    let mode: Mode
    private var virtualNow = 0.0
    private let start = ContinuousClock.now
    private var heap: [Entry] = []
    private var order = 0
    /// Entries in the heap by key (kind and id), live or dead.
    private var counts: [Int64: Int] = [:]
    /// Keys whose entries in the heap are dead, and how many entries those are.
    private var cancelled = Set<Int64>()
    private var dead = 0

    init(mode: Mode) {
        self.mode = mode
    }

    /// Seconds since the runtime started (virtual: since the clock was made).
    var now: Double {
        switch mode {
        case .virtual: return virtualNow
        case .real:
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
    }

    /// Whether a sleep or a timer is waiting.
    var hasPending: Bool { heap.count > dead }

    /// Entries in the heap, live or dead (for tests: bounded by twice the live).
    var waiting: Int { heap.count }

    /// When the next entry is due, if any.
    var nextDue: Double? {
        dropCancelled()
        return heap.first?.due
    }

    func schedule(kind: Int32, id: Int32, after: Double, every: Double) {
        let key = Self.key(kind, id)
        if cancelled.contains(key) { purge(key) }       // a cancelled entry of this key stays dead
        order += 1
        push(Entry(due: now + max(0, after), order: order, kind: kind, id: id, every: every))
    }

    func cancel(kind: Int32, id: Int32) {
        let key = Self.key(kind, id)
        guard let waiting = counts[key], !cancelled.contains(key) else { return }
        cancelled.insert(key)
        dead += waiting
        if dead > 64, dead * 2 > heap.count { compact() }
    }

    /// Back to time 0 (virtual) with nothing scheduled.
    func reset() {
        heap = []
        counts = [:]
        cancelled = []
        dead = 0
        if mode == .virtual { virtualNow = 0 }
    }

    /// Moves virtual time to `time`.
    func setVirtualNow(_ time: Double) {
        if mode == .virtual { virtualNow = max(virtualNow, time) }
    }

    /// The next entry due at or before `time`; a repeating one is scheduled again.
    func popDue(upTo time: Double) -> Entry? {
        dropCancelled()
        guard let first = heap.first, first.due <= time else { return nil }
        removeFirst()
        if first.every > 0 {
            order += 1
            push(Entry(due: nextFiring(after: first), order: order, kind: first.kind, id: first.id, every: first.every))
        }
        return first
    }

    /// When a repeating entry fires next: one interval on. On the real clock,
    /// firings already missed are coalesced into this one, as a run loop's
    /// timer does ("fired only once for that time period", Foundation's
    /// `Timer`): the next is the first multiple of the interval after now
    /// (R20). The virtual clock fires each in turn (time moves only when
    /// told). Always strictly later, even when the interval is below the
    /// precision of the time.
    private func nextFiring(after entry: Entry) -> Double {
        var next = entry.due + entry.every
        if mode == .real, case let current = now, next <= current {
            let missed = ((current - entry.due) / entry.every).rounded(.down)
            next = entry.due + (missed + 1) * entry.every
        }
        return max(next, entry.due.nextUp)
    }

    private static func key(_ kind: Int32, _ id: Int32) -> Int64 { Int64(kind) << 32 | Int64(id) }

    private func dropCancelled() {
        while let first = heap.first, cancelled.contains(Self.key(first.kind, first.id)) { removeFirst() }
    }

    /// The heap without the entries of `key` (it was cancelled, and is scheduled again).
    private func purge(_ key: Int64) {
        dead -= counts[key] ?? 0
        counts[key] = nil
        cancelled.remove(key)
        rebuild(heap.filter { Self.key($0.kind, $0.id) != key })
    }

    /// The heap without its dead entries.
    private func compact() {
        let live = heap.filter { !cancelled.contains(Self.key($0.kind, $0.id)) }
        for key in cancelled { counts[key] = nil }
        cancelled = []
        dead = 0
        rebuild(live)
    }

    /// `entries` as the heap (their counts already kept).
    private func rebuild(_ entries: [Entry]) {
        heap = entries
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.due != b.due ? a.due < b.due : a.order < b.order
    }

    private func push(_ entry: Entry) {
        counts[Self.key(entry.kind, entry.id), default: 0] += 1
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func removeFirst() {
        let key = Self.key(heap[0].kind, heap[0].id)
        if cancelled.contains(key) { dead -= 1 }
        if let waiting = counts[key], waiting > 1 { counts[key] = waiting - 1 } else {
            counts[key] = nil
            cancelled.remove(key)                       // its last entry left: the key is free again
        }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(from: 0)
    }

    private func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count, Self.precedes(heap[left], heap[best]) { best = left }
            if right < heap.count, Self.precedes(heap[right], heap[best]) { best = right }
            if best == parent { return }
            heap.swapAt(parent, best)
            parent = best
        }
    }
}
