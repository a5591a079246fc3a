-- SEMANTICS S14, S25-S30: the ObservableObject family ("Monitoring data changes in your app").
local ui = require("lunette")

local OldBook = ui.ObservableObject("OldBook", {
  title = ui.Published("Sample Book Title"),
  isAvailable = ui.Published(true),
  identifier = "42",                              -- not published
})
local Store = ui.Observable("Store", { tick = 0, which = 1 })

describe("ObservableObject", function()
  it("S25 a published change re-renders every holder, even one that reads nothing; an unpublished one none", function()
    local Observed = ui.View("Observed", {
      observedObject = { "book" },
      body = function() return ui.Text("observed") end,   -- reads no property
    })
    local Owner = ui.View("Owner", {
      stateObject = { book = function() return OldBook() end },
      body = function(self)
        return ui.VStack { ui.Text(self.book.title), Observed { book = self.book } }
      end,
    })
    local FromEnv = ui.View("FromEnv", {
      environmentObject = { book = OldBook },
      body = function() return ui.Text("from environment") end,
    })
    local shared = OldBook()
    local app = ui.mount(ui.VStack { Owner(), FromEnv() }:environmentObject(shared))
    shared.identifier = "43"
    ui.flush()
    assert.equal(1, app:renders("FromEnv"))
    shared.title = "Dune"
    ui.flush()
    assert.equal(2, app:renders("FromEnv"))
    assert.equal(1, app:renders("Owner"))
    local owned = app:find("Sample Book Title")
    assert.truthy(owned)
  end)

  it("S25 holders of a state object re-render on its published changes", function()
    local captured
    local Owner = ui.View("Owner", {
      stateObject = { book = function() local b = OldBook(); captured = b; return b end },
      body = function(self) return ui.Text(self.book.title) end,
    })
    local app = ui.mount(Owner())
    captured.isAvailable = false            -- published, not read: still re-renders
    ui.flush()
    assert.equal(2, app:renders("Owner"))
    captured.identifier = "x"               -- unpublished: nothing
    ui.flush()
    assert.equal(2, app:renders("Owner"))
    captured.title = "Emma"
    ui.flush()
    assert.truthy(app:find("Emma"))
  end)

  it("S26 a state object is made once per view identity, separately for siblings, from inputs the first time", function()
    local made = 0
    local store = Store()
    local Counter = ui.View("Counter", {
      stateObject = { book = function(self) made = made + 1; return OldBook { title = self.start } end },
      body = function(self) return ui.Text(self.book.title) end,
    })
    local Parent = ui.View("Parent", function(self)
      return ui.VStack {
        ui.Text("tick " .. self.store.tick),
        Counter { start = "A" .. self.store.tick },
        Counter { start = "B" .. self.store.tick },
      }
    end)
    local app = ui.mount(Parent { store = store })
    store.tick = 1
    ui.flush()
    store.tick = 2
    ui.flush()
    assert.equal(2, made)
    assert.truthy(app:find("A0"))
    assert.truthy(app:find("B0"))
    assert.equal(3, app:renders("Parent"))
  end)

  it("S27 a changed :id discards the view's state and state objects and makes them anew", function()
    local store = Store()
    local made = 0
    local Editor = ui.View("Editor", {
      state = { draft = "" },
      stateObject = { book = function() made = made + 1; return OldBook() end },
      body = function(self)
        return ui.VStack {
          ui.Text("draft:" .. self.draft),
          ui.Button("type", function() self.draft = self.draft .. "x" end),
        }
      end,
    })
    local Parent = ui.View("Parent", function(self)
      return Editor():id(self.store.which)
    end)
    local app = ui.mount(Parent { store = store })
    app:find("type"):tap()
    assert.truthy(app:find("draft:x"))
    store.tick = 1                         -- the parent re-renders, same id: state kept
    ui.flush()
    assert.truthy(app:find("draft:x"))
    store.which = 2                        -- another id: a new view
    ui.flush()
    assert.truthy(app:find("draft:"))
    assert.equal(2, made)
  end)

  it("S28 environmentObject reads what an ancestor put with :environmentObject; a missing one is a clear error", function()
    local Reader = ui.View("Reader", {
      environmentObject = { book = OldBook },
      body = function(self) return ui.Text(self.book.title) end,
    })
    local app = ui.mount(ui.VStack { ui.Group { Reader() } }:environmentObject(OldBook { title = "Shared" }))
    assert.truthy(app:find("Shared"))
    local lonely = ui.mount(Reader())
    assert.has_error_node(lonely, "no OldBook in the environment for 'book'")
  end)

  it("S29 self['$obj'].prop is a Binding to a published property", function()
    local Edit = ui.View("Edit", {
      stateObject = { book = function() return OldBook() end },
      body = function(self)
        return ui.VStack {
          ui.TextField("Title", self["$book"].title),
          ui.Toggle("Available", self["$book"].isAvailable),
          ui.Text(self.book.title .. "/" .. tostring(self.book.isAvailable)),
        }
      end,
    })
    local app = ui.mount(Edit())
    app:find("Title"):setText("Dune")
    app:find("Available"):toggle()
    assert.truthy(app:find("Dune/false"))
  end)

  it("S30 objectWillChange emits before each published change, not for unpublished ones", function()
    local book = OldBook()
    local seen = {}
    local c = book.objectWillChange:sink(function() seen[#seen + 1] = book.title end)
    book.title = "One"
    book.identifier = "7"
    book.isAvailable = false
    book.title = "One"                      -- equal: @Published emits on every set all the same (F05)
    assert.same({ "Sample Book Title", "One", "One" }, seen)
    c:cancel()
    book.title = "Two"
    assert.equal(3, #seen)
  end)

  it("S14 an ObservableObject in state re-renders the view only when the reference changes", function()
    local first
    local Holder = ui.View("Holder", {
      state = { book = function() first = OldBook(); return first end },
      body = function(self)
        return ui.VStack {
          ui.Text(self.book.title),
          ui.Button("replace", function() self.book = OldBook { title = "Replaced" } end),
        }
      end,
    })
    local app = ui.mount(Holder())
    first.title = "Changed"                 -- published, but held in state: no re-render
    ui.flush()
    assert.equal(1, app:renders("Holder"))
    assert.truthy(app:find("Sample Book Title"))
    app:find("replace"):tap()
    assert.equal(2, app:renders("Holder"))
    assert.truthy(app:find("Replaced"))
  end)

  it("rejects computed properties and checks what sections hold", function()
    assert.error_matches(function() ui.ObservableObject("Bad", { x = ui.computed(function() return 1 end) }) end, "cannot be ui.computed", 1, true)
    local V = ui.View("V", { observedObject = { "book" }, body = function(self) return ui.Text(self.book.title) end })
    local app = ui.mount(V { book = { title = "plain table" } })
    assert.has_error_node(app, "'book' must be an ObservableObject, got table")
  end)
end)
