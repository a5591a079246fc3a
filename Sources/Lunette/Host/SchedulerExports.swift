import CLunette

// The flush loop's leaves (clunette.h, "scheduler: lun_flush's loop").

func lunhRoundBatch(_ rt: UnsafeMutableRawPointer?, _ tickets: UnsafeMutablePointer<UnsafePointer<lun_Ticket>?>?) -> Int32 {
    withRuntime(rt) { runtime in
        let count = runtime.nextBatch()
        tickets!.pointee = runtime.batch.base
        return count
    }
}

func lunhUnitBegin(_ rt: UnsafeMutableRawPointer?, _ unit: Int32) {
    withRuntime(rt) { $0.beginUpdate(of: unit) }
}

func lunhUnitEnd(_ rt: UnsafeMutableRawPointer?, _ unit: Int32, _ status: Int32, _ message: UnsafePointer<CChar>?,
                 _ length: Int) -> Int32 {
    withRuntime(rt) { runtime in
        let madeError = runtime.endUpdate(of: unit, status: status, message: message.map { Lunette.message($0, length) })
        return runtime.endedBits(madeError: madeError)
    }
}

func lunhUnitsDone(_ rt: UnsafeMutableRawPointer?, _ entries: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    withRuntime(rt) { runtime in
        let madeError = runtime.endPlainUpdates(UnsafeRawBufferPointer(start: entries, count: length))
        return runtime.endedBits(madeError: madeError)
    }
}

func lunhReleaseNext(_ rt: UnsafeMutableRawPointer?, _ unit: UnsafeMutablePointer<Int32>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let ref = runtime.flushState.takeRelease() else {
            runtime.units.recycleReleasedIDs()           // every record released: their units' ids are free
            unit?.pointee = 0
            return 0
        }
        unit?.pointee = runtime.flushState.releasing?.id ?? 0
        return ref
    }
}

func lunhTransactionBegin(_ rt: UnsafeMutableRawPointer?, _ animation: UnsafePointer<CChar>?, _ length: Int,
                          _ id: Int32) {
    withRuntime(rt) { runtime in
        runtime.schedulePendingEffects()              // made stale before it (or in the outer one): not in it
        runtime.flushState.transaction = Transaction(animation: length > 0 ? string(animation, length) : nil, id: id)
    }
}

func lunhTransactionEnd(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { runtime in
        runtime.schedulePendingEffects()              // made stale inside it: animated
        runtime.flushState.transaction = nil
    }
}
