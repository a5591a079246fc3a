// What may cross threads (Swift 6 strict concurrency).
//
// A runtime, its apps and their nodes belong to the thread that made the
// runtime — or to one serial executor, such as the main actor — and are used
// there only: they are not `Sendable`, so the compiler refuses to hand them
// to another thread. What other threads may do is change the models Lua
// sees (a model shared across threads guards its own storage: a `Mutex`, a
// lock, or `@MainActor` if only the main actor changes it — declaring
// `@preconcurrency LuaExposed`, with the runtime on the main actor) and call what
// `onModelChange` gave them, which is `@Sendable`. Values that cross are
// `Sendable`: `LunetteError`, `LuaConversionError`, `RenderNode.Kind`,
// `RenderNode.Modifier`, `HostType.Lifetime`, `LunetteRuntime.Interrupter`.

@available(*, unavailable, message: "a LunetteRuntime belongs to the thread (or serial executor) that made it")
extension LunetteRuntime: Sendable {}

@available(*, unavailable, message: "an App belongs to its runtime's thread")
extension App: Sendable {}

@available(*, unavailable, message: "a RenderNode belongs to its runtime's thread")
extension RenderNode: Sendable {}
