import CLunette

// The graph's leaves for the C module (clunette.h, "graph"). They run inside
// Lua→C calls: they never call Lua and never raise.

@inline(__always)
func withGraph<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (Graph) -> T) -> T {
    Unmanaged<Graph>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

@inline(__always)
func withRuntime<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (LunetteRuntime) -> T) -> T {
    Unmanaged<LunetteRuntime>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

@_cdecl("lunh_node_new")
func lunhNodeNew(_ rt: UnsafeMutableRawPointer?, _ kind: Int32, _ owner: Int32, _ slot: Int32) -> Int32 {
    withRuntime(rt) { $0.graph.newNode(Graph.Kind(rawValue: UInt8(kind)) ?? .signal, owner: owner, slot: slot) }
}

@_cdecl("lunh_node_release")
func lunhNodeRelease(_ rt: UnsafeMutableRawPointer?, _ node: Int32) {
    withRuntime(rt) { $0.releasedNodes.append(node) }
}

@_cdecl("lunh_track")
func lunhTrack(_ graph: UnsafeMutableRawPointer?, _ sub: Int32, _ dep: Int32) {
    withGraph(graph) { $0.track(sub: sub, dep: dep) }
}

@_cdecl("lunh_retrack")
func lunhRetrack(_ graph: UnsafeMutableRawPointer?, _ sub: Int32, _ dep: Int32) {
    withGraph(graph) { $0.retrack(sub: sub, dep: dep) }
}

@_cdecl("lunh_changed")
func lunhChanged(_ rt: UnsafeMutableRawPointer?, _ node: Int32) {
    withRuntime(rt) { $0.signalChanged(node) }
}

@_cdecl("lunh_run_begin")
func lunhRunBegin(_ graph: UnsafeMutableRawPointer?, _ node: Int32) {
    withGraph(graph) { $0.beginRun(node) }
}

@_cdecl("lunh_run_end")
func lunhRunEnd(_ graph: UnsafeMutableRawPointer?, _ node: Int32, _ ok: Int32) {
    withGraph(graph) { graph in
        graph.endRun(node)
        if ok == 0 && graph.kind(node) == .computed { graph.nodes[Int(node)].flags &= ~Graph.Flags.evaluated }
    }
}

@_cdecl("lunh_computed_read")
func lunhComputedRead(_ graph: UnsafeMutableRawPointer?, _ sub: Int32, _ node: Int32) -> Int32 {
    withGraph(graph) { graph in
        guard graph.isFresh(node) else { return 0 }
        if sub != 0 { graph.track(sub: sub, dep: node) }
        return 1
    }
}

private func answer(_ step: Graph.Step, _ recompute: UnsafeMutablePointer<Int32>?) -> Int32 {
    switch step {
    case .done:
        return Int32(LUN_REFRESH_DONE)
    case .recompute(let node):
        recompute?.pointee = node
        return Int32(LUN_REFRESH_RECOMPUTE)
    }
}

@_cdecl("lunh_refresh_begin")
func lunhRefreshBegin(_ graph: UnsafeMutableRawPointer?, _ node: Int32, _ recompute: UnsafeMutablePointer<Int32>?) -> Int32 {
    withGraph(graph) { answer($0.refreshBegin(node), recompute) }
}

@_cdecl("lunh_refresh_resume")
func lunhRefreshResume(_ graph: UnsafeMutableRawPointer?, _ recompute: UnsafeMutablePointer<Int32>?) -> Int32 {
    withGraph(graph) { answer($0.refreshResume(), recompute) }
}

@_cdecl("lunh_refresh_abort")
func lunhRefreshAbort(_ graph: UnsafeMutableRawPointer?, _ frame: Int32) {
    withGraph(graph) { $0.refreshAbort(to: Int(frame)) }
}

@_cdecl("lunh_refresh_frame")
func lunhRefreshFrame(_ graph: UnsafeMutableRawPointer?) -> Int32 {
    withGraph(graph) { Int32($0.refreshFrame) }
}

@_cdecl("lunh_recompute_begin")
func lunhRecomputeBegin(_ graph: UnsafeMutableRawPointer?, _ node: Int32, _ owner: UnsafeMutablePointer<Int32>?,
                        _ slot: UnsafeMutablePointer<Int32>?) -> Int32 {
    withGraph(graph) { graph in
        owner?.pointee = graph.nodes[Int(node)].owner
        slot?.pointee = graph.nodes[Int(node)].slot
        if graph.nodes[Int(node)].flags & Graph.Flags.computing != 0 { return 0 }
        graph.beginRun(node)
        return 1
    }
}

@_cdecl("lunh_recompute_end")
func lunhRecomputeEnd(_ graph: UnsafeMutableRawPointer?, _ node: Int32, _ ok: Int32, _ changed: Int32) {
    withGraph(graph) { graph in
        graph.endRun(node)
        if ok != 0 {
            graph.computedDone(node, changed: changed != 0)
        } else {
            graph.nodes[Int(node)].flags &= ~Graph.Flags.evaluated
        }
    }
}

@_cdecl("lunh_object_serial")
func lunhObjectSerial(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { runtime in
        defer { runtime.nextSerial += 1 }
        return runtime.nextSerial
    }
}
