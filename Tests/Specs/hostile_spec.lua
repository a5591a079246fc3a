-- Hostile values (R11, R16): every Lunette metamethod called with wrong
-- selves, forged objects, deep and cyclic values. Each case must end in a
-- clean Lua error or a value; a crash takes the whole run down with it.
local ui = require("lunette")

local Book = ui.Observable("HostileBook", { title = "t", tags = function() return { "a" } end })
local Old = ui.ObservableObject("HostileOld", { n = ui.Published(1) })
local captured = {}
local Probe = ui.View("Probe", { state = { on = false }, environment = { dismiss = "dismiss" }, body = function(self)
  captured.self, captured.dismiss = self, self.dismiss
  return ui.Text(tostring(self.on)):transaction(function(t) captured.transaction = t end)
end })

-- One value of every kind Lunette hands to scripts.
local function samples()
  local book, old = Book(), Old()
  local app = ui.mount(ui.VStack { Probe {}, ui.Button("b", function() end) })
  local s = {
    book = book, old = old, class = Book, proxy = book.tags,
    view = ui.Text("x"), viewtype = Probe, app = app, node = app:find("b"),
    binding = ui.Binding.constant(1), bindable = ui.Bindable(book),
    subject = ui.Subject(), animation = ui.Animation.default,
    timer = ui.Timer.publish(1), marker = ui.computed(function() end),
    effect = ui.effect(function() end),
  }
  s.self, s.dismiss, s.transaction = captured.self, captured.dismiss, captured.transaction
  s.cancellable = s.subject:sink(function() end)
  s.autoconnected = s.timer:autoconnect()
  if ui.types and ui.types.Library then
    s.swift = ui.types.Library()
    s.swiftArray = s.swift.books
    s.swiftClass = ui.types.Library
  end
  return s, app
end

-- Every function reachable from a value's metatable (and its __index table).
local function metamethods(v)
  local found, mt = {}, debug.getmetatable(v)
  if type(mt) ~= "table" then return found end
  for k, f in pairs(mt) do
    if type(f) == "function" then found[#found + 1] = { tostring(k), f } end
  end
  if type(mt.__index) == "table" then
    for k, f in pairs(mt.__index) do
      if type(f) == "function" then found[#found + 1] = { "." .. tostring(k), f } end
    end
  end
  return found
end

local function deep(n)
  local t = {}
  local d = t
  for _ = 1, n do d.x = {}; d = d.x end
  return t
end

describe("R16 hostile selves", function()
  it("R16 every metamethod of every Lunette type called with every wrong self errors cleanly", function()
    local s, app = samples()
    local wrong = { {}, 1, "s", true, function() end, coroutine.create(function() end), io and io.stdout or {} }
    for _, v in pairs(s) do wrong[#wrong + 1] = v end
    local calls = 0
    local trace = os.getenv and os.getenv("HOSTILE_TRACE")  -- names each call before it, to find a crashing pair
    for name, v in pairs(s) do
      for _, entry in ipairs(metamethods(v)) do
        for wi, self in ipairs(wrong) do
          if trace then io.stderr:write(name, " ", entry[1], " ", wi, "\n"); io.stderr:flush() end
          pcall(entry[2], self, "title", 1)
          pcall(entry[2], self)
          calls = calls + 2
        end
      end
    end
    assert.truthy(calls > 500)
    app:unmount()
  end)

  it("R16 every function of the ui module called with hostile arguments errors cleanly", function()
    local s, app = samples()
    local values = table.pack(nil, {}, 1, -1, 0 / 0, "s", true, function() error("x") end, deep(300), s.book, s.view,
                              s.binding, s.app, s.viewtype, setmetatable({}, { __index = function() error("evil") end }))
    local skip = { mount = true, flush = true, reset = true }  -- mounting hostile trees is the walker's test above
    local calls = 0
    local function sweep(t, depth)
      for name, f in pairs(t) do
        if type(f) == "function" and not skip[name] then
          for i = 1, values.n + 1 do
            for j = 1, values.n + 1, 3 do
              pcall(f, values[i], values[j])
              calls = calls + 1
            end
          end
        elseif type(f) == "table" and depth < 2 and name ~= "types" then
          sweep(f, depth + 1)
        end
      end
    end
    sweep(ui, 0)
    assert.truthy(calls > 1000)
    ui.clock.advance(0)
    app:unmount()
    ui.trace(false)                               -- ui.trace(true, …) was among the calls (busted runs every file in one state)
  end)

  it("R16 getmetatable answers a name and setmetatable cannot reuse or change a Lunette metatable", function()
    local s = samples()
    for name, v in pairs(s) do
      if type(v) ~= "function" then assert.equal("string", type(getmetatable(v)), name) end
    end
    assert.equal("HostileBook", getmetatable(Book()))
    assert.has_error(function() setmetatable(ui.Text("x"), {}) end)
  end)

  it("R16 a Binding or a table cannot pass for a model or a Swift object", function()
    local fake = setmetatable({}, { __index = function() return 1 end })
    assert.has_error(function() ui.Bindable(ui.Binding.constant(1)) end)
    assert.has_error(function() ui.Bindable(fake) end)
    assert.has_error(function() ui.id(fake) end)
    assert.has_error(function() ui.id(ui.Binding.constant(1)) end)
  end)

  it("R16 a view value whose fields were altered with rawset is an error node, not a crash #errors", function()
    for _, field in ipairs { "kind", "mods", "env", "attrs", "type", "inputs", "binding", "sheet", "action" } do
      for _, bad in ipairs { 999, "x", { {} }, { [{}] = 1 }, false } do
        local v = ui.Text("x"):padding()
        local c = Probe {}
        local t = ui.Toggle("t", ui.Binding.constant(true))
        rawset(v, field, bad); rawset(c, field, bad); rawset(t, field, bad)
        local ok = pcall(function()
          local app = ui.mount(ui.VStack { v, c, t })
          app:tree()
          app:unmount()
        end)
        assert.truthy(ok ~= nil)
      end
    end
  end)

  -- A control's spec is a plain table a script reaches with rawget; the
  -- walk read an altered Stepper's range as a table and crashed the
  -- process (a hostile read of this session's unbounded Stepper).
  it("R16 a Slider's or a Stepper's range altered through its control spec is shown, not a crash #errors", function()
    for _, bad in ipairs { false, 12345, "wide", { {} }, { "a", "b" } } do
      for _, control in ipairs { ui.Stepper("n", ui.Binding.constant(1)), ui.Slider(ui.Binding.constant(0.5)) } do
        rawget(control, "control").range = bad
        local ok = pcall(function()
          local app = ui.mount(control)
          app:tree()
          app:unmount()
        end)
        assert.truthy(ok ~= nil)
      end
      local s = ui.Stepper("n", ui.Binding.constant(1))
      rawget(s, "control").range = nil
      local app = ui.mount(s)
      assert.truthy(app:tree():find('Stepper "n"', 1, true))
      app:unmount()
    end
  end)
end)

-- The debug library can put any value in a user value (debug.setuservalue;
-- `lunette run` without --sandbox and busted have it). An instance's
-- property slots take any value anyway; its objectWillChange slot must
-- hold its subject, and a write that would send to something else is an
-- error naming the object (session 13's hostile read: a segfault).
describe("R16 an instance's user values replaced through debug", function()
  it("R16 a Published write after objectWillChange's slot was replaced is an error, not a crash", function()
    if not (debug and debug.setuservalue) then return end   -- the sandbox has no debug.setuservalue
    local Replaced = ui.ObservableObject("DebugReplaced", { n = ui.Published(1), note = "x" })
    local o = Replaced()
    local _ = o.objectWillChange                  -- made: its slot is the one after the two properties
    debug.setuservalue(o, 42, 3)
    assert.error_matches(function() o.n = 2 end, "the objectWillChange of DebugReplaced#%d+ is not its subject any more")
    assert.error_matches(function() return o.objectWillChange end, "is not its subject any more")
    debug.setuservalue(o, "anything", 1)          -- a property's slot: any value is a value
    assert.equal("anything", o.n)
  end)
end)

describe("R11 deep and cyclic values #errors", function()   -- #errors: error nodes are what they test
  it("R11 a table default nested 10 deep is copied", function()
    local t, d = {}, nil
    d = t
    for _ = 1, 10 do d.x = {}; d = d.x end
    d.leaf = "ok"
    local M = ui.Observable("Deep10", { v = t })
    local m = M()
    assert.equal("ok", m.v.x.x.x.x.x.x.x.x.x.x.leaf)
  end)

  it("R11 a default nested past the limit fails naming the model and property", function()
    local t, d = {}, nil
    d = t
    for _ = 1, 100000 do d.x = {}; d = d.x end
    local M = ui.Observable("Deep100k", { v = t })
    local ok, err = pcall(M)
    assert.is_false(ok)
    assert.matches("Deep100k.v: nested more than %d+ levels deep", tostring(err))
  end)

  it("R11 a cyclic default or state initial fails naming where it is", function()
    local t = { a = {} }
    t.a.back = t
    local M = ui.Observable("Cyclic", { v = t })
    local ok, err = pcall(M)
    assert.is_false(ok)
    assert.matches("Cyclic.v: the table contains itself", tostring(err))
    local V = ui.View("CyclicState", { state = { s = t }, body = function(self) return ui.Text("x") end })
    local app = ui.mount(V {})
    assert.matches("CyclicState.state.s: the table contains itself", app:tree())
    app:unmount()
  end)

  it("R11 a shared (not cyclic) table in a default is copied", function()
    local shared = { 1 }
    local M = ui.Observable("Shared", { v = { a = shared, b = shared } })
    assert.equal(1, M().v.b[1])
  end)

  it("R11 a 40-deep static stack renders; a 300-deep one is an error node", function()
    local v = ui.Text("leaf")
    for _ = 1, 40 do v = ui.VStack { v } end
    local app = ui.mount(ui.View("Deep40", function() return v end)())
    assert.truthy(app:tree():find('Text "leaf"', 1, true))
    app:unmount()
    for _ = 1, 260 do v = ui.VStack { v } end
    app = ui.mount(ui.View("Deep300", function() return v end)())
    assert.matches("Error Deep300: .*view: nested more than %d+ levels deep", app:tree())
    app:unmount()
  end)

  it("R11 a children table that contains itself is an error naming the view", function()
    local t = {}
    t[1] = t
    local app = ui.mount(ui.View("CycleKids", function() return ui.VStack(t) end)())
    assert.matches("Error CycleKids: .*nested more than", app:tree())
    app:unmount()
  end)

  it("R11 a child index far past the end is refused, not iterated", function()
    local ok, err = pcall(ui.VStack, { [2 ^ 53] = ui.Text("x") })
    assert.is_false(ok)
    assert.matches("out of range", tostring(err))
  end)

  it("R11 a row id that is itself (id = self) is an error node", function()
    local t = {}
    t.id = t
    local app = ui.mount(ui.View("SelfId", function() return ui.ForEach({ t }, function() return ui.Text("r") end) end)())
    assert.matches("a row's id: nested more than", app:tree())
    app:unmount()
  end)

  it("R11 erroring __index, __eq and __tostring in inputs and rows are clean errors", function()
    local evil = setmetatable({}, {
      __index = function() error("evil index") end,
      __eq = function() error("evil eq") end,
      __tostring = function() error("evil tostring") end,
      __len = function() error("evil len") end,
    })
    local V = ui.View("EvilIn", function(self) return ui.Text(tostring(self.x)) end)
    local app = ui.mount(ui.VStack { V { x = evil }, ui.ForEach(evil, function() return ui.Text("r") end) })
    local tree = app:tree()
    assert.matches("evil", tree)
    app:unmount()
  end)
end)

describe("R1 errors in computed properties #errors", function()
  it("R1 F09 a computed that raises while its readers are checked is an error node naming it, and recovers", function()
    local M = ui.Observable("Flaky", { n = 1, c = ui.computed(function(self)
      if self.n == 2 then error("bad n") end
      return self.n * 10
    end) })
    local m = M()
    local app = ui.mount(ui.View("Reader", function() return ui.Text("c=" .. m.c) end)())
    assert.truthy(app:tree():find('Text "c=10"', 1, true))
    m.n = 2
    ui.flush()
    assert.matches("Error Reader: computed property 'c' of Flaky#%d+: .*hostile_spec.lua:%d+: bad n", app:tree())
    m.n = 3
    ui.flush()
    assert.truthy(app:tree():find('Text "c=30"', 1, true))
    app:unmount()
  end)

  it("R1 F09 a view reading a chain of computeds recovers when the bottom one stops raising", function()
    local M = ui.Observable("FlakyChain", {
      base = 1,
      c1 = ui.computed(function(self) if self.base == 99 then error("bad base") end return self.base + 1 end),
      c2 = ui.computed(function(self) return self.c1 + 1 end),
    })
    local m = M()
    local app = ui.mount(ui.View("ChainReader", function() return ui.Text("v " .. m.c2) end)())
    assert.truthy(app:tree():find('Text "v 3"', 1, true))
    m.base = 99
    ui.flush()
    assert.matches("Error ChainReader: computed property 'c1' of FlakyChain#%d+: .*bad base", app:tree())
    m.base = 5                                         -- a plain write (no transaction) reaches past c2
    ui.flush()
    assert.truthy(app:tree():find('Text "v 7"', 1, true), app:tree())
    assert.equal(7, m.c2)
    app:unmount()
  end)
  it("R1 F09 a reader that caught a raising computed with pcall sees it again when it recovers with its old value", function()
    -- a fifth hostile read (session 12): the reader's link kept the raiser's unchanged version, so
    -- a computed kept its fallback and a view showed it for good
    local m = ui.Observable("CaughtRaise", { bad = false, k = 1,
      c1 = ui.computed(function(self) if self.bad then error("boom") end return self.k end),
      caught = ui.computed(function(self)
        local ok, v = pcall(function() return self.c1 end)
        return ok and v or -1
      end),
    })()
    local app = ui.mount(ui.View("CaughtReader", function()
      local ok, v = pcall(function() return m.c1 end)
      return ui.Text(ok and ("c1 " .. v) or "fallback")
    end) {})
    assert.equal(1, m.caught)
    m.bad = true
    ui.flush()
    assert.truthy(app:find("fallback"))
    m.bad = false
    ui.flush()
    assert.truthy(app:find("c1 1"), app:tree())
    assert.equal(1, m.caught)
    app:unmount()
  end)

  it("R1 F09 a view recovers when the computed it read stops raising with the value it had before", function()
    -- a hostile read (session 12): the computed's version did not move, so its reader, an error
    -- node, was never run again
    local M = ui.Observable("FlakySame", { bad = false, k = 1, c = ui.computed(function(self)
      if self.bad then error("boom") end
      return self.k
    end) })
    local m = M()
    local app = ui.mount(ui.View("SameReader", function() return ui.Text("c " .. m.c) end)())
    m.bad = true
    ui.flush()
    assert.truthy(app:find { type = "Error" })
    m.bad = false
    ui.flush()
    assert.truthy(app:find("c 1"), app:tree())
    app:unmount()
  end)
end)

describe("R10 bad arguments", function()
  it("R10 messages name the position and the right argument", function()
    local cases = {
      { function() ui.Text() end, "bad argument #1 to 'Text' %(string expected, got nil%)" },
      { function() ui.View(42) end, "bad argument #1 to 'View' %(string %(the view's name%) expected, got number%)" },
      { function() ui.Text("x"):onReceive(5, function() end) end, "bad argument #1 to 'onReceive' %(a publisher" },
      { function() ui.configure { timeBudget = "x" } end, "timeBudget must be a number of seconds, got string" },
      { function() ui.configure { listWindow = 0 } end, "listWindow must be a positive integer" },
    }
    for _, case in ipairs(cases) do
      local ok, err = pcall(case[1])
      assert.is_false(ok)
      assert.matches("hostile_spec.lua:%d+: .-" .. case[2], tostring(err))
    end
    assert.equal("VStack", tostring(ui.VStack(nil)))
  end)
end)

-- A run that retries: the walk reads a chain of never-evaluated computeds
-- deeper than C nests them (32), so the read unwinds and the unit's run
-- starts again (README, "Deep computed chains"). The second try must be
-- the only one that counts: nothing the first one began carries over.
describe("R18 R19 a run that retries", function()
  local Cell = ui.Observable("RetryCell", {
    prev = ui.ignored(false), base = 0,
    value = ui.computed(function(self) return self.prev and self.prev.value + 1 or self.base end),
  })
  local Holder = ui.Observable("RetryHolder", { last = ui.none, tick = 0 })
  local function chain(n) local c = Cell() for _ = 1, n do c = Cell { prev = c } end return c end

  it("R18 starts its walk afresh: a :disabled around one view does not reach its sibling", function()
    local h = Holder { last = chain(100) }
    local taps = 0
    local V = ui.View("RetryDisabled", { state = { shown = true }, body = function(self)
      local last = h.last
      return ui.VStack {
        ui.VStack { ui.Text("locked") }:disabled(true)
          :sheet(self["$shown"], function() return ui.Text(tostring(last.value)) end),   -- read by the walk
        ui.Button("Go", function() taps = taps + 1 end),
      }
    end })
    local app = ui.mount(V {})
    assert.is_truthy(app:find("100"))
    app:find("Go"):tap()
    assert.equal(1, taps)
    app:unmount()
  end)

  it("R19 keeps the child units the first try made: each appears once and disappears once", function()
    local h = Holder { last = chain(100) }
    local runs, appears, disappears = 0, 0, 0
    local Child = ui.View("RetryChild", function(self)
      runs = runs + 1
      local _ = h.tick
      return ui.Text("child"):onAppear(function() appears = appears + 1 end)
        :onDisappear(function() disappears = disappears + 1 end)
    end)
    local V = ui.View("RetryParent", { state = { shown = true }, body = function(self)
      local last = h.last
      return ui.VStack { Child {}:id(tostring(last)) }
        :sheet(self["$shown"], function() return ui.Text(tostring(last.value)) end)
    end })
    local app = ui.mount(V {})
    for _ = 1, 3 do h.last = chain(100); ui.flush() end
    local before = runs
    h.tick = h.tick + 1
    ui.flush()
    assert.equal(1, runs - before)                 -- one child, not one per retried try
    assert.equal(appears - 1, disappears)          -- every child but the shown one went
    app:unmount()
    ui.flush()
    assert.equal(appears, disappears)
  end)
end)

-- Session 7's hostile read: C loops a script could make endless (no budget
-- check inside them) and markers a storage section took for ui.AppStorage.
describe("R11 R16 loops over shared and crafted values end", function()
  local function shared(n)                         -- n levels, each table twice: 2^n paths, n + 1 tables
    local x = {}
    for _ = 1, n do x = { x, x } end
    return x
  end

  -- Mounts the view and taps its "store" Button, whose action is refused
  -- within 1.5 s; returns the error (the app unmounted).
  local function storeRefused(view)
    local app = ui.mount(view)
    local started = os.clock()
    local ok, err = pcall(function() app:find("store"):tap() end)
    assert.is_false(ok)
    assert.is_true(os.clock() - started < 1.5)
    app:unmount()
    return err
  end

  -- Mounts the view, which the budget stops: an error node saying so,
  -- within `within` seconds if given.
  local function stoppedByBudget(view, within)
    local started = os.clock()
    local app = ui.mount(view)
    assert.has_error_node(app, "ran longer than its time budget")
    if within then assert.is_true(os.clock() - started < within) end
    app:unmount()
  end

  it("R16 a storage value that shares one table along many paths is checked once per table", function()
    local value = shared(40)
    local marker = ui.AppStorage("hostile.shared", value)   -- hung: the check walked 2^40 paths
    assert.is_truthy(marker)
    assert.has_no.errors(function()
      ui.View("SharedStored", { appStorage = { big = value }, body = function() return ui.EmptyView() end })
    end)
  end)

  -- A copy is a value (F04): its paths are independent, so a table shared
  -- along 2^n paths is copied 2^n times — in C, where the budget cannot
  -- stop it (22 levels: 1.7 s and 750 MB past a 0.1 s budget). Past a
  -- million entries the copy (state, a model's property, an onChange
  -- snapshot, a task id) is refused; so is an id past 4096.
  it("R11 R15 a copy or an id of a value shared along millions of paths is refused, naming it", function()
    local value = shared(22)
    local Holder = ui.View("SharedHolder", { state = { s = 0 }, body = function(self)
      return ui.Button("store", function() self.s = value end)
    end })
    assert.matches("hostile_spec.lua:%d+: SharedHolder.state.s: the value has more than 1000000 entries along its paths",
      storeRefused(Holder {}))
    assert.error_matches(function() ui.Text("x"):task(function() end, { id = value }) end, "task id: the value has more than 1000000 entries")
    local keyed = ui.mount(ui.VStack { ui.Text("x"):id(value) })
    assert.has_error_node(keyed, "an id holds more than 4096 entries along its paths")
    assert.has_error_node(keyed, "hostile_spec.lua:")
    keyed:unmount()
    assert.truthy(ui.mount(ui.VStack { ui.Text("y"):id(shared(8)) }):find("y"))   -- 510 entries: an id still
  end)

  -- A message naming a script's value held it whole (a 10 MB string given
  -- as a font made a 10 MB message, twice over with a suggestion): cut.
  it("R19 a message naming a huge value is cut, saying how long it was", function()
    local ok, err = pcall(function() return ui.Text("x"):font(("x"):rep(4 * 1024 * 1024)) end)
    assert.is_false(ok)
    assert.is_true(#err <= 2100, #err)
    assert.matches("hostile_spec.lua:%d+: view:font: its value is a font's text style", err)
    assert.matches("… %(a message of %d+ bytes, cut%)$", err)
  end)

  -- A Picker's tags are told apart by their class's __name: read through
  -- an __index a script set on a metatable, one name was collected while
  -- the other was read (a use after free: signal 11). It is read raw now.
  it("R16 a Picker's tag whose class name comes from a metamethod is compared safely", function()
    if not io or not io.tmpfile then return end   -- the sandbox has no io: nothing to set it on
    local a, b = io.tmpfile(), io.tmpfile()
    local mt = getmetatable(a)
    local name = rawget(mt, "__name")
    mt.__name = nil
    setmetatable(mt, { __index = function(_, k) if k == "__name" then collectgarbage(); return ("N"):rep(1 << 20) end end })
    local ok, err = pcall(ui.Picker, "p", ui.Binding.constant(nil), { a, b })
    setmetatable(mt, nil)
    mt.__name = name
    a:close(); b:close()
    assert.is_true(ok, tostring(err))
  end)

  -- A table given to Swift becomes a Swift value, a tree: it was converted
  -- once per path, in C (22 levels of t = {t, t}: 3 s past a 2 s budget and
  -- 1 GB; 26 levels would have held the thread for minutes and 16 GB).
  -- Past a million entries the conversion is refused, for a property, an
  -- array's element and a method's arguments together.
  it("R11 R15 a table given to Swift shared along millions of paths is refused, naming it", function()
    local value = shared(22)
    local book = ui.types.Book()
    -- refused by its count of entries (the work is bounded by that count,
    -- not timed here: a timed bound failed on a loaded machine, and the
    -- time budget stops the spec anyway if the count were not kept)
    local ok, err = pcall(function() book.title = value end)
    assert.is_false(ok)
    assert.matches("hostile_spec.lua:%d+: a table given to Swift has more than 1000000 entries along its paths", err)
    local library = ui.types.Library()
    assert.error_matches(function() library:countTitled(shared(19), shared(19)) end, "more than 1000000 entries")
    assert.error_matches(function() library.books[1] = value end, "more than 1000000 entries")
    assert.error_matches(function() book.title = shared(8) end, "expected string, got list")   -- 510 entries: converted, then refused by type
    -- Swift copies every string: bounded in bytes too (256 entries of one 16 MB string were 4 GB, out of the cap's sight)
    local text = ("x"):rep(16 * 1024 * 1024)
    ok, err = pcall(function() book.title = { text, text, text, text, text } end)
    assert.is_false(ok)
    assert.matches("hostile_spec.lua:%d+: a value given to Swift holds more than 64 MiB of text", err)
  end)

  -- A row's id was its whole text, copied and hashed by Swift for every
  -- row of every run (50 rows of 8 MB ids: 10 s a flush; 40 of 4 MB: 4 s): a long one is
  -- keyed by its length and a digest.
  it("R11 R15 rows with long string ids cost their digest, and a warning names the id's length", function()
    local long = ("x"):rep(4 * 1024 * 1024)
    local data = {}
    for i = 1, 40 do data[i] = { id = long } end   -- one id for all: a warning, and the same cost a row
    local started = os.clock()
    local app = ui.mount(ui.View("LongIds", function()
      return ui.VStack { ui.ForEach(data, function() return ui.Text("r") end) }
    end) {})
    assert.is_true(os.clock() - started < 2)
    assert.equal(40, #app:findAll { type = "Text" })
    assert.matches("the id of a 4194304%-byte string occurs more than once", table.concat(app:warnings(), "\n"))
    app:unmount()
  end)

  -- A view value shared along many paths is walked once per path, in C,
  -- where the budget's hook never fires (a hostile read: 40 children of 40
  -- children of one Text, 4 deep — 2.5 million nodes — took 8 s past a
  -- 0.5 s budget and 550 MB): the walk looks at the budget as it goes.
  it("R15 R18 a view value shared along millions of paths is stopped by the budget", function()
    ui.configure { timeBudget = 0.3 }
    local level = ui.Text("x")
    for _ = 1, 4 do
      local children = {}
      for i = 1, 40 do children[i] = level end
      level = ui.VStack(children)
    end
    local Wide = ui.View("SharedWide", function() return level end)
    stoppedByBudget(Wide {}, 2)
    local app = ui.mount(Wide {})                 -- the stop names the body whose view was walked
    assert.matches("hostile_spec.lua:%d+: %(walking the view it returned%) ran longer than its time budget", app:tree())
    app:unmount()
    -- strict mode compares two runs' trees first: that comparison looks at the budget too
    ui.configure { strict = true }
    local wider = {}
    for i = 1, 40 do wider[i] = level end          -- one level more: 100 million nodes compared
    local Wider = ui.View("SharedWider", function() return ui.VStack(wider) end)
    stoppedByBudget(Wider {}, 2)
    ui.configure { strict = false }
  end)

  -- Lua's patterns backtrack, and its matcher is C, where the budget's
  -- hook never fires: `.-` four times against 400 a's ran for minutes
  -- (a hostile read, under a host and `lunette run` alike). string.find,
  -- match, gmatch and gsub are Lunette's, whose matching looks at the
  -- budget; a pcall around it does not keep the stop from the run.
  it("R2 R15 a pattern match that backtracks is stopped by the budget, under both runners", function()
    ui.configure { timeBudget = 0.3 }
    local subject = ("a"):rep(400)
    local Matching = ui.View("Backtracking", function()
      return ui.Text(tostring(pcall(string.find, subject, ".-.-.-.-b")))
    end)
    stoppedByBudget(Matching {}, 2)
    local Gsub = ui.View("BacktrackingGsub", function() return ui.Text((subject:gsub("(.-)(.-)(.-)b", "x"))) end)
    stoppedByBudget(Gsub {})
    -- a long replacement copied at every match, a long needle compared at every candidate: counted too
    local Replacing = ui.View("LongReplacement", function()
      return ui.Text((("x"):rep(2 ^ 16):gsub("", ("%0"):rep(2 ^ 21))))
    end)
    stoppedByBudget(Replacing {}, 3)
    local needle = ("a"):rep(2 ^ 22) .. "b"
    local Finding = ui.View("LongNeedle", function()
      return ui.Text(tostring((("a"):rep(2 ^ 22 + 2 ^ 16)):find(needle, 1, true)))
    end)
    stoppedByBudget(Finding {}, 3)
    assert.equal("x1y2", ("x = 1, y = 2"):gsub("(%w+) = (%w+)", "%1%2"):gsub(", ", ""))   -- patterns as ever
    -- a capture in a replacement is its bytes, whatever strings' __tostring says (as Lua's)
    local strings = getmetatable("")
    strings.__tostring = function() error("not called") end
    local replaced = ("abc"):gsub("(b)", "[%1]")
    strings.__tostring = nil
    assert.equal("a[b]c", replaced)
  end)

  it("R11 a crafted border on a view's modifier list is an error, not an endless loop", function()
    local mods = { true, true, true, true }
    for k = 52, 4, -1 do mods[1 << k] = true end
    mods[8], mods[5] = true, true                   -- rawlen(mods) == 2^52
    local option = ui.Text("a")
    rawset(option, "mods", mods)
    local ok, err = pcall(ui.Picker, "P", ui.Binding.constant(1), { option })
    assert.is_false(ok)
    assert.matches("modifier list has %d+ entries %(at most 1000000%)", tostring(err))
  end)

  it("R11 a crafted border on a stack's children ends the walk with an error node #errors", function()
    local stack = ui.VStack { ui.Text("1"), ui.Text("2"), ui.Text("3"), ui.Text("4") }
    for k = 52, 4, -1 do rawset(stack, 1 << k, ui.Text("x")) end
    rawset(stack, 8, ui.Text("8")); rawset(stack, 5, ui.Text("5"))
    local app = ui.mount(ui.View("CraftedChildren", function() return stack end) {})
    assert.matches("children has %d+ entries %(at most 1000000%)", app:tree())
    app:unmount()
  end)

  -- A hostile read of what a walk does per node: the walk looked at the
  -- budget every 4096 nodes, but the work each node costs is the script's
  -- to size, and a few hundred nodes ran for tens of seconds unchecked.
  describe("R11 R15 what a walk does for each node counts against the budget", function()
    it("keys a script put on a view value (4 s for 400 nodes)", function()
      ui.configure { timeBudget = 0.3 }
      local t = ui.Text("x")
      for i = 1, 1000000 do rawset(t, i, true) end
      local kids = {}
      for i = 1, 400 do kids[i] = t end
      stoppedByBudget(ui.View("ManyKeys", function() return ui.VStack(kids) end) {}, 2)
    end)

    it("environment values set on one view, each compared with those before it (3 s for 20,000)", function()
      ui.configure { timeBudget = 0.3 }
      local v = ui.Text("x")
      for i = 1, 20000 do
        ui.EnvironmentKey("hostileKey" .. i, 0)
        v = v:environment("hostileKey" .. i, i)
      end
      stoppedByBudget(ui.View("ManyEnvironment", function() return v end) {}, 2)
    end)

    it("a value compared with the last render's at every node (6 s for 200 nodes)", function()
      ui.configure { timeBudget = 0.3 }
      local value = {}
      for i = 1, 300000 do value[i] = i end
      local node = ui.Text("x"):animation(ui.Animation.linear(1), value)
      local kids = {}
      for i = 1, 200 do kids[i] = node end
      local tick = ui.Observable("HostileTick", { n = 0 })()
      local app = ui.mount(ui.View("AnimatedMany", function() local _ = tick.n; return ui.VStack(kids) end) {})
      local started = os.clock()
      tick.n = 1
      ui.flush()
      assert.has_error_node(app, "ran longer than its time budget")
      assert.is_true(os.clock() - started < 2)
      app:unmount()
    end)

    it("a kept view's inputs compared by contents (a billion entries for three of a thousand)", function()
      local function cube()
        local b, a, x = {}, {}, {}
        for i = 1, 1000 do b[i] = 1 end
        for i = 1, 1000 do a[i] = b end
        for i = 1, 1000 do x[i] = a end
        return x
      end
      local tick = ui.Observable("HostileInputsTick", { n = 0 })()
      local Child = ui.View("HostileCubeChild", { inputs = { "data" }, body = function() return ui.Text("child") end })
      local app = ui.mount(ui.View("HostileCubeParent", function()
        return ui.VStack { ui.Text("n " .. tick.n), Child { data = cube() } }
      end) {})
      local before = app:renders("HostileCubeChild")
      local started = os.clock()
      tick.n = 1
      ui.flush()
      assert.is_true(os.clock() - started < 1)
      assert.truthy(app:find("n 1"))
      -- past 65,536 entries the inputs count as changed: the child runs again
      assert.equal(before + 1, app:renders("HostileCubeChild"))
      app:unmount()
    end)

    it("a tag's description walks no more of a long list than it shows (3 s for 300 nodes)", function()
      local big = {}
      for i = 1, 1000000 do big[i] = true end
      local node = ui.Text("x"):tag(big)
      local kids = {}
      for i = 1, 300 do kids[i] = node end
      local started = os.clock()
      local app = ui.mount(ui.View("TaggedMany", function() return ui.VStack(kids) end) {})
      assert.is_true(os.clock() - started < 1)
      assert.matches("%.tag%({true, true, true, true, true, true, true, true, %.%.%.}%)", app:tree())
      app:unmount()
    end)
  end)

  it("R11 R15 nested lists of children shared along millions of paths are refused, naming them", function()
    local a = { ui.Text("x") }
    for _ = 1, 23 do a = { a, a } end             -- 8 million children: 13 s, 1.2 GB
    local started = os.clock()
    local ok, err = pcall(function() return ui.VStack(a) end)
    assert.is_false(ok)
    assert.matches("hostile_spec.lua:%d+: the children of a view: more than 1000000 entries along their paths", err)
    assert.is_true(os.clock() - started < 1.5)
  end)

  -- A table written into a model's table was kept as it was, shared with
  -- the caller, so a value shared along millions of paths reached app
  -- storage's encoder, which wrote it once per path (26 levels: 821 MB).
  it("R11 R15 a table written into a stored table is copied, within a million entries", function()
    local Stored = ui.View("HostileStoredShared", { appStorage = { big = ui.AppStorage("hostile.big", { 0 }) },
      body = function(self) return ui.Button("store", function() self.big[1] = shared(22) end) end })
    assert.matches("a value stored in a model's table: the value has more than 1000000 entries", storeRefused(Stored {}))
  end)

  it("R16 a storage section takes a default or ui.AppStorage, not another marker", function()
    for _, marker in ipairs({ ui.ignored({ key = {}, default = 1 }), ui.none, ui.computed(function() end) }) do
      local ok, err = pcall(ui.View, "WrongMarker", { appStorage = { b = marker }, body = function() return ui.EmptyView() end })
      assert.is_false(ok)
      assert.matches("appStorage 'b' takes a default value or ui.AppStorage%(key, default%), not a ui.computed", tostring(err))
    end
    local ok, err = pcall(ui.View, "WrongScene", { sceneStorage = { tab = ui.ignored(1) }, body = function() return ui.EmptyView() end })
    assert.is_false(ok)
    assert.matches("sceneStorage 'tab' takes a default value, not a", tostring(err))
  end)
end)

-- A sheet or an alert stands under the Button it was attached to, but its content is no part
-- of the Button's label (https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:):
-- "Presents a sheet when a binding to a Boolean value that you provide is true"; a Button's
-- label is its label view only, https://developer.apple.com/documentation/swiftui/button/init(action:label:)).
-- The hostile read of session 8 found that a tap on a sheet's text ran the presenting Button.
describe("A tap inside a presentation", function()
  local function app()
    local Root = ui.View("PresentingRoot", { state = { shown = false, alerted = false, taps = 0 }, body = function(self)
      return ui.VStack {
        ui.Button("Open", function() self.taps = self.taps + 1; self.shown = true end)
          :sheet(self["$shown"], function() return ui.VStack { ui.Text("Inside sheet") } end),
        ui.Button("Ask", function() self.taps = self.taps + 100; self.alerted = true end)
          :alert("Alerted", self["$alerted"], { ui.Button("OK", function() end) }),
        ui.Text("taps " .. self.taps),
      }
    end })
    return ui.mount(Root {})
  end

  it("does not reach the Button that presented the sheet or the alert", function()
    local a = app()
    a:find("Open"):tap()
    a:find("Ask"):tap()
    assert.is_not_nil(a:find("taps 101"))
    assert.has_error(function() a:find("Inside sheet"):tap() end)
    assert.has_error(function() a:find("Alerted"):tap() end)
    assert.is_not_nil(a:find("taps 101"))
    a:find("OK"):tap()                                -- the alert's own button still acts
    a:unmount()
  end)
end)

-- The runtime sorts a definition's names in C: a script's own table.sort
-- (here one that duplicates a name) changes nothing Lunette defines.
describe("R16 the runtime's sorting is its own", function()
  it("R16 a replaced table.sort changes neither a model's properties nor their order", function()
    local sort = table.sort
    table.sort = function(t) t[1] = t[#t] end       -- luacheck: ignore 122
    local ok, P = pcall(ui.Observable, "SortedByC", { x = 1, y = "two", z = true })
    table.sort = sort                                 -- luacheck: ignore 122
    assert.is_true(ok, tostring(P))
    local p = P()
    assert.are.same({ 1, "two", true }, { p.x, p.y, p.z })
    assert.are.equal("SortedByC#" .. tostring(p):match("#(%d+)") .. ' {x=1, y="two", z=true}', tostring(p))
  end)

  -- The runtime's Lua (its prelude: navigation, observations, ForEach) calls
  -- the functions it saw when it loaded, not the script's globals.
  it("R16 a replaced pairs does not change what a NavigationStack shows", function()
    local Shelf = ui.View("HostileShelf", { body = function()
      return ui.NavigationStack {
        ui.VStack { ui.NavigationLink("Open", "Dune") }
          :navigationDestination("string", function(title) return ui.Text("book " .. title) end),
      }
    end })
    local saved = pairs
    pairs = function() return function() return nil end end   -- luacheck: ignore 121
    local ok, found = pcall(function()
      local app = ui.mount(Shelf {})
      app:find("Open"):tapLink()
      local shown = app:find("book Dune") ~= nil
      app:unmount()
      return shown
    end)
    pairs = saved                                               -- luacheck: ignore 121
    assert.is_true(ok, tostring(found))
    assert.is_true(found)
  end)
end)

-- Found by the hostile read of session 10. A body that raises ends the life
-- of the views its last output held (R1); a script's publisher may make
-- that end run its own code (`cancel`), which is protected and budgeted as
-- any other entry into Lua: its error is reported, the flush goes on, the
-- failing view shows its error node and its siblings render.
describe("R1 R15 a failing body's ending views", function()
  it("R1 R15 a subscription whose cancel raises does not stop the flush #errors", function()
    local M = ui.Observable("GoneM", { x = 1 })
    local m = M()
    local pub = { sink = function() return setmetatable({}, { __index = { cancel = function()
      if m.x == 2 then error("cancel raised") end            -- while the body fails; unmounting later is quiet
    end } }) end }
    local V = ui.View("GoneV", function()
      if m.x == 2 then error("body failed") end
      return ui.Text("V " .. m.x):onReceive(pub, function() end)
    end)
    local B = ui.View("GoneB", function() return ui.Text("B " .. m.x) end)
    local app = ui.mount(ui.View("GoneRoot", function() return ui.VStack { V {}, B {} } end) {})
    m.x = 2
    assert.is_true(pcall(ui.flush))
    assert.truthy(app:tree():find("body failed", 1, true))
    assert.truthy(app:find("B 2"))
    m.x = 3
    ui.flush()
    assert.truthy(app:find("V 3"))
    assert.truthy(app:find("B 3"))
    app:unmount()
  end)
end)

-- A hostile read (session 24): a body the budget stopped named the first
-- line of a <close> handler as where it ran too long, not its loop's line:
-- the stop raises again in every handler unwinding the run (a handler is
-- script code past the budget, and might loop), and Lua keeps the last.
describe("R15 a stopped run's <close> handlers", function()
  it("R15 the stop is named where it fell, not where a closing handler began; the handler does not run", function()
    ui.configure { timeBudget = 0.05 }
    local closed = false
    local function guard()
      return setmetatable({}, { __close = function()
        closed = true
      end })
    end
    local loop
    local Spinner = ui.View("ClosingSpinner", function()
      local g <close> = guard()
      loop = debug.getinfo(1, "l").currentline + 1
      while true do end
    end)
    local app = ui.mount(Spinner())
    assert.has_error_node(app, "ran longer than its time budget")
    assert.equal(loop, tonumber(app:tree():match("hostile_spec.lua:(%d+): ran longer")), app:tree())
    assert.is_false(closed)
    app:unmount()
  end)
end)

-- A hostile read (session 24): a callable table checked when it was given
-- as a Button's action, whose __call went since, failed the tap with
-- "attempt to call a table value", naming no line.
describe("A callback that stops being callable", function()
  it("a tap whose callable table lost its __call names the tap's line and what __call is", function()
    local mt = { __call = function() end }
    local action = setmetatable({}, mt)
    local app = ui.mount(ui.Button("go", action))
    mt.__call = nil
    local ok, err = pcall(function() app:find("go"):tap() end)
    assert.is_false(ok)
    assert.matches("hostile_spec.lua:%d+: a callable table given as a callback can no longer be called: its __call is nil now", err)
    app:unmount()
  end)
end)
