-- The test runner's own API, as a spec author sees it (runs under busted too).
local ui = require("lunette")
describe("spy", function()
  it("records calls and passes them through", function()
    local s = spy.new(function(x) return x * 2 end)
    assert.equal(4, s(2))
    s(3)
    assert.spy(s).was.called(2)
    assert.spy(s).was.called_with(3)
  end)

  it("spies on a table's function and puts it back", function()
    local calc = { add = function(a, b) return a + b end }
    local original = calc.add
    local s = spy.on(calc, "add")
    assert.equal(5, calc.add(2, 3))
    assert.spy(s).was.called_with(2, 3)
    s:revert()
    assert.equal(original, calc.add)
  end)

  it("can be cleared and checked for no calls", function()
    local s = spy.new(function() end)
    s()
    s:clear()
    assert.spy(s).was_not.called()
  end)
end)

describe("assertions", function()
  it("compare values and contents", function()
    assert.equal(1, 1)
    assert.are.equal("a", "a")
    assert.same({ 1, { x = 2 } }, { 1, { x = 2 } })
    assert.are_not.equal(1, 2)
    assert.is_true(true)
    assert.is_false(false)
    assert.is_nil(nil)
    assert.truthy(0)
    assert.falsy(nil)
    assert.matches("^h.l+o$", "hello")
  end)

  it("check errors exactly (without the position) or by pattern", function()
    assert.has_error(function() error("boom") end, "boom")
    assert.has_error(function() error({ code = 1 }) end)
    assert.error_matches(function() error("a long message") end, "long")
    -- luassert strips the "file:line: " of a string error before matching: both runners do
    assert.error_matches(function() error("boom") end, "^boom$")
    -- an error with no text (a table without __tostring, nil) matches nothing, as in luassert
    assert.is_false(pcall(function() assert.error_matches(function() error({}) end, "table") end))
  end)
end)

-- Issue 10: the two runners agree: each test starts afresh (ui.reset()
-- between tests, under lunette test and under busted alike).
describe("Isolation between tests", function()
  local fired = 0
  it("test 1 leaves a mounted app with a running timer behind", function()
    ui.mount(ui.Text("left behind"):onReceive(ui.Timer.publish(1):autoconnect(), function() fired = fired + 1 end))
    ui.clock.advance(1)
    assert.equal(1, fired)
  end)
  it("test 2 starts afresh: the clock is back at 0 and test 1's timer never fires", function()
    assert.equal(0, ui.clock.now())
    ui.clock.advance(5)
    assert.equal(1, fired)
  end)
  it("ui.reset() unmounts apps and cancels tasks, whose cleanup runs", function()
    local log = {}
    local app = ui.mount(ui.Text("x"):task(function()
      local ok = pcall(ui.sleep, 100)
      log[#log + 1] = ok and "slept" or "cancelled"
    end))
    ui.clock.advance(0)
    ui.reset()
    assert.same({ "cancelled" }, log)
    assert.error_matches(function() app:tree() end, "the app is unmounted")   -- as after app:unmount() (session 24)
    assert.error_matches(function() app:find("x") end, "the app is unmounted")
    app:unmount()                                       -- again: nothing to do
    local button = ui.mount(ui.Button("go", function() end)):find("go")
    ui.reset()
    ui.mount(ui.Button("go", function() end))
    assert.error_matches(function() button:tap() end, "tap: the node was found before ui.reset(), which unmounted its app", 1, true)
  end)
  -- A hostile read (session 24): what ui.configure and ui.trace set stayed
  -- in force for the tests after: a budget one test lowered failed a later
  -- test's body, a list window of one hid its rows.
  -- A hostile read (session 24): a ui.reset() in a task's step during
  -- ui.clock.advance(10) let the advance go on over the fresh clock: it
  -- ended at 10, and a task started after the reset woke within it.
  it("a ui.reset() during ui.clock.advance ends the advance: the fresh clock stays at 0", function()
    local log = {}
    ui.mount(ui.Text("resets"):task(function()
      ui.sleep(1)
      ui.reset()
    end))
    ui.clock.advance(10)
    assert.equal(0, ui.clock.now())
    ui.mount(ui.Text("after"):task(function()
      ui.sleep(1)
      log[#log + 1] = "woke at " .. ui.clock.now()
    end))
    ui.clock.advance(0)
    assert.same({}, log)
    ui.clock.advance(1)
    assert.same({ "woke at 1.0" }, log)
  end)
  it("test 4 lowers the budget and the list window and turns tracing on", function()
    ui.configure { timeBudget = 0.02, listWindow = 1 }
    ui.trace(true)
  end)
  it("test 5 starts with the runtime's settings again", function()
    local Counter = ui.Observable("IsolationCounter", { n = 0 })
    local counter = Counter()
    local app = ui.mount(ui.View("IsolationSlow", function()
      local t = os.clock()
      while os.clock() - t < 0.05 do end
      return ui.List({ counter.n, 2, 3 }, function(x) return ui.Text("row " .. x) end)
    end)())
    assert.equal('IsolationSlow\n  List\n    Text "row 0"\n    Text "row 2"\n    Text "row 3"\n', app:tree())
    counter.n = 1
    ui.flush()
    assert.same({}, app:trace())
  end)
end)

-- Issue 10: inspecting what rendered, per instance.
describe("Inspecting", function()
  local Book = ui.Observable("RunnerBook", { title = "t" })
  local BookView = ui.View("RunnerBookView", function(self) return ui.Text(self.book.title) end)

  it("app:renders counts per type and per instance, and resetRenders starts again", function()
    local a, b = Book { title = "a" }, Book { title = "b" }
    local app = ui.mount(ui.VStack { BookView { book = a }, BookView { book = b } })
    assert.equal(2, app:renders("RunnerBookView"))
    local first = tostring(app:find { type = "RunnerBookView" }):match("RunnerBookView#%d+") or ""
    app:resetRenders()
    assert.equal(0, app:renders("RunnerBookView"))
    b.title = "b2"
    ui.flush()
    assert.equal(1, app:renders("RunnerBookView"))
    local views = app:findAll { type = "RunnerBookView" }
    assert.equal(2, #views)
    local counts = {}
    for i = 1, 20 do counts[#counts + 1] = app:renders("RunnerBookView#" .. i) end
    table.sort(counts, function(x, y) return x > y end)
    assert.same({ 1, 0 }, { counts[1], counts[2] })
    app:unmount()
  end)

  it("app:find matches by :id, and by type and text together", function()
    local app = ui.mount(ui.VStack {
      ui.Button("Go", function() end):id("first"),
      ui.Button("Go", function() end):id("second"),
      ui.Text("Go"),
    })
    assert.equal("Button", app:find { id = "second" }.type)
    assert.is_nil(app:find { id = "third" })
    assert.equal("Text", app:find { type = "Text", text = "Go" }.type)
    assert.equal(2, #app:findAll { type = "Button", text = "Go" })
    app:unmount()
  end)
end)

-- Issue 10: the rest of busted's API a view spec uses (runs under busted too).
describe("busted's API", function()
  local log = {}
  lazy_setup(function() log[#log + 1] = "setup" end)

  it("lazy_setup ran once, before the first test", function()
    assert.same({ "setup" }, log)
  end)

  it("checks types, nearness and uniqueness; negations read as English", function()
    assert.near(1.0, 1.05, 0.1)
    assert.is_not.near(1.0, 2, 0.1)
    assert.is_string("x"); assert.is_number(1); assert.is_table({}); assert.is_function(print); assert.is_boolean(false)
    assert.is_not_string(1)
    assert.unique({ 1, 2, 3 })
    assert.has_no.errors(function() end)
    assert.has_error(function() assert.unique({ 1, 1 }) end)
    assert.has_error(function() assert.is_number("1") end)
  end)

  it("spies record what they returned; stubs and mocks; matchers stand for values", function()
    local s = spy.new(function(x) return x * 2 end)
    s(21)
    assert.spy(s).returned_with(42)
    assert.spy(s).was.called_with(match.is_number())
    assert.spy(s).was.called_with(match._)
    assert.has_error(function() assert.spy(s).was.called_with(match.is_string()) end)
    local t = { f = function() return "real" end }
    local st = stub(t, "f", "fake")
    assert.equal("fake", t.f())
    st:revert()
    assert.equal("real", t.f())
    local m = mock({ a = function() return 1 end })
    assert.equal(1, m.a())
    assert.spy(m.a).was.called(1)
  end)

  it("finally runs when the test ends", function()
    finally(function() log[#log + 1] = "finally" end)
    assert.is_nil(log[2])
  end)

  it("and the next test sees it ran", function()
    assert.equal("finally", log[#log])
  end)
end)

describe("R25 the runner's own functions", function()
  it("R25 are out of a spec's reach: no global runs the runner again or hands results out", function()
    assert.is_nil(rawget(_G, "lunette_spec_run"))
    assert.is_nil(rawget(_G, "lunette_results"))
    assert.is_nil(rawget(_G, "lunette_emit"))
  end)
end)

-- luassert's spies are callable tables; the README offers them, and a spy
-- is how a test checks that an action ran. Before, every callback argument
-- refused them ("function expected, got table"), under both runners (a
-- fresh user's report).
describe("a spy as a callback", function()
  it("is called as a Button's action, onAppear, a sink and an effect", function()
    local save, appear, sink, eff = spy.new(function() end), spy.new(function() end), spy.new(function() end), spy.new(function() end)
    local app = ui.mount(ui.Button("Save", save):onAppear(appear))
    app:find("Save"):tap()
    assert.spy(save).was.called(1)
    assert.spy(appear).was.called(1)
    local subject = ui.Subject()
    local c = subject:sink(sink)
    subject:send(3)
    assert.spy(sink).was.called_with(3)
    local e = ui.effect(eff)
    assert.spy(eff).was.called(1)
    e:cancel(); c:cancel(); app:unmount()
  end)
  it("runs a task that sleeps", function()
    local done = false
    local t = setmetatable({}, { __call = function() ui.sleep(0.1); done = true end })
    local app = ui.mount(ui.Text("x"):task(t))
    ui.clock.advance(0.2)
    assert.is_true(done)
    app:unmount()
  end)
  it("refuses a table that cannot be called, a __call that is no function, and Lunette's own callables", function()
    assert.error_matches(function() ui.Button("x", {}) end, "function expected, got table", 1, true)
    assert.error_matches(function() ui.Button("x", setmetatable({}, { __call = 5 })) end, "function expected, got table", 1, true)
    -- a view type or a model class makes a value when called: an action that does nothing, refused
    local Detail = ui.View("SpyDetail", function() return ui.Text("d") end)
    local Book = ui.Observable("SpyBook", { title = "" })
    assert.error_matches(function() ui.Button("Open", Detail) end, "function expected, got lunette.ViewType", 1, true)
    assert.error_matches(function() ui.Text("t"):onAppear(Book) end, "function expected, got SpyBook", 1, true)
  end)
  it("is named by its __call's place in a row's messages, and its metatable may be protected #errors", function()
    local row = setmetatable({}, { __call = function(_, x) return ui.Text(x.name) end })
    local app = ui.mount(ui.VStack { ui.ForEach({ { id = 1, name = "a" }, { id = 1, name = "b" } }, row) })
    assert.matches("runner_spec%.lua:%d+: the id 1 occurs more than once", table.concat(app:warnings(), "\n"))
    app:unmount()
    local bad = ui.mount(ui.VStack { ui.ForEach({ "a" }, setmetatable({}, { __call = function() return 5 end })) })
    assert.matches("runner_spec%.lua:%d+: the function returned a number", bad:tree())
    bad:unmount()
    local locked = setmetatable({}, { __call = function(_, x) return ui.Text(x) end, __metatable = "locked" })
    local both = ui.mount(ui.VStack { ui.ForEach({ "a" }, locked), ui.List({ "b" }, locked) })
    assert.truthy(both:find("a") and both:find("b"), both:tree())
    both:unmount()
  end)
  it("is a row function and withAnimation's body", function()
    local s = spy.new(function() end); ui.withAnimation(s); assert.spy(s).was.called(1)
    local t = spy.new(function() end); ui.withAnimation(nil, t); assert.spy(t).was.called(1)
    local row = spy.new(function(x) return ui.Text(x) end)
    local app = ui.mount(ui.VStack { ui.ForEach({ "a", "b" }, row), ui.List({ "c" }, row) })
    assert.spy(row).was.called(3)
    app:unmount()
  end)
end)
