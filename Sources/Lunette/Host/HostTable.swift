import CLunette

/// The table of callbacks a runtime hands to the C module (`lun_Host` in
/// clunette.h), as `lua_Alloc` is handed to Lua: the C module links against
/// nothing of Swift's. Each callback is a leaf — it never runs Lua and never
/// raises — and finds its runtime through `context`.
enum HostTable {
    /// A table whose groups answer with `runtime`'s parts (unretained: the
    /// runtime owns the table and the parts): the clock's callbacks with
    /// the clock, storage's with the `AppStorageKeeper`, the objects' with the
    /// `ObjectBridge`, the output's with the `OutputBuilder`, the trace's with
    /// the `Tracer`; the scheduler's and inspection's with the runtime (the
    /// scheduler is the runtime's own work, inspection its public reading).
    static func make(for runtime: LunetteRuntime) -> UnsafeMutablePointer<lun_Host> {
        let context = Unmanaged.passUnretained(runtime).toOpaque()
        let table = UnsafeMutablePointer<lun_Host>.allocate(capacity: 1)
        table.initialize(to: lun_Host())
        table.pointee.scheduler.context = context
        table.pointee.scheduler.flush_begin = lunhFlushBegin
        table.pointee.scheduler.round_begin = lunhRoundBegin
        table.pointee.scheduler.round_batch = lunhRoundBatch
        table.pointee.scheduler.unit_begin = lunhUnitBegin
        table.pointee.scheduler.unit_end = lunhUnitEnd
        table.pointee.scheduler.units_done = lunhUnitsDone
        table.pointee.scheduler.release_next = lunhReleaseNext
        table.pointee.scheduler.round_end = lunhRoundEnd
        table.pointee.scheduler.flush_end = lunhFlushEnd
        table.pointee.scheduler.flushing = lunhFlushing
        table.pointee.scheduler.mount = lunhMount
        table.pointee.scheduler.unmount = lunhUnmount
        table.pointee.scheduler.unit_invalidate = lunhUnitInvalidate
        table.pointee.scheduler.reset = lunhReset
        table.pointee.scheduler.render_write = lunhRenderWrite
        table.pointee.scheduler.transaction_begin = lunhTransactionBegin
        table.pointee.scheduler.transaction_end = lunhTransactionEnd
        table.pointee.scheduler.prefs_prepare = lunhPrefsPrepare
        table.pointee.output.context = Unmanaged.passUnretained(runtime.builder).toOpaque()
        table.pointee.output.view_type = lunhViewType
        table.pointee.output.write = lunhOutWrite
        table.pointee.output.unit = lunhOutUnit
        table.pointee.output.env = lunhOutEnv
        table.pointee.output.env_find = lunhEnvFind
        table.pointee.output.unit_name = lunhUnitName
        table.pointee.output.path = lunhOutPath
        table.pointee.output.transaction = lunhOutTransaction
        table.pointee.clock.context = Unmanaged.passUnretained(runtime.clock).toOpaque()
        table.pointee.clock.now = lunhClockNow
        table.pointee.clock.schedule = lunhClockSchedule
        table.pointee.clock.cancel = lunhClockCancel
        table.pointee.clock.virtual = lunhClockVirtual
        table.pointee.clock.pop = lunhClockPop
        table.pointee.clock.settle = lunhClockSettle
        table.pointee.clock.reset = lunhClockReset
        table.pointee.objects.context = Unmanaged.passUnretained(runtime.objects).toOpaque()
        table.pointee.objects.object_serial = lunhObjectSerial
        table.pointee.objects.get = lunhHostGet
        table.pointee.objects.set = lunhHostSet
        table.pointee.objects.track_whole = lunhHostTrackWhole
        table.pointee.objects.element = lunhHostElement
        table.pointee.objects.set_element = lunhHostSetElement
        table.pointee.objects.call = lunhHostCall
        table.pointee.objects.table_entry = lunhTableEntry
        table.pointee.objects.table_begin = lunhTableBegin
        table.pointee.objects.table_add = lunhTableAdd
        table.pointee.objects.host_new = lunhHostNew
        table.pointee.objects.release = lunhHostRelease
        table.pointee.objects.describe = lunhHostDescribe
        table.pointee.objects.error_message = lunhErrorMessage
        table.pointee.storage.context = Unmanaged.passUnretained(runtime.storage).toOpaque()
        table.pointee.storage.read = lunhStorageRead
        table.pointee.storage.write = lunhStorageWrite
        table.pointee.storage.keep = lunhStorageKeep
        table.pointee.inspect.context = context
        table.pointee.inspect.app_text = lunhAppText
        table.pointee.inspect.app_find = lunhAppFind
        table.pointee.inspect.node_info = lunhNodeInfo
        table.pointee.inspect.node_text = lunhNodeText
        table.pointee.inspect.node_release_handle = lunhNodeReleaseHandle
        table.pointee.inspect.problem_next = lunhProblemNext
        table.pointee.inspect.event_failed = lunhEventFailed
        table.pointee.inspect.warned = lunhWarned
        table.pointee.inspect.effect_failed = lunhEffectFailed
        table.pointee.inspect.open_url = lunhOpenURL
        table.pointee.trace.context = Unmanaged.passUnretained(runtime.tracer).toOpaque()
        table.pointee.trace.write = lunhTraceWrite
        table.pointee.trace.where = lunhTraceWhere
        table.pointee.trace.set = lunhTraceSet
        table.pointee.trace.event_ran = lunhEventRan
        table.pointee.trace.effect_ran = lunhEffectRan
        return table
    }
}
