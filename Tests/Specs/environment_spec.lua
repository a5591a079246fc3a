-- SEMANTICS S21-S24: the environment ("Managing model data in your app").
local ui = require("lunette")

local Book = ui.Observable("Book", { title = "Sample Book Title", isAvailable = true })
local Library = ui.Observable("Library", {
  books = function() return { Book(), Book() } end,
  name = "City Library",
})
local Store = ui.Observable("Store", { tick = 0, which = 1 })

ui.EnvironmentKey("library", function() return Library { name = "Default Library" } end)
ui.EnvironmentKey("accent", "blue")

describe("Environment", function()
  it("S21 :environment(obj) reaches every descendant by type, at any depth", function()
    local Leaf = ui.View("Leaf", {
      environment = { library = Library },
      body = function(self) return ui.Text(self.library.name) end,
    })
    local Middle = ui.View("Middle", function() return ui.VStack { ui.Group { Leaf() } } end)
    local Top = ui.View("Top", function() return ui.NavigationStack { Middle() } end)
    local library = Library { name = "Alexandria" }
    local app = ui.mount(Top():environment(library))
    assert.truthy(app:find("Alexandria"))
  end)

  it("S22 reading a type that is not in the environment is a clear error; optional gives nil", function()
    local Needy = ui.View("Needy", {
      environment = { library = Library },
      body = function(self) return ui.Text(self.library.name) end,
    })
    local Relaxed = ui.View("Relaxed", {
      environment = { library = ui.optional(Library) },
      body = function(self) return ui.Text(self.library and self.library.name or "no library") end,
    })
    local app = ui.mount(ui.VStack { Needy(), Relaxed() })
    local errors = app:findAll { type = "Error" }
    assert.equal(1, #errors)
    assert.has_error_node(app, "no Library in the environment for 'library'")
    local line = tostring(errors[1])
    assert.matches("Needy", line)
    assert.matches("no Library in the environment", line)
    assert.matches("environment_spec.lua:%d+", line)
    assert.truthy(app:find("no library"))   -- the sibling still renders
  end)

  it("S23 a custom key gives its default when unset and its override in a subtree only; the nearest wins", function()
    local Show = ui.View("Show", {
      environment = { library = "library", accent = "accent" },
      body = function(self) return ui.Text(self.library.name .. "/" .. self.accent) end,
    })
    local app = ui.mount(ui.VStack {
      Show(),
      ui.VStack {
        Show(),
        ui.VStack { Show() }:environment("accent", "green"),
      }:environment("library", Library { name = "Branch" }),
    })
    assert.truthy(app:find("Default Library/blue"))
    assert.truthy(app:find("Branch/blue"))
    assert.truthy(app:find("Branch/green"))
    assert.equal(3, #app:findAll { type = "Show" })
  end)

  it("S23 an override that changes re-renders its readers", function()
    local store = Store()
    local Show = ui.View("Show", {
      environment = { accent = "accent" },
      body = function(self) return ui.Text("accent " .. self.accent) end,
    })
    local Other = ui.View("Other", function() return ui.Text("other") end)
    local Parent = ui.View("Parent", function(self)
      local colors = { "red", "green" }
      return ui.VStack { Show(), Other() }:environment("accent", colors[self.store.which])
    end)
    local app = ui.mount(Parent { store = store })
    assert.truthy(app:find("accent red"))
    store.which = 2
    ui.flush()
    assert.truthy(app:find("accent green"))
    assert.equal(2, app:renders("Show"))
    assert.equal(1, app:renders("Other"))
  end)

  it("S24 a descendant that reads an environment object's property re-renders when it changes; others do not", function()
    local Reader = ui.View("Reader", {
      environment = { library = Library },
      body = function(self) return ui.Text(self.library.name) end,
    })
    local Holder = ui.View("Holder", {
      environment = { library = Library },
      body = function(self) return ui.Text("books: " .. #self.library.books) end,
    })
    local Bystander = ui.View("Bystander", {
      environment = { library = Library },
      body = function(self) return ui.Text("I only hold it: " .. tostring(self.library ~= nil)) end,
    })
    local library = Library()
    local app = ui.mount(ui.VStack { Reader(), Holder(), Bystander() }:environment(library))
    library.name = "Renamed"
    ui.flush()
    assert.truthy(app:find("Renamed"))
    assert.equal(2, app:renders("Reader"))
    assert.equal(1, app:renders("Holder"))
    assert.equal(1, app:renders("Bystander"))
    table.insert(library.books, Book())
    ui.flush()
    assert.truthy(app:find("books: 3"))
    assert.equal(2, app:renders("Reader"))
    assert.equal(2, app:renders("Holder"))
    assert.equal(1, app:renders("Bystander"))
  end)
end)
