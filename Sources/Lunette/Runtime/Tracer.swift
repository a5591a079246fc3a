/// What `ui.trace` / `:trace` record (Diagnostics.swift writes it).
struct Tracer {
    /// Tracing is on: writes say where they happened, runs say why.
    var tracing = false
    /// Print each line as it is recorded (the REPL's `:trace`).
    var traceEcho = false
    var traceLines: [String] = []
    /// Where each graph node was last written ("file:line").
    var lastWrites: [Int32: String] = [:]
    /// The place of the write about to be reported.
    var pendingWritePlace: String?
}
