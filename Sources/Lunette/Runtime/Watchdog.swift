import CLunette
import Foundation

/// One thread for the whole process that stops runs past their time budget.
///
/// Every 20 ms it asks each runtime's budget (lun_budget.c) whether a run on
/// its chain has overstayed, or whether Ctrl-C asked an interruptible runtime
/// to stop; if so, C arms a hook on every thread from that run up, which
/// makes the run fail with "ran longer than its time budget" (or
/// "interrupted"). Runs that finish in time cost a lock and a clock read.
final class Watchdog: @unchecked Sendable {
    static let shared = Watchdog()

    private let lock = NSLock()
    private var budgets: [OpaquePointer] = []   // lun_Budget: the host's, alive while watched (a state may close first)
    private var thread: Thread?

    func watch(_ budget: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        budgets.append(budget)
        if thread == nil {
            let thread = Thread { [unowned self] in self.loop() }
            thread.name = "lunette watchdog"
            thread.start()
            self.thread = thread
        }
    }

    func forget(_ budget: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        budgets.removeAll { $0 == budget }
    }

    private func loop() {
        while true {
            Thread.sleep(forTimeInterval: 0.02)
            lock.lock()
            for budget in budgets { _ = lun_budget_check(budget) }
            lock.unlock()
        }
    }
}
