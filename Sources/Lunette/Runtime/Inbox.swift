import Foundation
import Synchronization

/// Changes reported from Swift models, waiting for the scheduler's thread.
///
/// Models may be mutated on any thread; their Observation callbacks post the
/// graph node of what changed here, and the scheduler's thread drains the
/// inbox (at a flush, or when Lua next reads a Swift property) and only then
/// touches the graph. Posting takes a lock for an append and calls out to
/// nothing while holding it.
///
/// Observation reports a change *before* the new value is stored (willSet).
/// A change posted from another thread may therefore be rendered while its
/// store is still in flight, showing the old value; such nodes are marked
/// changed once more at the next flush (`recheck`), and the wake callback
/// runs again so a host schedules that flush.
final class Inbox: Sendable {
    struct Post {
        let node: Int32
        let fromOtherThread: Bool
    }

    private let pending = Locked<[Post]>([])
    private let flag = Atomic<Bool>(false)
    private let wake = Locked<(@Sendable () -> Void)?>(nil)
    private let owner = Locked<Thread?>(nil)

    /// The thread the runtime belongs to (posts from it need no recheck).
    func adopt(_ thread: Thread) { owner.withLock { $0 = thread } }

    /// True when something is waiting (a cheap check for hot paths).
    var hasPending: Bool { flag.load(ordering: .acquiring) }

    func post(_ node: Int32) {
        let other = owner.withLock { $0 } !== Thread.current
        pending.withLock { $0.append(Post(node: node, fromOtherThread: other)) }
        flag.store(true, ordering: .releasing)
        wakeUp()
    }

    /// Takes everything posted so far.
    func drain() -> [Post] {
        flag.store(false, ordering: .releasing)
        return pending.withLock { posts in
            defer { posts = [] }
            return posts
        }
    }

    /// Calls the wake callback (a host schedules a flush on the runtime's thread).
    func wakeUp() {
        let callback = wake.withLock { $0 }
        callback?()
    }

    /// Called after each post, on the posting thread.
    func onPost(_ callback: (@Sendable () -> Void)?) {
        wake.withLock { $0 = callback }
    }
}
