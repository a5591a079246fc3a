import CLunette

// Leaves the C module calls while Lua runs (clunette.h): they never call Lua
// and never raise. The graph itself is C (lun_graph.h): reads, pulls and
// writes reach it without coming here.

@inline(__always)
func withRuntime<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (LunetteRuntime) -> T) -> T {
    Unmanaged<LunetteRuntime>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

func lunhRenderWrite(_ rt: UnsafeMutableRawPointer?, _ node: Int32) {
    withRuntime(rt) { runtime in
        if let unit = runtime.builder.unit { runtime.flushState.writesDuringRender.append((unit, node)) }
    }
}

