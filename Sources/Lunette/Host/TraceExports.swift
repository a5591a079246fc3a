import CLunette

// The trace group's leaves (clunette.h, "trace"): they answer with the Tracer.

@inline(__always)
private func withTracer<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (Tracer) -> T) -> T {
    Unmanaged<Tracer>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

func lunhTraceSet(_ context: UnsafeMutableRawPointer?, _ on: Int32, _ echo: Int32) {
    withTracer(context) { $0.set(on != 0, echo: echo != 0) }
}

func lunhTraceWrite(_ context: UnsafeMutableRawPointer?, _ node: Int32, _ place: UnsafePointer<CChar>?, _ length: Int) {
    withTracer(context) { $0.write(to: node, at: string(place, length)) }
}

func lunhTraceWhere(_ context: UnsafeMutableRawPointer?, _ place: UnsafePointer<CChar>?, _ length: Int) {
    withTracer(context) { $0.pendingWritePlace = string(place, length) }
}

func lunhEffectRan(_ context: UnsafeMutableRawPointer?, _ node: Int32, _ isNew: Int32) {
    withTracer(context) { $0.effectRun(node: node, isNew: isNew != 0) }
}

func lunhEventRan(_ context: UnsafeMutableRawPointer?, _ unit: Int32, _ what: UnsafePointer<CChar>?, _ length: Int) {
    withTracer(context) { $0.event(string(what, length), unit: unit) }
}
