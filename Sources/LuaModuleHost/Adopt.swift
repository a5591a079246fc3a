import BookModels
import CLua
import Lunette

/// Runtimes started by the loadable module; they live as long as the process
/// (the interpreter's lua_close still calls into them).
private nonisolated(unsafe) var adopted: [LunetteRuntime] = []

/// Starts a runtime in a state the stock interpreter made, with the seeds'
/// models registered and a virtual clock (nothing drives real time there;
/// ui.clock.advance does). A leaf: it enters Lua only through protected calls.
@_cdecl("lunette_module_adopt")
func lunetteModuleAdopt(_ state: OpaquePointer?) -> Int32 {
    guard let state, let runtime = try? LunetteRuntime(adopting: state) else { return 0 }
    try? BookModels.register(in: runtime)
    adopted.append(runtime)
    return 1
}
