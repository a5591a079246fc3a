-- Diagnostics: what a view depends on, and why it re-rendered.
local ui = require("lunette")

local Author = ui.Observable("Author", { name = "Unknown Author" })
local Book = ui.Observable("Book", { title = "Sample Book Title", author = function() return Author() end })

local BookView = ui.View("BookView", function(self)
  return ui.VStack { ui.Text(self.book.title), ui.Text("by " .. self.book.author.name) }
end)

describe("Diagnostics", function()
  after_each(function() ui.trace(false) end)

  it("app:dependencies lists what a view read, by view name or by node", function()
    local book = Book()
    local app = ui.mount(BookView { book = book })
    local id = ui.id(book)
    assert.same({ id .. ".title", id .. ".author", ui.id(book.author) .. ".name" }, app:dependencies("BookView"))
    assert.same(app:dependencies("BookView"), app:dependencies(app:find { type = "BookView" }))
    assert.error_matches(function() app:dependencies("Nothing") end, "no view named 'Nothing'", 1, true)
  end)

  it("ui.trace logs each re-render with the changed property and where it was written", function()
    local book = Book()
    local app = ui.mount(BookView { book = book })
    ui.trace(true)
    book.title = "Dune"                       -- line 27
    ui.flush()
    local lines = app:trace()
    assert.equal(1, #lines)
    assert.matches("^↻ BookView#%d+  %(" .. ui.id(book) .. "%.title, set at .*diagnostics_spec%.lua:27%)$", lines[1])
  end)

  it("app:json() carries dependencies and the trace", function()
    local book = Book()
    local app = ui.mount(BookView { book = book })
    ui.trace(true)
    book.author.name = "Herbert"
    ui.flush()
    local json = app:json()
    assert.matches('"dependencies":%["' .. ui.id(book) .. '%.title"', json)
    assert.matches('"trace":%["↻ BookView#%d+  %(' .. ui.id(book.author) .. '%.name, set at', json)
  end)
end)

describe("F08 nothing a script writes is silently ignored", function()
  it("F08 an option key a modifier does not know is an error naming it, the call and the options known", function()
    local ok, err = pcall(function() ui.Text("x"):task(function() end, { ids = 1 }) end)
    assert.is_false(ok)
    assert.matches("view:task: unknown option 'ids' %(did you mean 'id'%?%) %(options: id%)", err)
    ok, err = pcall(function() ui.Text("x"):onChange(1, function() end, { inital = true }) end)
    assert.matches("view:onChange: unknown option 'inital' %(did you mean 'initial'%?%)", err)
    ok, err = pcall(function() ui.Text("x"):sheet({ item = ui.Binding.constant(nil), onDismis = print }, function() end) end)
    assert.matches("view:sheet: unknown option 'onDismis'", err)
    assert.matches("diagnostics_spec.lua:%d+:", err)
  end)
end)
