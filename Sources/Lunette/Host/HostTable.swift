import CLunette

/// The table of callbacks a runtime hands to the C module (`lun_Host` in
/// clunette.h), as `lua_Alloc` is handed to Lua: the C module links against
/// nothing of Swift's. Each callback is a leaf — it never runs Lua and never
/// raises — and finds its runtime through `context`.
enum HostTable {
    /// A table whose context is `runtime` (unretained: the runtime owns the table).
    static func make(for runtime: LunetteRuntime) -> UnsafeMutablePointer<lun_Host> {
        let table = UnsafeMutablePointer<lun_Host>.allocate(capacity: 1)
        table.initialize(to: lun_Host())
        table.pointee.context = Unmanaged.passUnretained(runtime).toOpaque()
        table.pointee.render_write = lunhRenderWrite
        table.pointee.object_serial = lunhObjectSerial
        table.pointee.view_type = lunhViewType
        table.pointee.out_begin = lunhOutBegin
        table.pointee.out_position = lunhOutPosition
        table.pointee.out_modifier = lunhOutModifier
        table.pointee.out_slot = lunhOutSlot
        table.pointee.out_attr = lunhOutAttr
        table.pointee.out_end = lunhOutEnd
        table.pointee.out_error = lunhOutError
        table.pointee.out_site = lunhOutSite
        table.pointee.out_unit = lunhOutUnit
        table.pointee.out_unit_record = lunhOutUnitRecord
        table.pointee.out_unit_changed = lunhOutUnitChanged
        table.pointee.out_env = lunhOutEnv
        table.pointee.out_env_changed = lunhOutEnvChanged
        table.pointee.env_find = lunhEnvFind
        table.pointee.unit_name = lunhUnitName
        table.pointee.out_path = lunhOutPath
        table.pointee.round_batch = lunhRoundBatch
        table.pointee.unit_begin = lunhUnitBegin
        table.pointee.unit_end = lunhUnitEnd
        table.pointee.release_next = lunhReleaseNext
        table.pointee.trace_write = lunhTraceWrite
        table.pointee.trace_where = lunhTraceWhere
        table.pointee.trace_set = lunhTraceSet
        table.pointee.transaction_begin = lunhTransactionBegin
        table.pointee.transaction_end = lunhTransactionEnd
        table.pointee.out_animate = lunhOutAnimate
        table.pointee.out_transaction = lunhOutTransaction
        table.pointee.clock_now = lunhClockNow
        table.pointee.clock_schedule = lunhClockSchedule
        table.pointee.clock_cancel = lunhClockCancel
        table.pointee.clock_virtual = lunhClockVirtual
        table.pointee.clock_pop = lunhClockPop
        table.pointee.clock_settle = lunhClockSettle
        table.pointee.clock_reset = lunhClockReset
        table.pointee.reset = lunhReset
        table.pointee.event_failed = lunhEventFailed
        table.pointee.event_ran = lunhEventRan
        table.pointee.prefs_prepare = lunhPrefsPrepare
        table.pointee.prefs_item = lunhPrefsItem
        table.pointee.problem_next = lunhProblemNext
        table.pointee.mount = lunhMount
        table.pointee.flush_begin = lunhFlushBegin
        table.pointee.round_begin = lunhRoundBegin
        table.pointee.round_end = lunhRoundEnd
        table.pointee.flush_end = lunhFlushEnd
        table.pointee.flushing = lunhFlushing
        table.pointee.unmount = lunhUnmount
        table.pointee.effect_new = lunhEffectNew
        table.pointee.effect_dispose = lunhEffectDispose
        table.pointee.app_text = lunhAppText
        table.pointee.app_find = lunhAppFind
        table.pointee.node_info = lunhNodeInfo
        table.pointee.node_text = lunhNodeText
        table.pointee.node_release_handle = lunhNodeReleaseHandle
        table.pointee.unit_invalidate = lunhUnitInvalidate
        table.pointee.host_get = lunhHostGet
        table.pointee.host_set = lunhHostSet
        table.pointee.host_track_whole = lunhHostTrackWhole
        table.pointee.host_element = lunhHostElement
        table.pointee.host_set_element = lunhHostSetElement
        table.pointee.host_call = lunhHostCall
        table.pointee.table_entry = lunhTableEntry
        table.pointee.table_begin = lunhTableBegin
        table.pointee.table_add = lunhTableAdd
        table.pointee.host_new = lunhHostNew
        table.pointee.host_release = lunhHostRelease
        table.pointee.host_describe = lunhHostDescribe
        table.pointee.error_message = lunhErrorMessage
        table.pointee.storage_read = lunhStorageRead
        table.pointee.storage_write = lunhStorageWrite
        return table
    }
}
