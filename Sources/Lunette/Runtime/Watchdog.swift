import CLunette
import Foundation

/// One thread for the whole process that stops runs past their time budget.
///
/// Every 20 ms it asks each runtime's C state (lun_budget.c) whether a run on
/// its chain has overstayed, or whether Ctrl-C asked an interruptible runtime
/// to stop; if so, C arms a hook on every thread from that run up, which
/// makes the run fail with "ran longer than its time budget" (or
/// "interrupted"). Runs that finish in time cost a lock and a clock read.
final class Watchdog: @unchecked Sendable {
    static let shared = Watchdog()

    private let lock = NSLock()
    private var states: [UnsafeMutablePointer<lun_State>] = []
    private var thread: Thread?

    func watch(_ state: UnsafeMutablePointer<lun_State>) {
        lock.lock()
        defer { lock.unlock() }
        states.append(state)
        if thread == nil {
            let thread = Thread { [unowned self] in self.loop() }
            thread.name = "lunette watchdog"
            thread.start()
            self.thread = thread
        }
    }

    func forget(_ state: UnsafeMutablePointer<lun_State>) {
        lock.lock()
        defer { lock.unlock() }
        states.removeAll { $0 == state }
    }

    private func loop() {
        while true {
            Thread.sleep(forTimeInterval: 0.02)
            lock.lock()
            for state in states { _ = lun_budget_check(state) }
            lock.unlock()
        }
    }
}
