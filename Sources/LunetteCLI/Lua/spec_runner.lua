-- spec_runner.lua — the busted-style API of `lunette test`.
--
-- Loaded into a fresh runtime for each spec file. Defines describe, it,
-- pending, before_each, after_each, assert and spy as globals, then
-- `lunette_spec_run(path, options)` loads the file, runs what it declared and
-- hands out one record per test (through lunette_results).

local unpack = table.unpack

-- What the runner calls once specs run, kept as its own: a spec that
-- replaces a global or a library's function (xpcall, coroutine.resume,
-- os.clock — stub(os, "clock") —, string.find, ...) changes its own code,
-- never how the runner runs tests and records their verdicts (R25; the
-- debug library aside: README, "Limits").
local xpcall, pcall, ipairs, require, type, tostring = xpcall, pcall, ipairs, require, type, tostring
local error, pairs, select, rawequal, getmetatable, setmetatable = error, pairs, select, rawequal, getmetatable, setmetatable
local next, rawget, rawset, G, modules = next, rawget, rawset, _G, package and package.loaded
local debug_getmt, debug_setmt = debug and debug.getmetatable, debug and debug.setmetatable
local getinfo = debug and debug.getinfo
local remove = table.remove
local clock = os.clock
local co_create, co_resume, co_status, co_close = coroutine.create, coroutine.resume, coroutine.status, coroutine.close
local find, gmatch, format, sub = string.find, string.gmatch, string.format, string.sub
local insert, concat, pack, sort = table.insert, table.concat, table.pack, table.sort
local mathtype, abs = math.type, math.abs
local located   -- the protected calls' message handler (below, with message_of)
-- The module's reset, flush and configure, as they were before any spec ran
-- (a spec replacing package.loaded.lunette, or ui.reset, turned off the
-- reset between tests).
local ui_reset, ui_flush, ui_configure
do
  local loaded, ui = pcall(require, "lunette")
  if loaded and type(ui) == "table" then ui_reset, ui_flush, ui_configure = ui.reset, ui.flush, ui.configure end
end

-- Assertions ---------------------------------------------------------------

-- A value as a message shows it: strings quoted, plain tables by contents.
local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return format("%q", v) end
  if type(v) ~= "table" or depth > 2 then return tostring(v) end
  local meta = getmetatable(v)
  if type(meta) == "table" and rawget(meta, "__tostring") then return tostring(v) end
  if meta ~= nil and type(meta) ~= "table" then return tostring(v) end   -- a protected metatable
  local parts, n, keys = {}, #v, {}
  for i = 1, n do parts[#parts + 1] = show(v[i], depth + 1) end
  for k in pairs(v) do
    if not (mathtype(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or "[" .. show(k, depth + 1) .. "]"
    parts[#parts + 1] = key .. "=" .. show(v[k], depth + 1)
  end
  return "{" .. concat(parts, ", ") .. "}"
end

-- match._, match.is_string(), ...: stand for "any value that ..." in
-- called_with and same (as luassert's matchers).
local matcher_meta = {}
local function is_matcher(v) return type(v) == "table" and getmetatable(v) == matcher_meta end

local function deep_equal(a, b, seen)
  if is_matcher(a) then return a.test(b) end
  if is_matcher(b) then return b.test(a) end
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do
    if not deep_equal(v, b[k], seen) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

local function fail(message, level)
  error(message, (level or 1) + 2)
end

-- A failure with the spec's own message first, as luassert's last argument.
local function failed(message, own)
  if own ~= nil then message = tostring(own) .. "\n" .. message end
  error(message, 3)
end

local checks = {}

function checks.equal(expected, actual, message)
  if expected ~= actual then
    failed(("expected %s, got %s"):format(show(expected), show(actual)), message)
  end
end

function checks.same(expected, actual, message)
  if not deep_equal(expected, actual) then
    failed(("expected the same contents as %s, got %s"):format(show(expected), show(actual)), message)
  end
end

function checks.truthy(v, message) if not v then fail(message or ("expected a truthy value, got " .. show(v))) end end
function checks.falsy(v, message) if v then fail(message or ("expected a falsy value, got " .. show(v))) end end
function checks.is_nil(v, message) if v ~= nil then failed("expected nil, got " .. show(v), message) end end
function checks.is_not_nil(v, message) if v == nil then failed("expected a value, got nil", message) end end
function checks.is_true(v, message) if v ~= true then failed("expected true, got " .. show(v), message) end end
function checks.is_false(v, message) if v ~= false then failed("expected false, got " .. show(v), message) end end

function checks.not_equal(unexpected, actual, message)
  if unexpected == actual then failed("expected anything but " .. show(unexpected), message) end
end

-- As in luassert: assert.matches(pattern, s[, init[, plain]]).
function checks.matches(pattern, s, init, plain)
  if type(s) ~= "string" or not s:find(pattern, init or 1, plain) then
    fail(("expected a string matching %s, got %s"):format(show(pattern), show(s)))
  end
end

-- As in luassert: the message must equal `expected` once its "file:line: " is stripped.
function checks.has_error(fn, expected)
  local ok, err = pcall(fn)
  if ok then fail("expected an error, but the function returned normally") end
  if type(expected) == "table" then           -- an error value that is a table: by contents, as luassert
    if not deep_equal(expected, err) then fail(("expected the error %s, got %s"):format(show(expected), show(err))) end
  elseif expected ~= nil then
    local text = tostring(err)
    local stripped = text:gsub("^[^:\n]+:%d+: ", "", 1)
    if text ~= expected and stripped ~= expected then
      fail(("expected the error %s, got %s"):format(show(expected), show(text)))
    end
  end
  return err
end

-- As in luassert: the message, its "file:line: " stripped if it is a string,
-- matches `pattern` (plain text when `plain`) — so a spec means the same
-- under both runners.
function checks.error_matches(fn, pattern, init, plain)
  local ok, err = pcall(fn)
  if ok then fail("expected an error, but the function returned normally") end
  local text = err
  if type(err) == "string" then text = err:gsub("^.-:%d+: ", "", 1)
  elseif type(err) == "number" or type(err) == "boolean"
    or (getmetatable(err) ~= nil and rawget(getmetatable(err), "__tostring") ~= nil) then text = tostring(err)
  else fail(("expected an error matching %s, got a %s with no text"):format(show(pattern), type(err))) end
  if not text:find(pattern, init or 1, plain) then
    fail(("expected an error matching %s, got %s"):format(show(pattern), show(text)))
  end
  return err
end

function checks.has_no_error(fn)
  local ok, err = pcall(fn)
  if not ok then fail("expected no error, got " .. show(err)) end
end
checks.has_no_errors = checks.has_no_error

-- assert.near(expected, actual, tolerance)
function checks.near(expected, actual, tolerance)
  if type(actual) ~= "number" or abs(actual - expected) > tolerance then
    fail(("expected %s within %s of %s"):format(show(actual), show(tolerance), show(expected)))
  end
end

-- assert.unique(list[, deep]): no two elements equal.
function checks.unique(list, deep)
  for i = 1, #list do
    for j = i + 1, #list do
      if (deep and deep_equal(list[i], list[j])) or list[i] == list[j] then
        fail(("expected unique elements, %d and %d are equal (%s)"):format(i, j, show(list[i])))
      end
    end
  end
end

-- assert.is_string(v), is_number, is_table, is_function, is_boolean, is_userdata, is_thread.
local kinds = { "string", "number", "table", "function", "boolean", "userdata", "thread" }
for _, kind in ipairs(kinds) do
  checks["is_" .. kind] = function(v, message)
    if type(v) ~= kind then failed(("expected a %s, got %s"):format(kind, show(v)), message) end
  end
end

checks.error = checks.has_error
checks.is_near = checks.near
checks.are_near = checks.near
checks.errors = checks.has_error
checks.has_errors = checks.has_error
checks.are_equal = checks.equal
checks.are_same = checks.same
checks.is_truthy = checks.truthy
checks.is_falsy = checks.falsy
checks.equals, checks.are_equals = checks.equal, checks.equal   -- luassert's other spellings
checks.True, checks.False, checks.Nil = checks.is_true, checks.is_false, checks.is_nil

-- assert.x, assert.are.x, assert.is.x, assert.is_not.x all reach the checks.
local chain = setmetatable({}, { __index = function(_, k) return checks[k] end })
local negations = {
  equal = "not_equal", same = function(a, b)
    if deep_equal(a, b) then fail("expected different contents from " .. show(a)) end
  end,
  truthy = "falsy", falsy = "truthy", is_nil = "is_not_nil",
  is_true = function(v) if v == true then fail("expected anything but true") end end,
  is_false = function(v) if v == false then fail("expected anything but false") end end,
  Nil = "is_not_nil", equals = "not_equal", are_equals = "not_equal",
  error = "has_no_error", errors = "has_no_error", has_error = "has_no_error", has_errors = "has_no_error",
  near = function(expected, actual, tolerance)
    if type(actual) == "number" and abs(actual - expected) <= tolerance then
      fail(("expected %s not within %s of %s"):format(show(actual), show(tolerance), show(expected)))
    end
  end,
  matches = function(pattern, s)
    if type(s) == "string" and s:find(pattern) then fail(("expected a string not matching %s, got %s"):format(show(pattern), show(s))) end
  end,
}
for _, kind in ipairs(kinds) do
  negations["is_" .. kind] = function(v)
    if type(v) == kind then fail(("expected anything but a %s, got %s"):format(kind, show(v))) end
  end
  negations[kind] = negations["is_" .. kind]
end
negations.True, negations.False = negations.is_true, negations.is_false   -- luassert's spellings
local negated = setmetatable({}, { __index = function(_, k)
  local n = negations[k]
  if type(n) == "function" then return n end
  return n and checks[n]
end })

assert = setmetatable({ are = chain, is = chain, has = chain, are_not = negated, is_not = negated, no = negated,
                        has_no = negated, was = chain, was_not = negated }, {
  __index = function(_, k)
    if checks[k] then return checks[k] end
    local plain = type(k) == "string" and (k:match("^is_not_(.+)$") or k:match("^has_no_(.+)$"))
    if plain then return negated[plain] or negated["is_" .. plain] end
  end,
  __call = function(_, v, message, ...)
    if not v then error(message or "assertion failed!", 2) end   -- at the spec's line, as Lua's assert
    return v, message, ...
  end,
})

-- Spies ---------------------------------------------------------------------

spy = {}

local spy_methods = {}
local spy_meta = {
  __index = spy_methods,
  __call = function(self, ...)
    self.calls[#self.calls + 1] = { n = select("#", ...), ... }
    local results
    if self.stubbed then results = self.stubbed
    elseif self.target then results = pack(self.target(...))
    else results = { n = 0 } end
    self.returns[#self.returns + 1] = results
    return unpack(results, 1, results.n)
  end,
}

-- Forgets the calls seen so far.
function spy_methods:clear() self.calls = {} end

-- Puts back the function spy.on replaced.
function spy_methods:revert()
  if self.owner then self.owner[self.key] = self.target end
end

function spy.new(fn)
  return setmetatable({ calls = {}, returns = {}, target = fn }, spy_meta)
end

-- The replacement is assigned as the script would: a model instance refuses
-- a name that is not one of its properties (a method is its class's: spy on
-- the class), and the refusal names the spec's line, not the runner's.
function spy.on(tbl, name)
  local s = spy.new(tbl[name])
  s.owner, s.key = tbl, name
  local ok, err = pcall(function() tbl[name] = s end)
  if not ok then error(tostring(err):gsub("^[^:\n]*:%d+: ", "", 1) .. " (spy.on replaces a table's field; "
                       .. "a model's methods are its class's: spy.on(TheClass, name))", 2) end
  return s
end

-- True for a spy made by spy.new or spy.on.
function spy.is_spy(v) return getmetatable(v) == spy_meta end

-- stub(tbl, name, ...): replaces tbl[name] by a spy that returns the values
-- given (nothing by default) instead of calling the function.
stub = setmetatable({}, { __call = function(_, tbl, name, ...)
  local s = spy.on(tbl, name)
  s.stubbed = pack(...)
  return s
end })
function stub.new(tbl, name, ...) return stub(tbl, name, ...) end
function spy_methods:returns(...) self.stubbed = pack(...); return self end

-- mock(tbl[, stubbed]): spies (or stubs) on every function of tbl; mock.revert(m) puts them back.
mock = setmetatable({}, { __call = function(_, tbl, stubbed)
  for key, value in pairs(tbl) do
    if type(value) == "function" then
      if stubbed then stub(tbl, key) else spy.on(tbl, key) end
    end
  end
  return tbl
end })
function mock.revert(tbl)
  for _, value in pairs(tbl) do
    if spy.is_spy(value) then value:revert() end
  end
end

-- Matchers, for called_with, returned_with and same.
local function matcher(test) return setmetatable({ test = test }, matcher_meta) end
match = { _ = matcher(function() return true end) }
for _, kind in ipairs(kinds) do
  match["is_" .. kind] = function() return matcher(function(v) return type(v) == kind end) end
end
match.is_nil = function() return matcher(function(v) return v == nil end) end
match.is_truthy = function() return matcher(function(v) return v and true or false end) end
match.is_falsy = function() return matcher(function(v) return not v end) end
match.equals = function(x) return matcher(function(v) return v == x end) end
match.is_ref = function(x) return matcher(function(v) return rawequal(v, x) end) end
match.same = function(x) return matcher(function(v) return deep_equal(x, v) end) end
match.matches = function(pattern) return matcher(function(v) return type(v) == "string" and v:find(pattern) ~= nil end) end

function checks.spy(s)
  local function called(n, level)
    if n == nil then
      if #s.calls == 0 then fail("expected the spy to be called", level) end
    elseif #s.calls ~= n then
      fail(("expected the spy to be called %d times, it was called %d times"):format(n, #s.calls), level)
    end
  end
  local function called_with(...)
    local want = { ... }
    local count = select("#", ...)
    for _, call in ipairs(s.calls) do
      if call.n == count and deep_equal({ unpack(call, 1, call.n) }, want) then return end   -- (1) is not (1, nil)
    end
    fail("expected a call with " .. show(want[1]) .. (#want > 1 and ", ..." or ""))
  end
  local function returned_with(...)
    local want = pack(...)
    for _, result in ipairs(s.returns) do
      if deep_equal({ unpack(result, 1, result.n) }, { unpack(want, 1, want.n) }) then return end
    end
    fail("expected a call that returned " .. show(want[1]) .. (want.n > 1 and ", ..." or ""))
  end
  local function not_called() called(0, 2) end      -- the failure at the spec's line
  local function called_at_least(n)
    if #s.calls < n then fail(("expected the spy to be called at least %d times, it was called %d times"):format(n, #s.calls)) end
  end
  local function called_at_most(n)
    if #s.calls > n then fail(("expected the spy to be called at most %d times, it was called %d times"):format(n, #s.calls)) end
  end
  local function not_called_with(...)
    local want = { ... }
    local count = select("#", ...)
    for _, call in ipairs(s.calls) do
      if call.n == count and deep_equal({ unpack(call, 1, call.n) }, want) then fail("expected no call with " .. show(want[1])) end
    end
  end
  local was = { called = called, called_with = called_with, returned_with = returned_with,
                called_at_least = called_at_least, called_at_most = called_at_most }
  return { was = was, was_called = called, was_called_with = called_with, was_returned_with = returned_with,
           returned_with = returned_with, called = called, called_with = called_with,
           was_not = { called = not_called, called_with = not_called_with }, was_not_called = not_called }
end

-- assert.stub(s): as assert.spy(s), for a stub (luassert's form).
checks.stub = function(s) return checks.spy(s) end

-- Snapshots (assert.matches_snapshot): the format and the diff are shared with
-- busted's support (Sources/Lunette/Lua/snapshots.lua).
local snapshots = require("lunette.snapshots")

-- Declaring -----------------------------------------------------------------

local function new_block(name, parent)
  return { name = name, children = {}, before = {}, after = {}, setup = {}, strict = {}, lazyTeardown = {},
           strictTeardown = {}, parent = parent, depth = parent and parent.depth + 1 or 0 }
end

-- How deep describe blocks nest: the runner's walks over a test's blocks
-- (its name, its hooks) cost with the depth, outside any test's limit.
local MAX_DEPTH = 50

-- A declaration's name as the runner keeps it: a string (a number becomes
-- one; nil, for a block, is no name) — else a stand-in, and what is wrong
-- with it (a table's name stopped the whole file when it was shown).
local function name_of(call, name, nilOk)
  if type(name) == "string" or (nilOk and name == nil) then return name end
  if mathtype(name) then return tostring(name) end
  return format("(a %s as a name)", type(name)), format("%s: a name is a string, got %s", call, type(name))
end

-- Whether fn may be a test's body: a function, or a callable table (a busted spy).
local function is_body(fn)
  if type(fn) == "function" then return true end
  local meta = type(fn) == "table" and getmetatable(fn)
  return type(meta) == "table" and rawget(meta, "__call") ~= nil
end

-- A test that fails with problem, placed at the line that declared it
-- (the caller's caller's): only that test fails, as busted's would.
local function failing_test(name, problem, parent)
  local _, placed = pcall(error, problem, 4)
  return { name = name, fn = function() error(placed, 0) end, parent = parent }
end

local root = new_block(nil, nil)
local current = root

-- While the file loads its declarations run (describe, it, pending); then
-- only a test's body may call pending, which stops the test as pending
-- (busted's) by raising this value, and the runner records it skipped.
local inBody, declaring = false, true
local stopPending = setmetatable({}, { __tostring = function() return "pending" end })

-- An error in a describe's body fails that block (as a test named after
-- it) and none of its tests run, as busted reports it; the file's other
-- blocks still run.
function describe(name, fn)
  if not declaring then error("describe: blocks are declared in a file or a describe block, not while tests run", 2) end
  local problem
  name, problem = name_of("describe", name, true)
  if problem then
    local _, placed = pcall(error, problem, 3)
    fn = function() error(placed, 0) end
  end
  if current.depth >= MAX_DEPTH then error(format("describe: blocks nest at most %d deep", MAX_DEPTH), 2) end
  local block = new_block(name, current)
  insert(current.children, block)
  local function declare(body)
    local saved = current
    current = block
    local ok, err = xpcall(body, located)          -- an error with no place gets the line that raised it
    current = saved
    if not ok then
      block.children = { { name = "(its describe body)", parent = block, fn = function() error(err, 0) end } }
    end
  end
  if type(fn) ~= "function" then                  -- its body fails, named at the declaring line, unless
    local _, placed = pcall(error, format("describe: a block's body is a function, got %s", type(fn)), 3)
    declare(function() error(placed, 0) end)
    if fn ~= nil then return end
    return function(body)                         -- busted's curried form gives it: describe "x" (fn)
      if not declaring then error("describe: blocks are declared in a file or a describe block", 2) end
      block.children = {}
      if type(body) ~= "function" then
        local _, at = pcall(error, format("describe: a block's body is a function, got %s", type(body)), 3)
        body = function() error(at, 0) end
      end
      declare(body)
    end
  end
  declare(fn)
end

context = describe
expose = describe        -- every spec file runs in a runtime of its own already

-- insulate (busted's): what the block does to the globals and to
-- package.loaded is undone when it ends. Its body runs while the file is
-- declared, so what the body set is taken aside then (a diff) and given
-- back while the block's tests run; after them, the globals are as before.
-- Everything here is raw (next, rawget, rawset, rawequal): no script code
-- (an __eq, an __index) runs in the runner, outside every test's budget.
-- _G's metatable is saved and given back too, as busted does.
local absent = {}
-- The globals and the modules' table as the file began: a spec that
-- rebinds _G, package or package.loaded (or next, rawget, rawset) changes
-- its own code, not what insulate saves and gives back.
local function insulated_tables() return { G, type(modules) == "table" and modules or {} } end
local function snapshot(t)
  local copy = {}
  for k, v in next, t do copy[k] = v end
  return copy
end
local function restore(t, copy)
  for k in next, t do if rawget(copy, k) == nil then rawset(t, k, nil) end end
  for k, v in next, copy do if not rawequal(rawget(t, k), v) then rawset(t, k, v) end end
end
local function diff(before, t)
  local changes = {}
  for k, v in next, t do if not rawequal(rawget(before, k), v) then changes[k] = v end end
  for k in next, before do if rawget(t, k) == nil then changes[k] = absent end end
  return changes
end
local function apply(t, changes)
  for k, v in next, changes do
    if v == absent then rawset(t, k, nil) else rawset(t, k, v) end   -- a false stays false
  end
end
local getmt = debug_getmt or getmetatable
local function setmt(t, mt)                       -- a protected metatable (__metatable) stays, as busted's would
  pcall(debug_setmt or setmetatable, t, mt)
end

function insulate(name, fn)
  if not declaring then error("insulate: blocks are declared in a file or a describe block, not while tests run", 2) end
  local tables, before, metatable = insulated_tables(), {}, getmt(G)
  for i, t in ipairs(tables) do before[i] = snapshot(t) end
  describe(name, fn)
  local block, changes = current.children[#current.children], {}
  for i, t in ipairs(tables) do changes[i] = diff(before[i], t); restore(t, before[i]) end
  changes.metatable = getmt(G)
  setmt(G, metatable)
  block.insulated = changes
end

function it(name, fn)
  if not declaring then error("it: tests are declared in a file or a describe block, not while tests run", 2) end
  local problem
  name, problem = name_of("it", name)
  if not problem and fn ~= nil and not is_body(fn) then
    problem = format("it: a test's body is a function, got %s", type(fn))
  end
  if problem then return insert(current.children, failing_test(name, problem, current)) end
  if fn == nil then                               -- pending, unless busted's curried form gives it: it "x" (fn)
    local test = { name = name, pending = true, parent = current }
    insert(current.children, test)
    return function(body)
      if not declaring then error("it: tests are declared in a file or a describe block", 2) end
      if not is_body(body) then                   -- that test fails, at its line; its siblings run
        local _, at = pcall(error, format("it: a test's body is a function, got %s", type(body)), 3)
        body = function() error(at, 0) end
      end
      test.pending, test.fn = nil, body
    end
  end
  insert(current.children, { name = name, fn = fn, parent = current })
end
test, spec = it, it

function pending(name)
  if inBody then                                  -- shown now, while the test's limit holds
    stopPending.message = name ~= nil and tostring(name) or nil
    error(stopPending, 0)
  end
  if not declaring then error("pending is for a test's body or a describe block, not a hook", 2) end
  local problem
  name, problem = name_of("pending", name, true)
  if problem then return insert(current.children, failing_test(name, problem, current)) end
  insert(current.children, { name = name or "(pending)", pending = true, parent = current })
end

-- Each hook is kept with the name it was declared with: a failing one is
-- reported as busted names it, "<block> <that name>" ("outer lazy_setup").
local function hook(list, name)
  return function(fn) insert(current[list], { fn = fn, name = name }) end
end
before_each = hook("before", "before_each")
after_each = hook("after", "after_each")
-- As busted: lazy_setup runs once before the block's first test that runs,
-- strict_setup (and setup) when the block starts, tests or not; teardowns
-- after its last test (a lazy one only if the lazy setups ran; a strict one
-- always, after the lazy ones).
lazy_setup, strict_setup, setup = hook("setup", "lazy_setup"), hook("strict", "strict_setup"), hook("strict", "setup")
lazy_teardown, strict_teardown = hook("lazyTeardown", "lazy_teardown"), hook("strictTeardown", "strict_teardown")
teardown = hook("strictTeardown", "teardown")

-- finally(fn) inside a test: fn runs when the test ends, passed or failed.
local finals = {}
function finally(fn)
  if not inBody then error("finally is for a test's body (it runs when the test ends), not a block or a hook", 2) end
  finals[#finals + 1] = fn
end

-- Running -------------------------------------------------------------------

local function full_name(test)
  local parts, node = { test.name }, test.parent
  while node and node.name do
    insert(parts, 1, node.name)
    node = node.parent
  end
  return concat(parts, " ")
end

local function chain_of(block)
  local blocks, node = {}, block
  while node do
    insert(blocks, 1, node)
    node = node.parent
  end
  return blocks
end

-- What the command gave the runner: a way to load spec files (loadfile may
-- be sandboxed away) and to hand results out as they come. Taken out of the
-- globals before any spec runs, so specs cannot reach them.
-- Results go to `lunette_results` (Swift's, writing to a channel of its
-- own that specs cannot reach, R25), never to stdout.
local load_spec, results, watch, unwatch, reset_clock, take_problems, last_miss, snapshot_file, keep_settings =
  lunette_loadfile, lunette_results, lunette_watch, lunette_unwatch, lunette_reset_clock, lunette_problems,
  lunette_last_miss, lunette_snapshots, lunette_keep_settings
lunette_loadfile, lunette_results, lunette_watch, lunette_unwatch, lunette_reset_clock, lunette_problems,
  lunette_last_miss, lunette_snapshots, lunette_keep_settings = nil, nil, nil, nil, nil, nil, nil, nil, nil

-- A failure's message; indexing the nil of an app:find that matched
-- nothing says what was looked for, and in what.
-- "file:line: " of the first frame of a spec's own code from level on (of
-- thread co, if given): where an error was raised, or a test was stopped.
local function place_of(co, level)
  if not getinfo then return "" end
  for l = level, level + 40 do
    local info
    if co then info = getinfo(co, l, "Sl") else info = getinfo(l + 1, "Sl") end
    if not info then break end
    if info.currentline and info.currentline > 0 and sub(info.source, 1, 2) ~= "=(" then
      return format("%s:%d: ", info.short_src, info.currentline)
    end
  end
  return ""
end

local function message_of(err)
  if err == stopPending then return err end       -- the test stopped as pending: kept as it is
  if type(err) ~= "string" then                   -- named by its contents, not its address
    if err == nil then return "error(nil)" end
    local meta = getmetatable(err)
    if type(err) == "table" and not (type(meta) == "table" and rawget(meta, "__tostring")) then return show(err) end
    local ok, text = pcall(tostring, err)
    return ok and type(text) == "string" and text or format("a %s raised as an error", type(err))
  end
  if find(err, "attempt to index a nil value", 1, true) and last_miss then
    local miss = last_miss()
    if miss then return err .. "\n" .. miss end
  end
  return err
end

-- The message handler of a test's and a hook's protected calls: an error
-- value with no place of its own (error(nil), error({ … }), error("x", 0))
-- gets the place it was raised at, as busted shows one.
function located(err)
  if err == stopPending then return err end
  local text = message_of(err)
  if type(err) == "string" and find(err, "^[^\n]-:%d+: ") then return text end
  return place_of(nil, 2) .. text
end

-- Problems: what went wrong in views and events while a test ran (error
-- nodes, errors raised by onAppear, onChange, onReceive or a task, and —
-- with --fail-on-warnings — warnings) fails it, unless the test said it
-- expected them (assert.has_error_node, assert.reported).
local settings = { failOnWarnings = false }
local expected = {}

local function expect(text) expected[#expected + 1] = text end

local function is_expected(problem)
  for _, text in ipairs(expected) do
    if find(problem, text, 1, true) then return true end
  end
  return false
end

-- The problems of the running test nobody expected, as one message (or nil).
-- A test tagged #errors (in its name or a describe's) expects any.
local function unexpected_problems(name)
  local errors, warnings = take_problems()
  if name and find(name, "#errors", 1, true) then return nil end
  local found = {}
  for _, e in ipairs(errors) do if not is_expected(e) then found[#found + 1] = e end end
  if settings.failOnWarnings then
    for _, w in ipairs(warnings) do if not is_expected(w) then found[#found + 1] = "warning: " .. w end end
  end
  if #found == 0 then return nil end
  local more = #found > 1 and format("\n(and %d more)", #found - 1) or ""
  return "an error in a view or an event during this test: " .. found[1] .. more
end

-- assert.has_error_node(app, text): the app shows an error node containing text.
function checks.has_error_node(app, text)
  local tree = app:tree()
  for line in tree:gmatch("[^\n]+") do
    if line:find("Error", 1, true) and line:find(text, 1, true) then expect(text); return end
  end
  fail(("expected an error node containing %s in:\n%s"):format(show(text), tree))
end

-- assert.reported(app, text): a warning or an event's error containing text was reported.
function checks.reported(app, text)
  for _, w in ipairs(app:warnings()) do
    if w:find(text, 1, true) then expect(text); return end
  end
  fail(("expected a report containing %s, the app's warnings are %s"):format(show(text), show(app:warnings())))
end

-- assert.matches_snapshot(value[, name]): the tree text of an app or a
-- node (or a string) equals its snapshot in __snapshots__/<spec>.snap;
-- the first run writes it, --update-snapshots rewrites it.
local snapshot_store = {
  read = function() return snapshot_file and snapshot_file:read() end,
  write = function(text) if snapshot_file then snapshot_file:write(text) end end,
  name = function() return snapshot_file and snapshot_file:path() or "the snapshot file" end,
}
local running = { name = nil, snapshots = 0 }
function checks.matches_snapshot(value, name)
  if not running.name then fail("assert.matches_snapshot is for inside a test (it)") end
  local text = snapshots.text(value)
  if name == nil then running.snapshots = running.snapshots + 1 end
  local key, legacy = snapshots.key(running.name, name, running.snapshots)
  local ok, message = snapshots.check(snapshot_store, key, text, settings.updateSnapshots, legacy)
  if not ok then fail(message) end
end

-- Runs before_each hooks, the test and after_each hooks; the first failure
-- of the hooks before it and the test wins; an after_each's is listed apart
-- (test.afterErrors), as busted reports it.
-- Runs what the test left to run at the next flush (the module as a spec
-- file would load it); an error there is a problem, recorded, not raised.
local function flush_ui()
  if ui_flush then pcall(ui_flush) end
end

-- Each finally and after_each is taken off its list as it starts, so a
-- test stopped at its time limit cleans up with what is left (run_cleanup),
-- none twice; a failure in one outranks a pending stop, as in busted.
local function run_test(test)
  local blocks = chain_of(test.parent)
  local ok, err = true, nil
  finals = {}
  test.afters, test.afterErrors, test.beforeError, test.verdict, test.before = {}, {}, nil, nil, nil
  for i = #blocks, 1, -1 do
    for _, h in ipairs(blocks[i].after) do test.afters[#test.afters + 1] = { fn = h.fn, name = h.name, block = blocks[i] } end
  end
  for _, block in ipairs(blocks) do
    for _, h in ipairs(block.before) do
      if ok then
        test.before = { block = block, name = h.name }   -- a hung one is named as a failing one is
        ok, err = xpcall(h.fn, located)
        if not ok and err ~= stopPending then test.beforeError = test.before end   -- busted names the hook
      end
    end
  end
  test.before = nil
  inBody = true
  if ok then ok, err = xpcall(test.fn, located) end
  inBody = false
  while #finals > 0 do
    local ok2, err2 = xpcall(remove(finals), located)
    if (ok or err == stopPending) and not ok2 then ok, err = ok2, err2 end
  end
  test.verdict = { ok = ok, err = err }           -- a hung after_each does not take it away
  while #test.afters > 0 do                       -- as busted: an after_each's error is its own, the test's stands
    local after = remove(test.afters, 1)
    test.running = after
    local ok2, err2 = xpcall(after.fn, located)
    if not ok2 then test.afterErrors[#test.afterErrors + 1] = { block = after.block, name = after.name, message = err2 } end
  end
  test.running = nil
  flush_ui()                                      -- what its last unmount left to run (onDisappear, a
  local problems = unexpected_problems(test.fullName)   -- cancelled task's end) is the test's
  if ok and problems then ok, err = false, problems end
  return ok, err
end

-- ui.reset() as the module had it before any spec ran (and strict mode on
-- again, under --strict).
local strict = false
local function reset_ui()
  if ui_reset then ui_reset() end
  if ui_configure and strict then ui_configure { strict = true } end
end

-- Runs a test in its own coroutine under a time limit: a hung test is
-- suspended at the limit (lunette_watch), reported failed, and abandoned.
local function run_loading(t)
  return xpcall(t.fn, located, unpack(t.args, 1, t.args.n))
end

local function run_watched(test, timeout)
  local co = co_create(test.loading and run_loading or run_test)
  reset_clock()
  watch(co, timeout)
  local resumed, ok, err = co_resume(co, test)
  local timed_out, place = unwatch(co)            -- where the watch suspended it (its hook saw the line)
  if co_status(co) == "suspended" then
    local stopped_at = place or place_of(co, 0)   -- (else: where it yielded)
    watch(co, timeout)                            -- its pending <close> handlers run under a limit too
    co_close(co)
    unwatch(co)
    if timed_out then
      return false, format("%stimed out after %gs (--timeout sets the limit)", stopped_at, timeout), true
    end
    return false, stopped_at .. "the test yielded outside a coroutine", true   -- stopped there: its cleanup is left to run
  end
  -- It ran past its limit and ended anyway: a coroutine of its own took the
  -- stop (an error there), and the test went on — it still failed its limit.
  if timed_out then return false, format("timed out after %gs (--timeout sets the limit)", timeout) end
  if not resumed then return false, message_of(ok) end
  return ok, err
end

-- Text as valid UTF-8: each byte that is not part of a well-formed
-- character becomes the text \xNN (names and messages are any bytes; the
-- reports are UTF-8).
local utf8_len, byte = utf8.len, string.byte
local function valid_text(s)
  s = tostring(s or "")
  local parts, i = {}, 1
  while true do
    local n, bad = utf8_len(s, i)
    if n then parts[#parts + 1] = sub(s, i); break end
    parts[#parts + 1] = sub(s, i, bad - 1)
    parts[#parts + 1] = format("\\x%02X", byte(s, bad))
    i = bad + 1
  end
  return concat(parts)
end

-- Hands one result out (Swift encodes it; the framing is not Lua's).
local function record(status, name, message, seconds)
  results:emit(status, valid_text(name), valid_text(message), seconds or 0)
end

-- Runs fn(...) in its own coroutine under the time limit, like a test.
local function run_limited(timeout, fn, ...)
  return run_watched({ fn = fn, args = pack(...), loading = true }, timeout)
end

-- A test stopped at its time limit still gets its cleanup — its finally
-- functions, then the after_each hooks of its blocks — each a limited run
-- of its own (their errors add nothing: the test failed already).
local function run_cleanup(test, timeout)
  inBody = false
  while #finals > 0 do run_limited(timeout, remove(finals)) end
  while test.afters and #test.afters > 0 do run_limited(timeout, remove(test.afters, 1).fn) end
  test.running = nil
end

-- Loads a spec file and runs what it declared, handing out one record per
-- test as it ends (status passed, failed or skipped; full name; message;
-- seconds) and a "start" record before each. Loading
-- the file and its describe blocks is bounded by the same time limit.
-- The #tags in a name: "saves #slow #io" -> { slow = true, io = true }.
local function tags_of(name)
  local tags = {}
  for tag in gmatch(name, "#([%w_%-]+)") do tags[tag] = true end
  return tags
end

-- A comma-separated list as a set.
local function set_of(list)
  local set, any = {}, false
  for item in gmatch(list or "", "[^,%s]+") do set[item] = true; any = true end
  return any and set or nil
end

-- Whether name contains any of the texts.
local function contains_any(name, texts)
  for _, text in ipairs(texts) do if find(name, text, 1, true) then return true end end
  return false
end

-- Whether a test of this name runs: --filter (any of them), --filter-out
-- (none of them; plain text), --tags (any of them), --exclude-tags (none).
local function selected(name, options, only, excluded)
  if #options.filter > 0 and not contains_any(name, options.filter) then return false end
  if contains_any(name, options.filterOut) then return false end
  local tags = tags_of(name)
  if only then
    local any = false
    for tag in pairs(only) do any = any or tags[tag] end
    if not any then return false end
  end
  if excluded then
    for tag in pairs(excluded) do if tags[tag] then return false end end
  end
  return true
end

-- Runs block-level hooks (setup, teardown) as a limited run, each
-- announced first (`start(name)`: a "start" record, so the parent sees
-- progress and names a hook that hangs — nested teardowns each within the
-- limit added up past it, and the file was killed); returns ok, message and
-- the failing hook's declared name.
local function run_hooks(hooks, timeout, start)
  for _, h in ipairs(hooks) do
    start(h.name)
    local ok, err = run_limited(timeout, h.fn)
    if not ok then return false, message_of(err), h.name end
  end
  return true
end

function lunette_spec_run(path, options)
  local timeout = options.timeout or 10
  local only, excluded = set_of(options.tags), set_of(options.excludeTags)
  settings.failOnWarnings = options.failOnWarnings
  settings.updateSnapshots = options.updateSnapshots
  strict = options.strict
  if strict then reset_ui() end
  local chunk, err = load_spec(path)
  if not chunk then
    return record("failed", "loading " .. path, err)
  end
  record("start", "loading " .. path)
  local ok, loadErr = run_limited(timeout, chunk)
  declaring = false                               -- from here, it and pending belong to no block
  if ok then loadErr = unexpected_problems(); ok = loadErr == nil end
  if not ok then
    return record("failed", "loading " .. path, loadErr)
  end
  keep_settings()                                 -- what its top level configured holds for each test
  -- A hook's report name, as busted gives it: its block's full name and the
  -- name it was declared with ("outer before_each"; at a file's top level
  -- the name alone).
  local function hook_name(block, name)
    return block.name and (full_name(block) .. " " .. name) or name
  end
  -- Whether a block holds a test that runs (selected, not pending), at any depth.
  local function runs_a_test(block)
    local blocks = { block }
    while #blocks > 0 do
      for _, child in ipairs(remove(blocks).children) do
        if child.children then blocks[#blocks + 1] = child
        elseif not child.pending and selected(full_name(child), options, only, excluded) then return true end
      end
    end
    return false
  end
  -- As busted: a block's lazy setup runs before its first test that runs,
  -- in a nested block too; a setup that failed fails every test below it.
  local function walk(block, inherited)
    -- lazyUp: the lazy setups ran (a strict setup is no reason to skip
    -- them: both run, as busted's).
    local lazyUp, setupError = false, inherited
    local ran = false                             -- a test ran in the block (its lazy teardowns are due)
    local saved
    if block.insulated then
      saved = { metatable = getmt(G) }
      for i, t in ipairs(insulated_tables()) do saved[i] = snapshot(t); apply(t, block.insulated[i]) end
      setmt(G, block.insulated.metatable)
    end
    -- As busted: a setup that fails is one failure, named by its block; the
    -- tests below it do not run (and are not counted).
    local function announce(name) record("start", hook_name(block, name or "setup")) end
    local function run_setup(hooks)
      local good, message, name = run_hooks(hooks, timeout, announce)
      if not good then record("failed", hook_name(block, name or "setup"), message) end
      return not good and message or nil
    end
    if #block.strict > 0 and not inherited then setupError = run_setup(block.strict) end
    for _, child in ipairs(block.children) do
      if child.children then
        local runs = runs_a_test(child)           -- once: it walks the child's whole subtree
        if runs and not lazyUp and not setupError and #block.setup > 0 then
          lazyUp, setupError = true, run_setup(block.setup)
        end
        ran = ran or runs
        walk(child, setupError)
      else
        local name = full_name(child)
        if selected(name, options, only, excluded) then
          if not child.pending and not lazyUp and not setupError and #block.setup > 0 then
            lazyUp, setupError = true, run_setup(block.setup)
          end
          if child.pending then
            record("skipped", name, "pending")
          elseif not setupError then
            ran = true
            record("start", name)
            child.fullName = name
            expected = {}
            reset_ui()                            -- each test starts afresh: no apps, effects, tasks or timers
            take_problems()                       -- what came before belongs to no test
            if last_miss then last_miss() end     -- nor does an earlier test's missed find
            local started = clock()
            running.name, running.snapshots = name, 0
            local good, message, timedOut = run_watched(child, timeout)
            local hung = timedOut and child.running   -- stopped in an after_each: the test had its verdict
            if timedOut and child.before then child.beforeError = child.before end   -- stopped in a before_each
            if hung then
              child.afterErrors[#child.afterErrors + 1] = { block = hung.block, name = hung.name, message = message }
              good, message = child.verdict.ok, child.verdict.err
            end
            if timedOut then run_cleanup(child, timeout) end   -- it stopped midway (its limit, a yield)
            running.name = nil
            if message == stopPending then
              record("skipped", name, "pending" .. (stopPending.message and ": " .. tostring(stopPending.message) or ""))
            elseif not good and child.beforeError then   -- as busted: the hook that failed, in the test's place
              record("failed", hook_name(child.beforeError.block, child.beforeError.name), message_of(message),
                     clock() - started)
            else
              record(good and "passed" or "failed", name, not good and message_of(message) or nil, clock() - started)
            end
            for _, failure in ipairs(child.afterErrors or {}) do
              record("failed", hook_name(failure.block, failure.name), message_of(failure.message))
            end
          end
        end
      end
    end
    -- As busted: the lazy teardowns if a test ran (and so its lazy setups),
    -- then the strict ones (which run however the block went).
    for _, hooks in ipairs { (lazyUp or ran) and block.lazyTeardown or {}, block.strictTeardown } do
      if #hooks > 0 then
        local good, message, name = run_hooks(hooks, timeout, announce)
        if not good then record("failed", hook_name(block, name or "teardown"), message) end
      end
    end
    if saved then
      for i, t in ipairs(insulated_tables()) do restore(t, saved[i]) end
      setmt(G, saved.metatable)
    end
  end
  walk(root)            -- "done" is sent by Swift once this returns
end
