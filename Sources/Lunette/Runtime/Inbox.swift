import Synchronization

/// Changes reported from other threads, waiting for the scheduler's thread.
///
/// Swift models may be mutated on any thread; their observation callbacks
/// post the graph node of what changed here. The scheduler's thread drains
/// the inbox (at a flush, or when Lua next reads a Swift property) and only
/// then touches the graph. Posting takes a lock for an append and calls out
/// to nothing while holding it.
final class Inbox: Sendable {
    private let pending = Mutex<[Int32]>([])
    private let flag = Atomic<Bool>(false)
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    /// True when something is waiting (a cheap check for hot paths).
    var hasPending: Bool { flag.load(ordering: .acquiring) }

    func post(_ node: Int32) {
        pending.withLock { $0.append(node) }
        flag.store(true, ordering: .releasing)
        let callback = wake.withLock { $0 }
        callback?()
    }

    /// Takes everything posted so far.
    func drain() -> [Int32] {
        flag.store(false, ordering: .releasing)
        return pending.withLock { nodes in
            defer { nodes = [] }
            return nodes
        }
    }

    /// Called (on the posting thread) after each post: lets a run loop wake up.
    func onPost(_ callback: (@Sendable () -> Void)?) {
        wake.withLock { $0 = callback }
    }
}
