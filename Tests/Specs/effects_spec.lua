-- SEMANTICS S31-S33: responding to changes (onChange, onReceive, task), and onAppear/onDisappear.
local ui = require("lunette")

local Store = ui.Observable("Store", { count = 0, show = true, label = "a" })

describe("Effects", function()
  it("S31 onChange runs action(old, new) after an update in which the value changed, never in a body", function()
    local store = Store()
    local calls = {}
    local inBody = false
    local V = ui.View("V", function(self)
      inBody = true
      local view = ui.Text("count " .. self.store.count):onChange(self.store.count, function(old, new)
        assert.is_false(inBody)
        calls[#calls + 1] = old .. "->" .. new
      end)
      inBody = false
      return view
    end)
    local app = ui.mount(V { store = store })
    assert.same({}, calls)                          -- not on first appearance
    store.count = 1
    ui.flush()
    store.label = "b"                               -- a re-render that keeps the value
    store.count = 1
    ui.flush()
    store.count = 3
    ui.flush()
    assert.same({ "0->1", "1->3" }, calls)
    assert.truthy(app:find("count 3"))
  end)

  it("S31 with initial = true it also runs when the view first appears", function()
    local store = Store()
    local calls = {}
    local V = ui.View("V", function(self)
      return ui.Text("x"):onChange(self.store.count, function(old, new) calls[#calls + 1] = { old, new } end,
        { initial = true })
    end)
    ui.mount(V { store = store })
    assert.same({ { 0, 0 } }, calls)
  end)

  it("S31 an action that writes state re-renders after the update", function()
    local store = Store()
    local V = ui.View("V", {
      state = { doubled = 0 },
      body = function(self)
        return ui.Text("doubled " .. self.doubled):onChange(self.store.count, function(_, new)
          self.doubled = new * 2
        end)
      end,
    })
    local app = ui.mount(V { store = store })
    store.count = 21
    ui.flush()
    assert.truthy(app:find("doubled 42"))
  end)

  it("S32 onReceive runs action(v) for each value sent while the view is on screen", function()
    local store = Store()
    local subject = ui.Subject()
    local received = {}
    local Listener = ui.View("Listener", function()
      return ui.Text("listening"):onReceive(subject, function(v) received[#received + 1] = v end)
    end)
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { self.store.show and Listener() or ui.Text("nothing") }
    end)
    ui.mount(Parent { store = store })
    subject:send(1)
    subject:send(2)
    store.show = false
    ui.flush()
    subject:send(3)                                 -- gone: not received
    assert.same({ 1, 2 }, received)
  end)

  it("S32 the latest action receives, and a timer publishes on the runtime's clock", function()
    local store = Store()
    local ticks = {}
    local timer = ui.Timer.publish(1.0):autoconnect()
    local Clock = ui.View("Clock", function(self)
      local label = self.store.label
      return ui.Text("clock"):onReceive(timer, function(now) ticks[#ticks + 1] = label .. now end)
    end)
    ui.mount(Clock { store = store })
    ui.clock.advance(2.5)
    store.label = "b"
    ui.flush()
    ui.clock.advance(1)
    assert.same({ "a1.0", "a2.0", "b3.0" }, ticks)
  end)

  it("S33 a task runs once when the view first appears, may sleep, and is cancelled when it disappears", function()
    local store = Store()
    local log = {}
    local Loader = ui.View("Loader", {
      state = { status = "loading" },
      body = function(self)
        return ui.Text(self.status .. " " .. self.store.count):task(function()
          log[#log + 1] = "start"
          ui.sleep(1)
          self.status = "loaded"
          log[#log + 1] = "loaded"
          ui.sleep(10)
          log[#log + 1] = "never"
        end)
      end,
    })
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { self.store.show and Loader { store = self.store } or ui.Text("gone") }
    end)
    local app = ui.mount(Parent { store = store })
    assert.same({}, log)                            -- F07: it starts at the clock's next tick
    ui.clock.advance(0)
    assert.same({ "start" }, log)
    store.count = 1                                 -- re-renders do not restart it
    ui.flush()
    assert.truthy(app:find("loading 1"))
    ui.clock.advance(1)
    assert.truthy(app:find("loaded 1"))
    store.show = false                              -- disappears: cancelled
    ui.flush()
    ui.clock.advance(20)
    assert.same({ "start", "loaded" }, log)
  end)

  it("S33 a task can await a publisher", function()
    local subject = ui.Subject()
    local V = ui.View("V", {
      state = { value = "waiting" },
      body = function(self)
        return ui.Text(self.value):task(function() self.value = "got " .. ui.await(subject) end)
      end,
    })
    local app = ui.mount(V())
    ui.clock.advance(0)
    assert.truthy(app:find("waiting"))
    subject:send(7)
    ui.flush()
    assert.truthy(app:find("got 7"))
  end)

  it("a task that fails is reported, and the view keeps working", function()
    local V = ui.View("V", function()
      return ui.Text("ok"):task(function() ui.sleep(1); error("task failed") end)
    end)
    local app = ui.mount(V())
    ui.clock.advance(1)
    assert.matches("V: .*effects_spec.lua:%d+: task failed", table.concat(app:warnings(), "\n"))
    assert.reported(app, "task failed")
    assert.truthy(app:find("ok"))
  end)

  it("onAppear and onDisappear run after the update", function()
    local store = Store()
    local log = {}
    local Child = ui.View("Child", function()
      return ui.Text("child"):onAppear(function() log[#log + 1] = "appear" end)
        :onDisappear(function() log[#log + 1] = "disappear" end)
    end)
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { self.store.show and Child() or ui.EmptyView() }
    end)
    ui.mount(Parent { store = store })
    store.count = 1
    ui.flush()
    store.show = false
    ui.flush()
    assert.same({ "appear", "disappear" }, log)
  end)

  it("ui.sleep outside a task and advancing a real clock are clear errors", function()
    assert.error_matches(function() ui.sleep(1) end, "ui.sleep can only be called in a task", 1, true)
    assert.error_matches(function() ui.await(ui.Subject()) end, "ui.await can only be called in a task", 1, true)
    assert.error_matches(function() ui.sleep(0 / 0) end, "seconds must be a number, not NaN", 1, true)   -- said "negative"
    local before = ui.clock.now()
    ui.clock.advance(0.5)
    assert.equal(before + 0.5, ui.clock.now())
  end)

  -- A body that writes what it reads renders twice in one flush: its effects start once, for the view that stays.
  local function showing(store, child)
    return ui.View("Parent", function(self)
      return ui.VStack { self.store.show and child { store = self.store } or ui.Text("nothing") }
    end) { store = store }
  end

  it("S32 an onReceive that appears and goes in one flush never subscribes", function()
    local store, subject, received = Store(), ui.Subject(), {}
    local Listener = ui.View("Listener", function(self)
      self.store.show = false
      return ui.Text("listening"):onReceive(subject, function(v) received[#received + 1] = v end)
    end)
    local app = ui.mount(showing(store, Listener))
    assert.truthy(app:find("nothing"))
    subject:send(1)
    assert.same({}, received)
  end)

  it("S32 an onReceive rendered twice in its first flush subscribes once, and goes with its view", function()
    local store, subject, received = Store(), ui.Subject(), {}
    local Listener = ui.View("Listener", function(self)
      if self.store.count == 0 then self.store.count = 1 end
      return ui.Text("listening " .. self.store.count):onReceive(subject, function(v) received[#received + 1] = v end)
    end)
    local app = ui.mount(showing(store, Listener))
    assert.truthy(app:find("listening 1"))
    subject:send(1)
    store.count = 2
    ui.flush()
    subject:send(2)
    store.show = false
    ui.flush()
    subject:send(3)
    assert.same({ 1, 2 }, received)
  end)

  it("S33 a task that appears and goes in one flush never starts", function()
    local store, started = Store(), false
    local Worker = ui.View("Worker", function(self)
      self.store.show = false
      return ui.Text("working"):task(function() started = true end)
    end)
    local app = ui.mount(showing(store, Worker))
    assert.truthy(app:find("nothing"))
    assert.is_false(started)
  end)

  it("S33 a task rendered twice in its first flush starts once, and is cancelled with its view", function()
    local store, log = Store(), {}
    local Worker = ui.View("Worker", function(self)
      if self.store.count == 0 then self.store.count = 1 end
      return ui.Text("working"):task(function() log[#log + 1] = "start"; ui.sleep(1); log[#log + 1] = "done" end)
    end)
    ui.mount(showing(store, Worker))
    ui.clock.advance(0)
    store.show = false
    ui.flush()
    ui.clock.advance(2)
    assert.same({ "start" }, log)
  end)
end)

-- task(id:priority:_:): "Adds a task to perform before this view appears or
-- when a specified value changes … id: The value to observe for changes. The
-- value must conform to the Equatable protocol"
-- (https://developer.apple.com/documentation/swiftui/view/task(id:priority:_:)).
-- A table id is a value: equal contents are no change. The same for
-- :animation(_, value): animation(_:value:) animates this view when the
-- value changes, with `V : Equatable`
-- (https://developer.apple.com/documentation/swiftui/view/animation(_:value:)).
-- Combine's AnyCancellable "automatically calls cancel() when deinitialized"
-- (https://developer.apple.com/documentation/combine/anycancellable), and a
-- view's @State storage goes when the view's identity ends
-- (https://developer.apple.com/documentation/swiftui/state: "SwiftUI manages
-- the property's storage"; S27: an :id change discards it). Lua has no
-- deinit a script can count on, so a handle a view's state holds in one of
-- its own properties ends when that state does.
describe("S27 handles a view's state holds", function()
  it("S27 a timer subscription, an effect and a subject's subscription held in state end with the view", function()
    local store = Store()
    local subject = ui.Subject()
    local ticks, runs, sent, seenAtDisappear = 0, 0, 0, nil
    local Ticker = ui.View("StateTicker", {
      state = { sub = ui.none, effect = ui.none, listen = ui.none, kept = ui.none },
      body = function(self)
        return ui.Text("ticking"):onAppear(function()
          self.sub = ui.Timer.publish(1):sink(function() ticks = ticks + 1 end)
          self.listen = subject:sink(function() sent = sent + 1 end)
        end):task(function()                        -- an effect runs now: not from inside a flush's events
          self.effect = ui.effect(function() local _ = store.count; runs = runs + 1 end)
        end):onDisappear(function() seenAtDisappear = self.sub end)
      end,
    })
    local app = ui.mount(ui.View("Host", function(self)
      return ui.VStack { store.show and Ticker() or ui.Text("gone") }
    end)())
    ui.clock.advance(2.5)
    subject:send(1)
    store.count = 1
    ui.flush()
    assert.same({ 2, 2, 1 }, { ticks, runs, sent })
    store.show = false
    ui.flush()
    assert.truthy(app:find("gone"))
    assert.truthy(seenAtDisappear)                  -- onDisappear still had it
    ui.clock.advance(5)
    subject:send(2)
    store.count = 2
    ui.flush()
    assert.same({ 2, 2, 1 }, { ticks, runs, sent })
  end)

  it("S27 an effect made in onAppear runs in that flush, follows what it reads, and ends with the state holding it", function()
    local store = Store()
    local runs = 0
    local Watcher = ui.View("AppearEffect", { state = { watching = ui.none }, body = function(self)
      return ui.Text("watching"):onAppear(function()     -- SwiftUI's place to start work: it was an error
        self.watching = ui.effect(function() local _ = store.count; runs = runs + 1 end)
      end)
    end })
    local app = ui.mount(ui.View("AppearHost", function()
      return ui.VStack { store.show and Watcher() or ui.Text("gone") }
    end)())
    assert.equal(1, runs)                           -- its first run came in the mount's flush
    store.count = 1
    ui.flush()
    assert.equal(2, runs)
    store.show = false
    ui.flush()
    store.count = 2
    ui.flush()
    assert.equal(2, runs)                           -- ended with the view's state
    assert.truthy(app:find("gone"))
  end)

  it("S27 an :id change ends the old state's handles; one kept elsewhere, or in a table in state, lives on", function()
    local store = Store()
    local ticks, bagTicks, outside = 0, 0, {}
    local Ticker = ui.View("IdTicker", {
      state = { sub = ui.none, bag = {} },
      body = function(self)
        return ui.Text("ticking"):onAppear(function()
          self.sub = ui.Timer.publish(1):sink(function() ticks = ticks + 1 end)
          local inTable = ui.Timer.publish(1):sink(function() bagTicks = bagTicks + 1 end)
          self.bag = { inTable }                    -- a table may be shared: not looked into
          outside[#outside + 1] = inTable
        end)
      end,
    })
    ui.mount(ui.View("IdHost", function(self) return Ticker():id(store.label) end)())
    ui.clock.advance(1.5)
    assert.same({ 1, 1 }, { ticks, bagTicks })
    store.label = "b"                               -- a new identity: new state, a new timer
    ui.flush()
    ticks, bagTicks = 0, 0
    ui.clock.advance(1)
    assert.same({ 1, 2 }, { ticks, bagTicks })      -- the old state's own ended; the one in its table did not
    for _, sub in ipairs(outside) do sub:cancel() end
  end)
end)

describe("D03 Equatable ids and values", function()
  it("D03 a function as a task id or a watched value is refused: it could only compare as changed", function()
    -- SwiftUI's task(id:) and onChange(of:) take an Equatable value
    -- (https://developer.apple.com/documentation/swiftui/view/task(id:priority:_:)); a closure is not one.
    local function fails(f) local ok, err = pcall(f); assert.is_false(ok); return err end
    assert.matches("effects_spec.lua:%d+: view:task: its id must be a value compared by its contents .*got a function",
      fails(function() ui.Text("x"):task(function() end, { id = function() end }) end))
    assert.matches("view:onChange: the value it watches must be a value compared by its contents",
      fails(function() ui.Text("x"):onChange(print, function() end) end))
    assert.matches("view:animation: the value it watches must be",
      fails(function() ui.Text("x"):animation(ui.Animation.default, coroutine.create(print)) end))
  end)

  it("D03 a task with a table id restarts only when the table's contents change", function()
    local starts = 0
    local Search = ui.View("SearchTask", { state = { query = "a", page = 1, other = 0 }, body = function(self)
      return ui.VStack {
        ui.Text("other " .. self.other),
        ui.Button("other", function() self.other = self.other + 1 end),
        ui.Button("next", function() self.page = self.page + 1 end),
      }:task(function() starts = starts + 1 end, { id = { query = self.query, page = self.page } })
    end })
    local app = ui.mount(Search {})
    ui.clock.advance(0)
    assert.equal(1, starts)
    app:find("other"):tap()                       -- a new table, the same contents: no restart
    ui.clock.advance(0)
    assert.equal(1, starts)
    app:find("next"):tap()                        -- another page: restarted
    ui.clock.advance(0)
    assert.equal(2, starts)
    app:unmount()
  end)

  it("D03 an :animation(_, value) with a table value animates only when the contents change", function()
    local V = ui.View("AnimValue", { state = { pos = 1, size = 1 }, body = function(self)
      return ui.VStack {
        ui.Image("dot"):scaleEffect(self.size):animation(ui.Animation.linear(1), { x = self.pos }),
        ui.Button("grow", function() self.size = self.size + 1 end),
        ui.Button("move", function() self.pos = self.pos + 1; self.size = self.size + 1 end),
      }
    end })
    local app = ui.mount(V {})
    local function animated() return tostring(app:find("dot")):match("%[animated: (.-)%]") end
    app:find("grow"):tap()                        -- a new table, the same contents: not animated
    assert.is_nil(animated())
    app:find("move"):tap()                        -- the contents changed: animated
    assert.equal("scaleEffect 2 -> 3, linear 1.0s", animated())
    app:unmount()
  end)

end)

-- id(_:): "Binds a view's identity to the given proxy value", with
-- `ID : Hashable` — a value, compared as one: "When the proxy value
-- specified by the id parameter changes, the identity of the view — for
-- example, its state — is reset"
-- (https://developer.apple.com/documentation/swiftui/view/id(_:)).
describe("D03 explicit identity by value", function()
  it("D03 a view whose :id is a plain table keeps its state while the table's contents stay", function()
    local Row = ui.View("IdRow", { state = { n = 0 }, body = function(self)
      return ui.Button("n " .. self.n, function() self.n = self.n + 1 end)
    end })
    local Host = ui.View("IdHost", { state = { tick = 0, key = 1 }, body = function(self)
      return ui.VStack {
        Row {}:id({ kind = "row", key = self.key }),    -- a new table each render, the same contents
        ui.Button("tick " .. self.tick, function() self.tick = self.tick + 1 end),
        ui.Button("rekey", function() self.key = self.key + 1 end),
      }
    end })
    local app = ui.mount(Host {})
    app:find("n 0"):tap()
    app:find("tick 0"):tap()
    assert.truthy(app:find("n 1"))                -- same contents: the same view, its state kept
    app:find("rekey"):tap()
    assert.truthy(app:find("n 0"))                -- other contents: another view
    app:unmount()
  end)

  -- A view value has one identity. A second :id used to be shadowed by the
  -- first one's field ("attempt to call a number value (method 'id')"): it
  -- is an error saying what to write instead (D10: nothing silently ignored).
  it("D03 a second :id on one view value is an error naming the first", function()
    local ok, err = pcall(function() return ui.Text("a"):id(1):id(2) end)
    assert.is_false(ok)
    assert.matches("view:id: this view has an :id already %(1%)", err)
    assert.matches(":id%({ a, b }%)", err)
    local V = ui.View("IdTwice", function() return ui.Text("b"):id("x") end)
    local app = ui.mount(V {})
    assert.truthy(app:find({ id = "x" }))         -- one :id still identifies the view
    app:unmount()
  end)
end)

-- Siblings' events run in the order the views were written, as SwiftUI
-- calls onAppear "before this view appears" for each in turn
-- (https://developer.apple.com/documentation/swiftui/view/onappear(perform:):
-- the documentation promises no order; the README promises "in order"). They
-- ran in the order of a hash table, which Lua seeds anew in each process:
-- a spec asserting an order of events passed or failed from run to run.
describe("S33 siblings' events", function()
  it("S33 onAppear, tasks and onDisappear of siblings run in the order written", function()
    local log = {}
    local function row(name)
      return ui.Text(name)
        :onAppear(function() log[#log + 1] = "appear " .. name end)
        :task(function() ui.sleep(1); log[#log + 1] = "woke " .. name end)
        :onDisappear(function() log[#log + 1] = "gone " .. name end)
    end
    local V = ui.View("OrderedSiblings", function()
      local rows = {}
      for i, name in ipairs { "e", "b", "d", "a", "c", "h", "g", "f" } do rows[i] = row(name) end
      return ui.VStack(rows)
    end)
    local app = ui.mount(V {})
    ui.clock.advance(2)
    app:unmount()
    ui.flush()
    local want = {}
    for _, what in ipairs { "appear", "woke", "gone" } do
      for _, name in ipairs { "e", "b", "d", "a", "c", "h", "g", "f" } do want[#want + 1] = what .. " " .. name end
    end
    assert.same(want, log)
  end)
end)

-- Views that go in one update say onDisappear in the order they were
-- written, rows and child views too: they went in the order of a Swift
-- dictionary (seeded per process) once a removal broke their order, and
-- in reverse on unmount (a sixth hostile read).
describe("S33 views that go", function()
  it("S33 removed rows and unmounted child views say onDisappear in the order written", function()
    local log = {}
    local names = { "e", "b", "d", "a", "c", "h", "g", "f" }
    local Rows = ui.Observable("GoneRows", { items = {} })
    local rows = Rows { items = { "e", "b", "d", "a", "c", "h", "g", "f", "z" } }
    local Kid = ui.View("GoneKid", function(self)
      return ui.Text(self.n):onDisappear(function() log[#log + 1] = "kid " .. self.n end)
    end)
    local V = ui.View("GoneParent", function()
      local kids = {}
      for i, n in ipairs(names) do kids[i] = Kid { n = n } end
      return ui.VStack {
        ui.ForEach(rows.items, function(x) return ui.Text(x):onDisappear(function() log[#log + 1] = "row " .. x end) end),
        ui.VStack(kids),
      }
    end)
    local app = ui.mount(V {})
    rows.items = { "z" }                           -- all but the last go: the order broke
    ui.flush()
    app:unmount()
    ui.flush()
    local want = {}
    for _, n in ipairs(names) do want[#want + 1] = "row " .. n end
    local kids = {}
    for _, n in ipairs(names) do kids[#kids + 1] = "kid " .. n end
    assert.same(want, { table.unpack(log, 1, #names) })
    local got = {}
    for _, line in ipairs(log) do if line:find("^kid") then got[#got + 1] = line end end
    assert.same(kids, got)
  end)
end)

-- Several modifiers of one kind on one node each keep their own place: a
-- re-render keeps them (no second onAppear), and many cost little (each
-- found its key by trying every one before it, a character longer each
-- time: 5,000 took 24 s; a sixth hostile read).
describe("S33 several onAppear on one view", function()
  it("S33 run once each, in order, and stay through a re-render", function()
    local log = {}
    local V = ui.View("ManyAppears", { state = { n = 0 }, body = function(self)
      local v = ui.Button("n " .. self.n, function() self.n = self.n + 1 end)
      for i = 1, 300 do v = v:onAppear(function() log[#log + 1] = i end) end
      return v
    end })
    local app = ui.mount(V {})
    app:find("n 0"):tap()
    assert.equal(300, #log)
    for i = 1, 300 do assert.equal(i, log[i]) end
    app:unmount()
  end)
end)

-- A row's id is all of its bytes: ids that differed only after a NUL were
-- one key (cut at the NUL), so removing the first row said the last one's
-- onDisappear and kept the wrong rows' state (a seventh hostile read).
describe("S33 rows whose ids hold a NUL", function()
  it("S33 keep their own identity", function()
    local log = {}
    local Items = ui.Observable("NulItems", { items = {} })
    local s = Items { items = { { id = "r\0one", n = "one" }, { id = "r\0two", n = "two" }, { id = "r\0three", n = "three" } } }
    local P = ui.View("NulRows", function()
      return ui.VStack { ui.ForEach(s.items, function(x)
        return ui.Text(x.n):onDisappear(function() log[#log + 1] = x.n end)
      end) }
    end)
    local app = ui.mount(P {})
    s.items = { s.items[2], s.items[3] }
    ui.flush()
    assert.same({ "one" }, log)
    app:unmount()
  end)
end)
