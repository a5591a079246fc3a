import CLunette
import Foundation

/// Time: tasks that sleep, timers, and running what falls due.
extension LunetteRuntime {
    /// Whether a task is sleeping or a timer is running.
    public var hasPendingWork: Bool { clock.hasPending }

    /// Seconds until the next sleep or timer is due (0 if one is due now), nil if none is waiting.
    public var secondsUntilNextDue: Double? {
        clock.nextDue.map { max(0, $0 - clock.now) }
    }

    /// Runs every sleep and timer due by now (real clock), flushing after each.
    /// Returns whether anything ran.
    @discardableResult
    public func runDueWork() -> Bool {
        runDue(upTo: clock.now)
    }

    /// Moves the virtual clock forward, running what falls due in order.
    /// Returns false, moving nothing, when the clock is real or `seconds` is
    /// negative or not a finite number (a clock never goes back).
    @discardableResult
    public func advanceClock(by seconds: Double) -> Bool {
        guard clock.mode == .virtual, seconds >= 0, seconds.isFinite else { return false }
        let target = clock.now + seconds
        runDue(upTo: target)
        clock.setVirtualNow(target)
        return true
    }

    /// Defines the globals a test runner uses: `lunette_watch(co, seconds)` /
    /// `lunette_unwatch(co)` (a time limit that suspends a hung coroutine) and
    /// `lunette_reset_clock()` (a fresh virtual clock for each spec).
    public func installRunnerSupport() throws {
        guard lun_install_runner_support(L) == LUN_OK else { throw LunetteError.setup(lastError) }
        problems.recording = true
    }

    /// Calls `callback` (on the changing thread) whenever a Swift model the
    /// runtime observes changes: a host can then schedule `flush()` on the
    /// runtime's own thread. Pass nil to stop.
    ///
    /// Thread: `callback` runs on whatever thread changed the model, during
    /// the change: it must only wake the runtime's thread (yield to an
    /// `AsyncStream`, signal a semaphore), never call the runtime:
    ///
    /// ```swift
    /// let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// runtime.onModelChange { changed.yield() }
    /// for await _ in changes { runtime.flush() }       // on the runtime's thread
    /// ```
    public func onModelChange(_ callback: (@Sendable () -> Void)?) {
        inbox.onPost(callback)
    }

    /// Runs what falls due up to `time`, in order, a flush after each (the loop is C's: lun_flush.c).
    @discardableResult
    func runDue(upTo time: Double) -> Bool {
        var ran: Int32 = 0
        if lun_run_due(L, time, &ran) != LUN_OK { reportFailure(of: "the clock's due work") }
        reportTreeChanges()
        return ran > 0
    }
}
