-- spec_runner.lua — the busted-style API of `lunette test`.
--
-- Loaded into a fresh runtime for each spec file. Defines describe, it,
-- pending, before_each, after_each, assert and spy as globals, then
-- `lunette_spec_run(path, filter)` loads the file, runs what it declared and
-- prints one line per test. It returns "passed failed skipped".

local unpack = table.unpack

-- Assertions ---------------------------------------------------------------

-- A value as a message shows it: strings quoted, plain tables by contents.
local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" or depth > 2 then return tostring(v) end
  local meta = getmetatable(v)
  if meta and meta.__tostring then return tostring(v) end
  local parts, n, keys = {}, #v, {}
  for i = 1, n do parts[#parts + 1] = show(v[i], depth + 1) end
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or "[" .. show(k, depth + 1) .. "]"
    parts[#parts + 1] = key .. "=" .. show(v[k], depth + 1)
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function deep_equal(a, b, seen)
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

local checks = {}

function checks.equal(expected, actual)
  if expected ~= actual then
    fail(("expected %s, got %s"):format(show(expected), show(actual)))
  end
end

function checks.same(expected, actual)
  if not deep_equal(expected, actual) then
    fail(("expected the same contents as %s, got %s"):format(show(expected), show(actual)))
  end
end

function checks.truthy(v, message) if not v then fail(message or ("expected a truthy value, got " .. show(v))) end end
function checks.falsy(v, message) if v then fail(message or ("expected a falsy value, got " .. show(v))) end end
function checks.is_nil(v) if v ~= nil then fail("expected nil, got " .. show(v)) end end
function checks.is_not_nil(v) if v == nil then fail("expected a value, got nil") end end
function checks.is_true(v) if v ~= true then fail("expected true, got " .. show(v)) end end
function checks.is_false(v) if v ~= false then fail("expected false, got " .. show(v)) end end

function checks.not_equal(unexpected, actual)
  if unexpected == actual then fail("expected anything but " .. show(unexpected)) end
end

function checks.matches(pattern, s)
  if type(s) ~= "string" or not s:find(pattern) then
    fail(("expected a string matching %s, got %s"):format(show(pattern), show(s)))
  end
end

-- As in luassert: the message must equal `expected` once its "file:line: " is stripped.
function checks.has_error(fn, expected)
  local ok, err = pcall(fn)
  if ok then fail("expected an error, but the function returned normally") end
  if expected ~= nil then
    local text = tostring(err)
    local stripped = text:gsub("^[^:\n]+:%d+: ", "", 1)
    if text ~= expected and stripped ~= expected then
      fail(("expected the error %s, got %s"):format(show(expected), show(text)))
    end
  end
  return err
end

-- As in luassert: the message matches `pattern` (plain text when `plain`).
function checks.error_matches(fn, pattern, init, plain)
  local ok, err = pcall(fn)
  if ok then fail("expected an error, but the function returned normally") end
  local text = tostring(err)
  if not text:find(pattern, init or 1, plain) then
    fail(("expected an error matching %s, got %s"):format(show(pattern), show(text)))
  end
  return err
end

function checks.has_no_error(fn)
  local ok, err = pcall(fn)
  if not ok then fail("expected no error, got " .. show(err)) end
end

checks.error = checks.has_error
checks.errors = checks.has_error
checks.has_errors = checks.has_error
checks.are_equal = checks.equal
checks.are_same = checks.same
checks.is_truthy = checks.truthy
checks.is_falsy = checks.falsy

-- assert.x, assert.are.x, assert.is.x, assert.is_not.x all reach the checks.
local chain = setmetatable({}, { __index = function(_, k) return checks[k] end })
local negations = {
  equal = "not_equal", same = function(a, b)
    if deep_equal(a, b) then fail("expected different contents from " .. show(a)) end
  end,
  truthy = "falsy", falsy = "truthy", is_nil = "is_not_nil",
}
local negated = setmetatable({}, { __index = function(_, k)
  local n = negations[k]
  if type(n) == "function" then return n end
  return n and checks[n]
end })

assert = setmetatable({ are = chain, is = chain, has = chain, are_not = negated, is_not = negated, no = negated }, {
  __index = function(_, k) return checks[k] end,
  __call = function(_, v, message, ...)
    if not v then error(message or "assertion failed!") end
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
    if self.target then return self.target(...) end
  end,
}

-- Forgets the calls seen so far.
function spy_methods:clear() self.calls = {} end

-- Puts back the function spy.on replaced.
function spy_methods:revert()
  if self.owner then self.owner[self.key] = self.target end
end

function spy.new(fn)
  return setmetatable({ calls = {}, target = fn }, spy_meta)
end

function spy.on(tbl, name)
  local s = spy.new(tbl[name])
  s.owner, s.key = tbl, name
  tbl[name] = s
  return s
end

-- True for a spy made by spy.new or spy.on.
function spy.is_spy(v) return getmetatable(v) == spy_meta end

function checks.spy(s)
  local function called(n)
    if n == nil then
      if #s.calls == 0 then fail("expected the spy to be called") end
    elseif #s.calls ~= n then
      fail(("expected the spy to be called %d times, it was called %d times"):format(n, #s.calls))
    end
  end
  local function called_with(...)
    local want = { ... }
    for _, call in ipairs(s.calls) do
      if deep_equal({ unpack(call, 1, call.n) }, want) then return end
    end
    fail("expected a call with " .. show(want[1]) .. (#want > 1 and ", ..." or ""))
  end
  local function not_called() called(0) end
  local was = { called = called, called_with = called_with }
  return { was = was, was_called = called, was_called_with = called_with,
           was_not = { called = not_called }, was_not_called = not_called }
end

-- Declaring -----------------------------------------------------------------

local root = { name = nil, children = {}, before = {}, after = {} }
local current = root

function describe(name, fn)
  local block = { name = name, children = {}, before = {}, after = {}, parent = current }
  table.insert(current.children, block)
  local saved = current
  current = block
  fn()
  current = saved
end

context = describe

function it(name, fn)
  table.insert(current.children, { name = name, fn = fn, parent = current })
end

function pending(name)
  table.insert(current.children, { name = name, pending = true, parent = current })
end

function before_each(fn) table.insert(current.before, fn) end
function after_each(fn) table.insert(current.after, fn) end

-- Running -------------------------------------------------------------------

local function full_name(test)
  local parts, node = { test.name }, test.parent
  while node and node.name do
    table.insert(parts, 1, node.name)
    node = node.parent
  end
  return table.concat(parts, " ")
end

local function chain_of(block)
  local blocks, node = {}, block
  while node do
    table.insert(blocks, 1, node)
    node = node.parent
  end
  return blocks
end

-- What the command gave the runner: a way to load spec files (loadfile may
-- be sandboxed away) and to hand results out as they come. Taken out of the
-- globals before any spec runs, so specs cannot reach them.
local load_spec, emit, watch, unwatch, reset_clock, take_problems, last_miss =
  lunette_loadfile, lunette_emit, lunette_watch, lunette_unwatch, lunette_reset_clock, lunette_problems,
  lunette_last_miss
lunette_loadfile, lunette_emit, lunette_watch, lunette_unwatch, lunette_reset_clock, lunette_problems,
  lunette_last_miss = nil, nil, nil, nil, nil, nil, nil

-- A failure's message; indexing the nil of an app:find that matched
-- nothing says what was looked for, and in what.
local function message_of(err)
  if type(err) ~= "string" then return tostring(err) end
  if err:find("attempt to index a nil value", 1, true) and last_miss then
    local miss = last_miss()
    if miss then return err .. "\n" .. miss end
  end
  return err
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
    if problem:find(text, 1, true) then return true end
  end
  return false
end

-- The problems of the running test nobody expected, as one message (or nil).
-- A test tagged #errors (in its name or a describe's) expects any.
local function unexpected_problems(name)
  local errors, warnings = take_problems()
  if name and name:find("#errors", 1, true) then return nil end
  local found = {}
  for _, e in ipairs(errors) do if not is_expected(e) then found[#found + 1] = e end end
  if settings.failOnWarnings then
    for _, w in ipairs(warnings) do if not is_expected(w) then found[#found + 1] = "warning: " .. w end end
  end
  if #found == 0 then return nil end
  local more = #found > 1 and ("\n(and %d more)"):format(#found - 1) or ""
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

-- Runs before_each hooks, the test and after_each hooks; the first failure wins.
local function run_test(test)
  local blocks = chain_of(test.parent)
  local ok, err = true, nil
  for _, block in ipairs(blocks) do
    for _, fn in ipairs(block.before) do
      if ok then ok, err = xpcall(fn, message_of) end
    end
  end
  if ok then ok, err = xpcall(test.fn, message_of) end
  for i = #blocks, 1, -1 do
    for _, fn in ipairs(blocks[i].after) do
      local ok2, err2 = xpcall(fn, message_of)
      if ok and not ok2 then ok, err = ok2, err2 end
    end
  end
  local problems = unexpected_problems(test.fullName)
  if ok and problems then ok, err = false, problems end
  return ok, err
end

-- ui.reset(), with the module as a spec file would load it.
local function reset_ui()
  local loaded, ui = pcall(require, "lunette")
  if loaded and ui.reset then ui.reset() end
end

-- Runs a test in its own coroutine under a time limit: a hung test is
-- suspended at the limit (lunette_watch), reported failed, and abandoned.
local function run_loading(t)
  return xpcall(t.fn, message_of, table.unpack(t.args, 1, t.args.n))
end

local function run_watched(test, timeout)
  local co = coroutine.create(test.loading and run_loading or run_test)
  reset_clock()
  watch(co, timeout)
  local resumed, ok, err = coroutine.resume(co, test)
  local timed_out = unwatch(co)
  if coroutine.status(co) == "suspended" then
    coroutine.close(co)
    if timed_out then return false, ("timed out after %gs (--timeout sets the limit)"):format(timeout) end
    return false, "the test yielded outside a coroutine"
  end
  if not resumed then return false, message_of(ok) end
  return ok, err
end

-- Field separator and record frame of the results handed out (framed, so
-- what specs print between records passes through).
local FS, GS, RS = "\31", "\29", "\30"

local function record(status, name, message, seconds)
  emit(GS .. table.concat({ status, name, message or "", ("%.4f"):format(seconds or 0) }, FS) .. RS)
end

-- Runs fn(...) in its own coroutine under the time limit, like a test.
local function run_limited(timeout, fn, ...)
  return run_watched({ fn = fn, args = table.pack(...), loading = true }, timeout)
end

-- Loads a spec file and runs what it declared, handing out one record per
-- test as it ends (status passed, failed or skipped; full name; message;
-- seconds), a "start" record before each, and "done" at the end. Loading
-- the file and its describe blocks is bounded by the same time limit.
function lunette_spec_run(path, options)
  local filter, timeout = options.filter, options.timeout or 10
  settings.failOnWarnings = options.failOnWarnings
  local chunk, err = load_spec(path)
  if not chunk then
    record("failed", "loading " .. path, err)
    return record("done", path)
  end
  record("start", "loading " .. path)
  local ok, loadErr = run_limited(timeout, chunk)
  if ok then loadErr = unexpected_problems(); ok = loadErr == nil end
  if not ok then
    record("failed", "loading " .. path, loadErr)
    return record("done", path)
  end
  local function walk(block)
    for _, child in ipairs(block.children) do
      if child.children then
        walk(child)
      else
        local name = full_name(child)
        if filter == nil or filter == "" or name:find(filter, 1, true) then
          if child.pending then
            record("skipped", name, "pending")
          else
            record("start", name)
            child.fullName = name
            expected = {}
            reset_ui()                            -- each test starts afresh: no apps, effects, tasks or timers
            take_problems()                       -- what came before belongs to no test
            local started = os.clock()
            local good, message = run_watched(child, timeout)
            record(good and "passed" or "failed", name, not good and message_of(message) or nil, os.clock() - started)
          end
        end
      end
    end
  end
  walk(root)
  record("done", path)
end
