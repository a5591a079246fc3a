import CLunette

// The flush loop's leaves (clunette.h, "scheduler: lun_flush's loop").

func lunhNextUnit(_ rt: UnsafeMutableRawPointer?, _ ticket: UnsafeMutablePointer<lun_Ticket>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let unit = runtime.nextUnit() else { return 0 }
        let quiet = runtime.runsQuietly(unit)
        ticket!.pointee = lun_Ticket(unit: unit.id, kind: unit.kind.rawValue, node: unit.node,
                                     recordRef: unit.recordRef, needsRender: unit.needsRender ? 1 : 0,
                                     quiet: quiet ? 1 : 0)
        if quiet { runtime.beginUpdate() }        // its bookkeeping now: C will not call
        return 1
    }
}

func lunhUnitBegin(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { $0.beginUpdate() }
}

func lunhUnitEnd(_ rt: UnsafeMutableRawPointer?, _ status: Int32, _ message: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    withRuntime(rt) { runtime in
        runtime.endUpdate(status: status, message: message.map { Lunette.message($0, length) })
        return runtime.flushState.pendingReleases.isEmpty ? 0 : 1
    }
}

func lunhReleaseNext(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.flushState.pendingReleases.popLast() ?? 0 }
}
