import BookModels
import CLua
import Lunette

/// Runtimes started by the loadable module; they live as long as the process
/// (the interpreter's lua_close still calls into them).
private nonisolated(unsafe) var adopted: [LunetteRuntime] = []

/// What the loadable module adds when busted loaded it: the assertions
/// `lunette test` has for error nodes and reports, and `ui.reset()` after
/// each test, so a spec passes or fails the same way under both runners.
private let bustedSupport = """
    local has_luassert, luassert = pcall(require, "luassert")
    local has_say, say = pcall(require, "say")
    if has_luassert and has_say then
      local function has_error_node(state, arguments)
        local app, text = arguments[1], arguments[2]
        for line in app:tree():gmatch("[^\\n]+") do
          if line:find("Error", 1, true) and line:find(text, 1, true) then return true end
        end
        return false
      end
      local function reported(state, arguments)
        for _, warning in ipairs(arguments[1]:warnings()) do
          if warning:find(arguments[2], 1, true) then return true end
        end
        return false
      end
      say:set("assertion.has_error_node.positive", "Expected an error node containing the text")
      say:set("assertion.has_error_node.negative", "Expected no error node containing the text")
      say:set("assertion.reported.positive", "Expected a report (warning or event error) containing the text")
      say:set("assertion.reported.negative", "Expected no report containing the text")
      luassert:register("assertion", "has_error_node", has_error_node,
                        "assertion.has_error_node.positive", "assertion.has_error_node.negative")
      luassert:register("assertion", "reported", reported, "assertion.reported.positive", "assertion.reported.negative")
    end
    local has_busted, busted = pcall(require, "busted")
    if has_busted and type(busted) == "table" and busted.subscribe then
      busted.subscribe({ "test", "end" }, function()
        local ui = package.loaded.lunette
        if type(ui) == "table" and ui.reset then pcall(ui.reset) end
        return nil, true
      end)
    end
    """

/// Starts a runtime in a state the stock interpreter made, with the seeds'
/// models registered and a virtual clock (nothing drives real time there;
/// ui.clock.advance does). A leaf: it enters Lua only through protected calls.
@_cdecl("lunette_module_adopt")
func lunetteModuleAdopt(_ state: OpaquePointer?) -> Int32 {
    guard let state, let runtime = try? LunetteRuntime(adopting: state) else { return 0 }
    try? BookModels.register(in: runtime)
    _ = try? runtime.evaluate(bustedSupport, name: "=(lunette busted support)")
    adopted.append(runtime)
    return 1
}
