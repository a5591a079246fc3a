import BookModels
import Foundation
import CLua
import Lunette

/// Runtimes started by the loadable module; they live as long as the process
/// (the interpreter's lua_close still calls into them).
private nonisolated(unsafe) var adopted: [LunetteRuntime] = []

/// What the loadable module adds when busted loaded it, so a spec passes or
/// fails the same way under both runners (issue 20): the assertions
/// `lunette test` has for error nodes, reports and snapshots; an error node
/// or an event's error nobody expected fails the test (busted.fail); indexing
/// the nil of a `find` that matched nothing says what was looked for, in
/// what tree; `ui.reset()` before each test's before_each hooks (with the
/// settings its file's top level left), as `lunette test` does — not after
/// the test, before its after_each ran, as before. Installed once per interpreter
/// (busted insulates each file's package.loaded, so the module may be opened
/// again: the newest runtime's problems are the ones taken).
private let bustedSupport = """
    local problems, last_miss, keep_settings = lunette_problems, lunette_last_miss, lunette_keep_settings
    lunette_loadfile, lunette_watch, lunette_unwatch, lunette_reset_clock, lunette_problems, lunette_last_miss,
      lunette_keep_settings = nil, nil, nil, nil, nil, nil, nil
    local has_busted, busted = pcall(require, "busted")
    if not (has_busted and type(busted) == "table" and busted.subscribe) then return end
    local registry = debug.getregistry()
    local S = registry["lunette busted support"]
    if S then
      S.problems, S.last_miss, S.keep_settings = problems, last_miss, keep_settings
      S.hook()                                      -- this file's reset before each of its tests
      return
    end
    S = { problems = problems, last_miss = last_miss, keep_settings = keep_settings, expected = {}, stores = {} }
    registry["lunette busted support"] = S

    local snapshots = require("lunette.snapshots")   -- the format and diff `lunette test` uses

    local function expect(text) S.expected[#S.expected + 1] = text end
    local function full_name(element)
      local parts, node = { element.name }, busted.parent(element)
      while node and node.descriptor ~= "file" do
        if node.name then table.insert(parts, 1, node.name) end
        node = busted.parent(node)
      end
      return table.concat(parts, " "), node and node.name
    end
    -- As lunette test: the problems of the test nobody expected (a #errors tag expects any).
    local function unexpected_problems(name)
      local errors = S.problems()
      if name:find("#errors", 1, true) then return nil end
      local found = {}
      for _, e in ipairs(errors) do
        local wanted = false
        for _, text in ipairs(S.expected) do wanted = wanted or e:find(text, 1, true) ~= nil end
        if not wanted then found[#found + 1] = e end
      end
      if #found == 0 then return nil end
      local more = #found > 1 and ("\\n(and %d more)"):format(#found - 1) or ""
      return "an error in a view or an event during this test: " .. found[1] .. more
    end

    local has_luassert, luassert = pcall(require, "luassert")
    local has_say, say = pcall(require, "say")
    if has_luassert and has_say then
      local function has_error_node(state, arguments)
        local app, text = arguments[1], arguments[2]
        for line in app:tree():gmatch("[^\\n]+") do
          if line:find("Error", 1, true) and line:find(text, 1, true) then expect(text); return true end
        end
        return false
      end
      local function reported(state, arguments)
        for _, warning in ipairs(arguments[1]:warnings()) do
          if warning:find(arguments[2], 1, true) then expect(arguments[2]); return true end
        end
        return false
      end
      local function matches_snapshot(state, arguments)
        local test = S.test
        if not test then state.failure_message = "assert.matches_snapshot is for inside a test (it)"; return false end
        local text = snapshots.text(arguments[1])
        local name = arguments[2]
        if name == nil then S.count = S.count + 1 end
        local spec = test.file or "spec"
        local directory, base = spec:match("^(.-)([^/]*)$")
        local path = directory .. "__snapshots__/" .. base:gsub("%.lua$", "") .. ".snap"
        local store = S.stores[path]
        if not store then
          store = {
            read = function()
              local f = io.open(path, "rb")
              if not f then return nil end
              local content = f:read("a")
              f:close()
              return content
            end,
            write = function(content)
              os.execute("mkdir -p '" .. (directory .. "__snapshots__"):gsub("'", "'\\''") .. "'")
              local f = assert(io.open(path, "wb"))
              f:write(content)
              f:close()
            end,
            name = function() return path end,
          }
          S.stores[path] = store
        end
        local update = os.getenv("LUNETTE_UPDATE_SNAPSHOTS")
        local key, legacy = snapshots.key(test.name, name, S.count)
        local ok, message = snapshots.check(store, key, text, update ~= nil and update ~= "" and update ~= "0", legacy)
        if not ok then state.failure_message = message end
        return ok
      end
      say:set("assertion.has_error_node.positive", "Expected an error node containing the text")
      say:set("assertion.has_error_node.negative", "Expected no error node containing the text")
      say:set("assertion.reported.positive", "Expected a report (warning or event error) containing the text")
      say:set("assertion.reported.negative", "Expected no report containing the text")
      say:set("assertion.matches_snapshot.positive", "Expected the snapshot's text")
      say:set("assertion.matches_snapshot.negative", "Expected a text other than the snapshot's")
      luassert:register("assertion", "has_error_node", has_error_node,
                        "assertion.has_error_node.positive", "assertion.has_error_node.negative")
      luassert:register("assertion", "reported", reported, "assertion.reported.positive", "assertion.reported.negative")
      luassert:register("assertion", "matches_snapshot", matches_snapshot,
                        "assertion.matches_snapshot.positive", "assertion.matches_snapshot.negative")
    end

    -- The nil of a missed find is explained, through the file's message
    -- rewriter (busted's hook, called where busted catches the error): a
    -- test's errors reach busted as raised, so it places them (a pending
    -- test, a failure) at the spec's line, not at a wrapper's.
    local function explain_misses(element)
      local node = busted.parent(element)
      while node and node.descriptor ~= "file" do node = busted.parent(node) end
      local run = node and node.run
      if type(run) ~= "table" or run.lunette_misses then return end
      local rewrite = run.rewriteMessage
      run.lunette_misses = true
      run.rewriteMessage = function(filename, message)
        if rewrite then message = rewrite(filename, message) end
        if type(message) == "string" and message:find("attempt to index a nil value", 1, true) then
          local miss = S.last_miss()
          if miss then return message .. "\\n" .. miss end
        end
        return message
      end
    end

    -- Each test starts afresh, as under lunette test: a before_each the
    -- module registers where it is required (a file's top level: before the
    -- file's own hooks, which busted runs in order, outermost first) resets
    -- it — once its file's top level's settings are kept, at the file's
    -- first test. Before, the reset came at "test end", before the test's
    -- after_each (which found its app gone); a file's top level's apps and
    -- clock reached its first test; and what a before_each's views raised
    -- was dropped at "test start". Each file opens the module anew (busted
    -- insulates package.loaded), and so registers its own.
    local function module_now()
      local ui = package.loaded.lunette
      return type(ui) == "table" and ui or nil
    end
    S.fileBegins = true                             -- this file's: its "file start" has passed
    local function reset_for_test()
      local top                                     -- what its file's top level's views raised: as lunette
      if S.fileBegins then                          -- test fails the file's loading, its first test fails
        S.fileBegins = false
        top = S.problems()
        S.keep_settings()                           -- its file's top level's settings hold
      end
      local ui = module_now()
      if ui and ui.reset then ui.reset() end
      S.problems()                                  -- what came before belongs to no test
      S.last_miss()
      S.expected = {}
      S.resetFirst = true                           -- this test began afresh
      if top and #top > 0 then
        busted.fail("an error in a view or an event at the file's top level: " .. top[1], 0)
      end
    end
    function S.hook()                               -- the file whose top level first required it
      if S.eachFile or type(busted.before_each) ~= "function" then return end
      busted.before_each(reset_for_test)
    end
    S.hook()
    -- The run's first require may be inside a describe or a setup: the hook
    -- above is then that block's. Each describe of that file that starts
    -- later, and is not inside a hooked one, gets one of its own.
    S.hooked = setmetatable({}, { __mode = "k" })
    busted.subscribe({ "describe", "start" }, function(element)
      if S.eachFile or type(busted.before_each) ~= "function" then return nil, true end
      local node = element
      while node do
        if S.hooked[node] then return nil, true end
        node = busted.parent(node)
      end
      S.hooked[element] = true
      busted.before_each(reset_for_test)
      return nil, true
    end)
    busted.subscribe({ "file", "start" }, function()   -- every later file: registered in it (the
      S.fileBegins, S.eachFile = true, true         -- context while a file starts is the file's)
      S.problems()                                  -- none of the file before is this file's
      if type(busted.before_each) == "function" then busted.before_each(reset_for_test) end
      return nil, true
    end)
    busted.subscribe({ "file", "end" }, function()  -- the next file's top level starts afresh too
      local ui = module_now()
      if ui and ui.reset then pcall(ui.reset) end
      S.problems()
      return nil, true
    end)

    -- Each test: its problems are its own, and an unexpected one fails it.
    busted.subscribe({ "test", "start" }, function(element)
      local name, file = full_name(element)
      S.count, S.test = 0, { name = name, file = file }
      explain_misses(element)
      local run = element.run
      if type(run) == "function" or (type(run) == "table" and getmetatable(run) and getmetatable(run).__call) then
        element.run = function(...)
          local results = table.pack(run(...))
          local ui = package.loaded.lunette               -- what its last unmount left to run is the test's
          if type(ui) == "table" and ui.flush then pcall(ui.flush) end
          local problem = unexpected_problems(name)
          if problem then busted.fail(problem, 0) end
          return table.unpack(results, 1, results.n)
        end
      end
      return nil, true
    end)
    -- A test the hook did not reach (the run's first require was inside a
    -- describe or a setup, so the first file's hook is that block's) is
    -- reset after it, as before: each test still starts afresh.
    busted.subscribe({ "test", "end" }, function()
      S.test = nil
      if not S.resetFirst then
        local ui = module_now()
        if ui and ui.reset then pcall(ui.reset) end
      end
      S.resetFirst = false
      return nil, true
    end)
    """

/// Starts a runtime in a state the stock interpreter made, with the seeds'
/// models registered and a virtual clock (nothing drives real time there;
/// ui.clock.advance does). A leaf: it enters Lua only through protected calls.
@_cdecl("lunette_module_adopt")
func lunetteModuleAdopt(_ state: OpaquePointer?) -> Int32 {
    guard let state, let runtime = try? LunetteRuntime(adopting: state) else { return 0 }
    try? BookModels.register(in: runtime)
    try? runtime.installRunnerSupport()             // lunette_problems, lunette_last_miss (taken out again below)
    do {
        _ = try runtime.evaluate(bustedSupport, name: "=(lunette busted support)")
    } catch {
        fputs("lunette: the busted support did not load: \(error)\n", stderr)
    }
    adopted.append(runtime)
    return 1
}
