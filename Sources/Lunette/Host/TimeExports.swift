import CLunette

// Time and event leaves (clunette.h, "time, and failures of code that runs outside bodies").

/// The clock a clock callback's context names (the runtime owns it: unretained).
func withClock<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (Clock) -> T) -> T {
    Unmanaged<Clock>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

func lunhClockNow(_ context: UnsafeMutableRawPointer?) -> Double {
    withClock(context) { $0.now }
}

func lunhClockSchedule(_ context: UnsafeMutableRawPointer?, _ kind: Int32, _ id: Int32, _ after: Double, _ every: Double) {
    withClock(context) { $0.schedule(kind: kind, id: id, after: after, every: every) }
}

func lunhClockCancel(_ context: UnsafeMutableRawPointer?, _ kind: Int32, _ id: Int32) {
    withClock(context) { $0.cancel(kind: kind, id: id) }
}

func lunhClockVirtual(_ context: UnsafeMutableRawPointer?) -> Int32 {
    withClock(context) { $0.mode == .virtual ? 1 : 0 }
}

func lunhClockPop(_ context: UnsafeMutableRawPointer?, _ upTo: Double, _ kind: UnsafeMutablePointer<Int32>?,
                  _ id: UnsafeMutablePointer<Int32>?, _ due: UnsafeMutablePointer<Double>?) -> Int32 {
    withClock(context) { clock in
        guard let entry = clock.popDue(upTo: upTo) else { return 0 }
        clock.setVirtualNow(entry.due)
        kind?.pointee = entry.kind
        id?.pointee = entry.id
        due?.pointee = entry.due
        return 1
    }
}

func lunhClockSettle(_ context: UnsafeMutableRawPointer?, _ time: Double) {
    withClock(context) { $0.setVirtualNow(time) }
}

func lunhClockReset(_ context: UnsafeMutableRawPointer?) {
    withClock(context) { $0.reset() }
}

func lunhEventFailed(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ message: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { runtime in
        let text = Lunette.message(message, length)
        runtime.problems.record(error: runtime.units[unit].map { "\($0.displayName): \(text)" } ?? text)
        if let unit = runtime.units[unit] {
            runtime.warn(in: unit, "\(unit.displayName): \(text)", asProblem: false)   // a problem as an error already
            unit.app?.eventLog.append("\(unit.displayName): \(text)")
        } else {
            runtime.effectLog.append(text)
        }
    }
}

func lunhWarned(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ message: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { runtime in
        guard let text = runtime.problems.firstWarning(Lunette.message(message, length), unit: unit) else {
            return                                                              // once, however often it renders
        }
        let unit = runtime.units[unit]
        runtime.warn(in: unit, unit.map { "\($0.displayName): \(text)" } ?? text)
    }
}

func lunhEffectFailed(_ rt: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { runtime in
        runtime.effectLog.append("effect: \(Lunette.message(message, length))")
    }
}

func lunhProblemNext(_ rt: UnsafeMutableRawPointer?, _ isError: UnsafeMutablePointer<Int32>?,
                     _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        guard let problem = runtime.problems.next() else { return nil }
        isError?.pointee = problem.isError ? 1 : 0
        let (pointer, count) = runtime.text.set(problem.text)
        length?.pointee = count
        return pointer
    }
}

func lunhReset(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { $0.reset() }
}

func lunhPrefsPrepare(_ rt: UnsafeMutableRawPointer?, _ items: UnsafeMutablePointer<UnsafePointer<lun_PrefItem>?>?,
                      _ keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ keysLength: UnsafeMutablePointer<Int>?) -> Int32 {
    withRuntime(rt) { runtime in
        let count = runtime.preferences.prepare(apps: runtime.apps)
        let buffer = runtime.preferences.buffer
        items?.pointee = buffer.base
        keys?.pointee = buffer.keys
        keysLength?.pointee = buffer.keyCount
        return count
    }
}
