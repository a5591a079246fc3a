-- SEMANTICS S11-S13: state as the source of truth ("Managing user interface state").
local ui = require("lunette")

local Book = ui.Observable("Book", { title = "Sample Book Title", isAvailable = true })
local Store = ui.Observable("Store", { tick = 0, showSecond = true })

describe("State", function()
  it("S11 state survives re-renders of the view and its parent, and each instance has its own", function()
    local store = Store()
    local Counter = ui.View("Counter", {
      state = { count = 0 },
      body = function(self)
        return ui.Button(self.label .. ": " .. self.count, function() self.count = self.count + 1 end)
      end,
    })
    local Parent = ui.View("Parent", function(self)
      return ui.VStack {
        ui.Text("tick " .. self.store.tick),
        Counter { label = "A" },
        Counter { label = "B" },
      }
    end)
    local app = ui.mount(Parent { store = store })
    app:find("A: 0"):tap()
    app:find("A: 1"):tap()
    app:find("B: 0"):tap()
    store.tick = 1                       -- the parent re-renders
    ui.flush()
    assert.truthy(app:find("tick 1"))
    assert.truthy(app:find("A: 2"))
    assert.truthy(app:find("B: 1"))
  end)

  it("S12 a function initial value runs once per view identity", function()
    local store = Store()
    local made = 0
    local Child = ui.View("Child", {
      state = { items = function(self) made = made + 1; return { self.first } end },
      body = function(self) return ui.Text(#self.items .. " " .. self.items[1]) end,
    })
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { ui.Text("tick " .. self.store.tick), Child { first = "x" } }
    end)
    local app = ui.mount(Parent { store = store })
    for i = 1, 3 do
      store.tick = i
      ui.flush()
    end
    assert.equal(4, app:renders("Parent"))
    assert.equal(1, made)
    assert.truthy(app:find("1 x"))
    -- a new identity (the child disappears and comes back) makes it again
    local Toggler = ui.View("Toggler", function(self)
      return ui.VStack { self.store.showSecond and Child { first = "y" } or ui.Text("gone") }
    end)
    local app2 = ui.mount(Toggler { store = store })
    store.showSecond = false
    ui.flush()
    store.showSecond = true
    ui.flush()
    assert.equal(3, made)
    assert.truthy(app2:find("1 y"))
  end)

  it("S12 a table initial value is copied per view identity", function()
    local Tags = ui.View("Tags", {
      state = { tags = { "a" } },
      body = function(self)
        return ui.Button(table.concat(self.tags, ",") .. "#" .. self.name, function() table.insert(self.tags, "b") end)
      end,
    })
    local app = ui.mount(ui.VStack { Tags { name = "1" }, Tags { name = "2" } })
    app:find("a#1"):tap()
    assert.truthy(app:find("a,b#1"))
    assert.truthy(app:find("a#2"))
  end)

  it("S11 a state default that is an object is refused: every view would share it", function()
    -- SwiftUI: "A State property always instantiates its default value when
    -- SwiftUI instantiates the view" (https://developer.apple.com/documentation/swiftui/state);
    -- a Lua definition is made once, so an object written there would be one for all.
    local Model = ui.Observable("SharedDefault", { title = "t" })
    local ok, err = pcall(function()
      ui.View("SharesAModel", { state = { book = Model() }, body = function() return ui.Text("x") end })
    end)
    assert.is_false(ok)
    assert.matches("state_spec.lua:%d+: SharesAModel: state 'book' holds SharedDefault#%d+, made once where the view is "
      .. "defined: every SharesAModel would share it. Give a function that makes it for each view", err)
    assert.error_matches(function()
      ui.View("SharesInATable", { state = { list = { { book = Model() } } }, body = function() return ui.Text("x") end })
    end, "SharesInATable: state 'list' holds SharedDefault#%d+")   -- inside a table, copied for each view, too
    assert.error_matches(function()
      ui.View("SharesASubject", { state = { s = ui.Subject() }, body = function() return ui.Text("x") end })
    end, "SharesASubject: state 's' holds")
    local Editor = ui.View("OwnsAModel", { state = { book = function() return Model() end }, body = function(self)
      return ui.Button(self.name .. " " .. self.book.title, function() self.book.title = "edited" end)
    end })
    local app = ui.mount(ui.VStack { Editor { name = "A" }, Editor { name = "B" } })
    app:find("A t"):tap()
    assert.truthy(app:find("A edited"))
    assert.truthy(app:find("B t"))             -- each view made its own
    app:unmount()
  end)

  it("S13 an observable object in state keeps its identity; views re-render on what they read", function()
    local store = Store()
    local seen = {}
    local BookHolder = ui.View("BookHolder", {
      state = { book = function() return Book() end },
      body = function(self)
        seen[#seen + 1] = self.book
        return ui.VStack {
          ui.Text(self.book.title),
          ui.Button("Rename", function() self.book.title = "Renamed" end),
        }
      end,
    })
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { ui.Text("tick " .. self.store.tick), BookHolder() }
    end)
    local app = ui.mount(Parent { store = store })
    app:find("Rename"):tap()
    assert.truthy(app:find("Renamed"))
    assert.equal(2, app:renders("BookHolder"))
    store.tick = 5
    ui.flush()
    seen[1].isAvailable = false           -- not read by the body
    ui.flush()
    assert.equal(2, app:renders("BookHolder"))
    assert.equal(seen[1], seen[2])
    assert.equal(ui.id(seen[1]), ui.id(seen[#seen]))
  end)

  it("state is writable from the body's actions only through self; inputs are read-only", function()
    local V = ui.View("V", { state = { n = 1 }, body = function(self)
      return ui.Button("go", function() self.title = "x" end)
    end })
    local app = ui.mount(V { title = "t" })
    assert.error_matches(function() app:find("go"):tap() end, "inputs are read-only", 1, true)
  end)

  it("an input of the same name gives state its first value", function()
    local store = Store()
    local V = ui.View("V", { state = { count = 0 }, body = function(self)
      return ui.Button("count " .. self.count, function() self.count = self.count + 1 end)
    end })
    local P = ui.View("P", function(self)
      return ui.VStack { ui.Text("t" .. self.store.tick), V { count = 10 + self.store.tick } }
    end)
    local app = ui.mount(P { store = store })
    app:find("count 10"):tap()
    store.tick = 3                         -- a new input value does not reset the state
    ui.flush()
    assert.truthy(app:find("count 11"))
  end)

  -- State's initial functions run after its plain values, in no set order
  -- among themselves; one that reads a name another has not filled yet sees
  -- nil (SwiftUI has no such read: a stored property's default value cannot
  -- use self — https://docs.swift.org/swift-book/documentation/the-swift-programming-language/initialization/
  -- "Default Property Values"), not a placeholder of the runtime's (session
  -- 13's hostile read: it saw false).
  it("a state factory reading a name not filled yet sees nil, not a placeholder", function()
    local calls, first = 0, "none"
    local function saw(v) calls = calls + 1; if calls == 1 then first = v end; return v end
    local V = ui.View("StateFactoryOrder", {
      state = {
        a = function(self) return saw(self.b) end,
        b = function(self) return saw(self.a) end,
        n = 1,
      },
      body = function(self) return ui.Text(tostring(self.a) .. " " .. tostring(self.b) .. " " .. self.n) end,
    })
    local app = ui.mount(V())
    assert.truthy(app:find("nil nil 1"))
    assert.equal(2, calls)
    assert.is_nil(first)
    app:unmount()
  end)
end)
