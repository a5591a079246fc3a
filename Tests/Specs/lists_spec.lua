-- Lists (issue 19, session 7): List(selection:) with one value or a set,
-- ForEach's onDelete and onMove (node:delete(), node:move(to)),
-- swipeActions, searchable and refreshable. Each describe cites the page of
-- Apple's documentation it follows. Indices are Lua's: SwiftUI's IndexSet
-- of offsets 0, 2 arrives as { 1, 3 }, and onMove's destination offset d
-- as d + 1 (the position before which the rows go, counted before they move).
local ui = require("lunette")

local Item = ui.Observable("ListItem", { id = "", title = "" })

local function items()
  return { Item { id = "a", title = "Alpha" }, Item { id = "b", title = "Beta" }, Item { id = "c", title = "Gamma" } }
end

-- The titles the rows show, in order, from the tree.
local function titles(app, prefix)
  local found = {}
  for title in app:tree():gmatch('Text "' .. (prefix or "") .. '(%a+)"') do found[#found + 1] = title end
  return table.concat(found, " ")
end

-- How many rows the JSON marks selected.
local function selectedRows(app)
  local _, n = app:json():gsub('"selected":"true"', "")
  return n
end

-- List init(selection:content:): "Creates a list with the given content that
-- supports selecting a single row" (https://developer.apple.com/documentation/swiftui/list/init(selection:content:)-1pisz)
-- and, with a Set, "selecting multiple rows"
-- (https://developer.apple.com/documentation/swiftui/list/init(selection:content:)-4sffx).
describe("List(selection:)", function()
  it("selects one row's value: the element's id; the List shows it and its row is marked", function()
    local Picker = ui.View("OneSelection", { state = { books = items, chosen = ui.none }, body = function(self)
      return ui.VStack {
        ui.List({ selection = self["$chosen"] }, self.books, function(book) return ui.Text(book.title) end),
        ui.Text("chosen " .. tostring(self.chosen)),
      }
    end })
    local app = ui.mount(Picker {})
    local list = app:find { type = "List" }
    assert.matches("List selection=nil", app:tree(), 1, true)
    assert.equal(0, selectedRows(app))
    list:select("b")
    assert.truthy(app:find("chosen b"))
    assert.matches('List selection="b"', app:tree(), 1, true)
    assert.equal(1, selectedRows(app))
    local row = app:tree():match('(Row [^\n]*selected=true[^\n]*)\n%s*Text "Beta"')
    assert.truthy(row and row:find('tag="b"', 1, true), app:tree())
    app:find { type = "List" }:select("c")
    assert.truthy(app:find("chosen c"))
    assert.equal(1, selectedRows(app))
    app:find { type = "List" }:select(nil)                -- an optional selection clears
    assert.truthy(app:find("chosen nil"))
    assert.error_matches(function() app:find { type = "List" }:select("z") end,
      'select: "z" is the value of no row of the List', 1, true)
    app:unmount()
  end)

  -- A model object with no id field is its own identity (as an Identifiable
  -- class's default id is its ObjectIdentifier,
  -- https://developer.apple.com/documentation/swift/identifiable): its row
  -- stands for the object. The message said only "its element's id", and a
  -- fresh user tried ui.id(obj); it says which value to pass now.
  it("a row of model objects stands for the object; the refusal of ui.id(obj) says so", function()
    local Contact = ui.Observable("SelContact", { name = "" })
    local people = { Contact { name = "Ann" }, Contact { name = "Bob" } }
    local V = ui.View("SelPeople", { state = { picked = ui.none }, body = function(self)
      return ui.VStack {
        ui.List({ selection = self["$picked"] }, people, function(c) return ui.Text(c.name) end),
        ui.Text("picked " .. (self.picked and self.picked.name or "none")),
      }
    end })
    local app = ui.mount(V {})
    app:find { type = "List" }:select(people[2])
    assert.truthy(app:find("picked Bob"), app:tree())
    assert.error_matches(function() app:find { type = "List" }:select(ui.id(people[1])) end,
      "or for the element itself when it has none: select(obj), not ui.id(obj)", 1, true)
    app:unmount()
  end)

  it("selects several with a set: a row's value joins it, or leaves it when it was there", function()
    local Many = ui.View("ManySelection", { state = { books = items, chosen = {} }, body = function(self)
      local names = {}
      for _, id in ipairs { "a", "b", "c", "x" } do if self.chosen[id] then names[#names + 1] = id end end
      return ui.VStack {
        ui.List({ selection = self["$chosen"] }, {
          ui.Section("Books", { ui.ForEach(self.books, function(book) return ui.Text(book.title) end) }),
          ui.Text("Extra"):tag("x"),
        }),
        ui.Text("chosen " .. table.concat(names, ",")),
      }
    end })
    local app = ui.mount(Many {})
    app:find { type = "List" }:select("a")
    app:find { type = "List" }:select("x")               -- a tagged child view
    assert.truthy(app:find("chosen a,x"))
    assert.equal(2, selectedRows(app))                    -- a row of data and the tagged child (a row of its own)
    assert.matches('Text "Extra" .tag("x") selected=true', app:tree(), 1, true)
    app:find { type = "List" }:select("c")
    app:find { type = "List" }:select("a")               -- toggled off
    assert.truthy(app:find("chosen c,x"))
    assert.error_matches(function() app:find { type = "List" }:select(nil) end, "the List selects several", 1, true)
    assert.error_matches(function() app:find { type = "List" }:select("q") end, '"q" is the value of no row', 1, true)
    app:unmount()
  end)

  -- A static List's content is its rows: init(selection:content:) "Creates a
  -- list with the given content that supports selecting a single row"
  -- (https://developer.apple.com/documentation/swiftui/list/init(selection:content:)-1pisz),
  -- and a child view stands for the value of its tag, which "differentiate[s]
  -- among certain selectable views"
  -- (https://developer.apple.com/documentation/swiftui/view/tag(_:includeoptional:)):
  -- its row is marked selected as a row of data is.
  it("marks the tagged child views of a static List selected, in Sections and Groups too", function()
    local Chip = ui.View("StaticChip", function() return ui.Text("chip") end)
    local Static = ui.View("StaticSelection", { state = { chosen = ui.none, several = { y = true } }, body = function(self)
      return ui.VStack {
        ui.List({ selection = self["$chosen"] }, {
          ui.Text("One"):tag(1),
          ui.Section("More", { ui.Text("Two"):tag(2), ui.Group { ui.Text("Three"):tag(3) } }),
          ui.Text("Plain"),
          Chip {}:tag(4),                                 -- a view of its own: its node is marked
        }),
        ui.List({ selection = self["$several"] }, { ui.Text("X"):tag("x"), ui.Text("Y"):tag("y") }),
      }
    end })
    local app = ui.mount(Static {})
    assert.equal(1, selectedRows(app))                    -- the set holds "y"
    assert.matches('Text "Y" .tag("y") selected=true', app:tree(), 1, true)
    local lists = app:findAll { type = "List" }
    lists[1]:select(3)
    assert.matches('Text "Three" .tag(3) selected=true', app:tree(), 1, true)
    assert.equal(2, selectedRows(app))
    lists[1]:select(1)
    assert.matches('Text "One" .tag(1) selected=true', app:tree(), 1, true)
    assert.matches('Text "Three" .tag(3)\n', app:tree(), 1, true)
    lists[2]:select("x")
    assert.equal(3, selectedRows(app))
    assert.matches('Text "Plain"\n', app:tree(), 1, true)   -- an untagged child stands for nothing
    lists[1]:select(4)
    assert.matches('StaticChip .tag(4) selected=true\n', app:tree(), 1, true)
    assert.equal(3, selectedRows(app))                    -- the chip, and x and y in the other List
    app:unmount()
  end)

  it("refuses an option it does not know and a selection that is no Binding", function()
    assert.error_matches(function() ui.List({ selected = ui.Binding.constant(1) }, {}) end,
      "ui.List: unknown option 'selected' (options: selection)", 1, true)
    assert.error_matches(function() ui.List({ selection = "a" }, {}) end,
      'ui.List: selection must be a Binding (self["$selected"]) to a value, or to a set', 1, true)
  end)

  -- Issue 19, session 9 (hostile read of session 8): the options with no
  -- rows after them said "ui.List takes no options".
  it("with no rows after the options, or the options among the rows, says what is missing", function()
    local b = ui.Binding.constant(1)
    assert.error_matches(function() ui.List({ selection = b }) end,
      "ui.List%({ selection = … }%): the rows are missing after the options: "
      .. "ui.List%({ selection = b }, data, row%) or ui.List%({ selection = b }, { views }%)")
    assert.error_matches(function() ui.List({ selection = b, ui.Text("a") }) end,
      "the options go in a table of their own, before the rows", 1, true)
  end)
end)

-- List init(_:rowContent:) and ForEach take a RandomAccessCollection
-- (https://developer.apple.com/documentation/swiftui/list/init(_:rowcontent:),
-- https://developer.apple.com/documentation/swiftui/foreach): a dictionary
-- is none. Issue 19, session 9: a plain table with keys was "unknown option
-- 'a'", the same one held in state an empty List; both are now one error.
describe("List and ForEach data", function()
  it("a table with keys, plain or held in state, is an error naming the key and saying what rows are #errors", function()
    local row = function(x) return ui.Text(tostring(x)) end
    assert.error_matches(function() ui.List({ a = "x", b = "y" }, row) end,
      'ui.List: the data is a table with the key "[ab]", not a list: rows are the elements 1…n')
    assert.error_matches(function() ui.ForEach({ a = "x" }, row) end, 'ui.ForEach: the data is a table with the key "a"', 1, true)
    local Dict = ui.View("DictList", { state = { dict = { a = "x", b = "y" } }, body = function(self)
      return ui.List(self.dict, row)
    end })
    local app = ui.mount(Dict {})
    assert.matches('Error DictList: .*lists_spec.lua:%d+: ui.List: the data is a table with the key "[ab]", not a list', app:tree())
    app:unmount()
    local fine = ui.mount(ui.List({ "x", "y" }, row))           -- a list, and an empty one, as before
    assert.truthy(fine:find("y"))
    fine:unmount()
    ui.mount(ui.List({}, row)):unmount()
  end)
end)

-- onDelete(perform:): "SwiftUI passes a set of indices to the closure that's
-- relative to the dynamic view's underlying collection of data"
-- (https://developer.apple.com/documentation/swiftui/dynamicviewcontent/ondelete(perform:));
-- onMove(perform:): "The closure takes two arguments that represent the
-- offset relative to the dynamic view's underlying collection of data"
-- (https://developer.apple.com/documentation/swiftui/dynamicviewcontent/onmove(perform:)).
describe("ForEach's onDelete and onMove", function()
  local seen
  local Editable = ui.View("Editable", { state = { books = items }, body = function(self)
    return ui.List {
      ui.ForEach(self.books, function(book) return ui.HStack { ui.Text("row " .. book.title) } end)
        :onDelete(function(indices)
          seen = indices
          for i = #indices, 1, -1 do table.remove(self.books, indices[i]) end
        end)
        :onMove(function(indices, to)
          seen = { indices, to }
          local moved = table.remove(self.books, indices[1])
          table.insert(self.books, to > indices[1] and to - 1 or to, moved)
        end),
      ui.Text("static"),
    }
  end })

  it("node:delete() on any node of a row passes that row's 1-based index", function()
    local app = ui.mount(Editable {})
    assert.equal("Alpha Beta Gamma", titles(app, "row "))
    local row = app:tree():match('(Row [^\n]*)\n%s*HStack\n%s*Text "row Beta"')
    assert.truthy(row and row:find("deletable=true", 1, true) and row:find("movable=true", 1, true) and row:find("index=2", 1, true), app:tree())
    app:find("row Beta"):delete()
    assert.same({ 2 }, seen)
    assert.equal("Alpha Gamma", titles(app, "row "))
    app:findAll { type = "HStack" }[2]:delete()           -- a node inside the row: its HStack
    assert.same({ 2 }, seen)
    assert.equal("Alpha", titles(app, "row "))
    app:unmount()
  end)

  it("node:move(to) passes the row's index and the position it goes before, counted before the move", function()
    local app = ui.mount(Editable {})
    app:find("row Alpha"):move(4)                         -- to the end: before position #data + 1
    assert.same({ { 1 }, 4 }, seen)
    assert.equal("Beta Gamma Alpha", titles(app, "row "))
    app:find("row Alpha"):move(1)
    assert.same({ { 3 }, 1 }, seen)
    assert.equal("Alpha Beta Gamma", titles(app, "row "))
    assert.error_matches(function() app:find("row Beta"):move(5) end, "move: 5 is outside 1 ... 4", 1, true)
    assert.error_matches(function() app:find("static"):delete() end,
      'delete: Text "static" is in no row of a ForEach with :onDelete or :onMove', 1, true)
    app:unmount()
  end)

  it("rows of a ForEach over a binding go by their index too", function()
    local Names = ui.View("BoundNames", { state = { names = { "x", "y", "z" } }, body = function(self)
      return ui.List {
        ui.ForEach(self["$names"], function(name) return ui.TextField("name", name) end)
          :onDelete(function(indices) table.remove(self.names, indices[1]) end),
        ui.Text("names " .. table.concat(self.names, ",")),
      }
    end })
    local app = ui.mount(Names {})
    app:findAll { type = "TextField" }[1]:delete()
    assert.truthy(app:find("names y,z"))
    app:unmount()
  end)

  it("apply to a ForEach over data only; nil removes them; a row without onMove cannot move", function()
    assert.error_matches(function() ui.Text("x"):onDelete(function() end) end,
      "view:onDelete: it applies to a ForEach over data (ui.ForEach(items, row):onDelete(fn), in a List), not to Text", 1, true)
    assert.error_matches(function() ui.List({ 1 }, function() return ui.Text("x") end):onMove(function() end) end,
      "view:onMove: it applies to a ForEach over data", 1, true)
    assert.error_matches(function() ui.ForEach({}, function() end):onDelete("all") end,
      "view:onDelete: a function (or nil) expected, got string", 1, true)
    local app = ui.mount(ui.List { ui.ForEach({ "p" }, function(v) return ui.Text(v) end):onDelete(function() end):onDelete(nil) })
    assert.error_matches(function() app:find("p"):delete() end, "is in no row of a ForEach with :onDelete", 1, true)
    app:unmount()
    app = ui.mount(ui.List { ui.ForEach({ "q" }, function(v) return ui.Text(v) end):onDelete(function() end) })
    assert.error_matches(function() app:find("q"):move(1) end, "move: the ForEach of Text \"q\"'s row has no :onMove", 1, true)
    app:unmount()
  end)
end)

-- EditMode: "a List with a ForEach that's configured with the
-- onDelete(perform:) or onMove(perform:) modifier provides controls to
-- delete or move list items while in edit mode"
-- (https://developer.apple.com/documentation/swiftui/editmode, iOS; macOS
-- has no editMode). Issue 19, session 9 (the documentation check's item 9):
-- an editMode in the environment that is off ("inactive") takes the move
-- controls away (no movable=, node:move refused); "active" (or "transient")
-- gives them back; with no editMode (nil), rows move as on macOS. A swipe's
-- Delete (node:delete) is no edit-mode control: it stays.
describe("editMode and onMove's controls", function()
  local Editable = ui.View("EditableList", { state = { items = { "a", "b", "c" }, mode = "inactive" }, body = function(self)
    return ui.VStack {
      ui.List {
        ui.ForEach(self.items, function(x) return ui.Text("item " .. x) end)
          :onMove(function(from, to)
            local moved = table.remove(self.items, from[1])
            table.insert(self.items, to > from[1] and to - 1 or to, moved)
          end)
          :onDelete(function(indices) table.remove(self.items, indices[1]) end),
      }:environment("editMode", self["$mode"]),
      ui.Button("Edit", function() self.mode = self.mode == "active" and "inactive" or "active" end),
    }
  end })

  it("rows move only while in edit mode; node:move out of it is an error naming the row", function()
    local app = ui.mount(Editable {})
    assert.falsy(app:tree():find("movable=true", 1, true), app:tree())
    assert.truthy(app:tree():find("deletable=true", 1, true))
    assert.error_matches(function() app:find("item a"):move(3) end,
      'move: Text "item a" cannot move: its List is not in edit mode (the editMode in its environment is "inactive"; set it to "active")',
      1, true)
    app:find("Edit"):tap()
    assert.truthy(app:tree():find("movable=true", 1, true), app:tree())
    app:find("item a"):move(3)
    assert.equal("b a c", titles(app, "item "))
    app:find("item c"):delete()                           -- a swipe's Delete, in any mode
    app:find("Edit"):tap()
    app:find("item a"):delete()
    assert.equal("b", titles(app, "item "))
    app:unmount()
  end)
end)

-- swipeActions(edge:allowsFullSwipe:content:): "Adds custom swipe actions to
-- a row in a list"; edge "The default is HorizontalEdge.trailing";
-- allowsFullSwipe "The default is true"
-- (https://developer.apple.com/documentation/swiftui/view/swipeactions(edge:allowsfullswipe:content:)).
describe("swipeActions", function()
  it("show their buttons after the row's content; a tap runs one", function()
    local Mail = ui.View("Mailbox", { state = { archived = 0 }, body = function(self)
      return ui.List {
        ui.ForEach({ "m1" }, function(id)
          return ui.Text("mail " .. id)
            :swipeActions({ ui.Button("Archive", function() self.archived = self.archived + 1 end) })
            :swipeActions({ ui.Button("Pin", function() end) }, { edge = "leading", allowsFullSwipe = false })
        end),
        ui.Text("archived " .. self.archived),
      }
    end })
    local app = ui.mount(Mail {})
    local tree = app:tree()
    assert.matches('      Text "mail m1"\n        SwipeActions edge="trailing"\n          Button "Archive"\n', tree, 1, true)
    local leading = tree:match('(SwipeActions [^\n]*)\n          Button "Pin"')
    assert.truthy(leading:find('edge="leading"', 1, true) and leading:find("allowsFullSwipe=false", 1, true), leading)
    app:find("Archive"):tap()
    assert.truthy(app:find("archived 1"))
    app:unmount()
  end)

  it("refuse options they do not have and content that is not a list of views", function()
    assert.error_matches(function() ui.Text("x"):swipeActions({}, { side = "leading" }) end,
      "view:swipeActions: unknown option 'side'", 1, true)
    assert.error_matches(function() ui.Text("x"):swipeActions({}, { edge = "top" }) end,
      'edge must be "trailing" or "leading", got "top"', 1, true)
    assert.error_matches(function() ui.Text("x"):swipeActions(ui.Button("a", function() end)) end,
      "view:swipeActions: a list of views expected", 1, true)
  end)
end)

-- searchable(text:placement:prompt:): "Marks this view as searchable, which
-- configures the display of a search field"
-- (https://developer.apple.com/documentation/swiftui/view/searchable(text:placement:prompt:)-1bjj3).
describe("searchable", function()
  it("adds a search field bound to the text; typing filters what the body shows", function()
    local Search = ui.View("SearchBooks", { state = { books = items, query = "" }, body = function(self)
      local rows = {}
      for _, book in ipairs(self.books) do
        if self.query == "" or book.title:lower():find(self.query:lower(), 1, true) then rows[#rows + 1] = book end
      end
      return ui.List(rows, function(book) return ui.Text("hit " .. book.title) end)
        :searchable(self["$query"], { prompt = "Find a book" })
    end })
    local app = ui.mount(Search {})
    local field = app:find("Find a book")
    assert.equal("TextField", field.type)
    assert.matches('TextField "Find a book" = "" searchable=true', app:tree(), 1, true)
    field:setText("ta")
    assert.equal("Beta", titles(app, "hit "))
    app:find("Find a book"):setText("")
    assert.equal("Alpha Beta Gamma", titles(app, "hit "))
    app:unmount()
    local plain = ui.mount(ui.Text("x"):searchable(ui.Binding.constant("")))
    assert.truthy(plain:find("Search"))                    -- the default prompt
    plain:unmount()
  end)

  it("refuses a second search field, a text that is no Binding and an option it does not know", function()
    assert.error_matches(function() ui.Text("x"):searchable(ui.Binding.constant("")):searchable(ui.Binding.constant("")) end,
      "view:searchable: this view is searchable already", 1, true)
    assert.error_matches(function() ui.Text("x"):searchable("q") end, "a Binding to the search text expected", 1, true)
    assert.error_matches(function() ui.Text("x"):searchable(ui.Binding.constant(""), { placement = "toolbar" }) end,
      "view:searchable: unknown option 'placement'", 1, true)
  end)
end)

-- refreshable(action:): "Adds an asynchronous handler that can update the
-- data the view displays when a person initiates a request, such as by
-- pulling to refresh" (https://developer.apple.com/documentation/swiftui/view/refreshable(action:));
-- "The indicator remains visible for the duration of the refresh, which runs
-- asynchronously" (https://developer.apple.com/documentation/swiftui/refreshaction).
describe("refreshable", function()
  local runs, cancelled
  local Feed = ui.View("Feed", { state = { loads = 0 }, body = function(self)
    return ui.List { ui.Text("loads " .. self.loads) }:refreshable(function()
      runs = runs + 1
      local ok, err = pcall(ui.sleep, 1)
      if not ok then cancelled = err == ui.CancellationError; error(err, 0) end
      self.loads = self.loads + 1
    end)
  end })

  before_each(function() runs, cancelled = 0, false end)

  it("runs its action as a task, awaited: the view shows refreshing until it ends; a second pull meanwhile does nothing", function()
    local app = ui.mount(Feed {})
    local list = app:find { type = "List" }
    assert.matches("List .refreshable()\n", app:tree(), 1, true)
    list:refresh()
    assert.matches("List .refreshable() refreshing=true", app:tree(), 1, true)
    ui.clock.advance(0)                                   -- the task starts (the next tick)
    assert.equal(1, runs)
    app:find { type = "List" }:refresh()                  -- still refreshing: nothing more
    ui.clock.advance(0.5)
    assert.equal(1, runs)
    ui.clock.advance(0.6)
    assert.truthy(app:find("loads 1"))
    assert.matches("List .refreshable()\n", app:tree(), 1, true)
    app:find { type = "List" }:refresh()
    ui.clock.advance(1.5)
    assert.equal(2, runs)
    assert.truthy(app:find("loads 2"))
    app:unmount()
  end)

  it("is cancelled when its view goes, as a task is", function()
    local Host = ui.View("FeedHost", { state = { shown = true }, body = function(self)
      return ui.VStack { self.shown and Feed {} or nil, ui.Button("hide", function() self.shown = false end) }
    end })
    local app = ui.mount(Host {})
    app:find { type = "List" }:refresh()
    ui.clock.advance(0)
    app:find("hide"):tap()
    ui.clock.advance(2)
    assert.is_true(cancelled)
    app:unmount()
  end)

  it("is refused on a view that has no :refreshable", function()
    local app = ui.mount(ui.List { ui.Text("x") })
    assert.error_matches(function() app:find { type = "List" }:refresh() end,
      "refresh: List cannot be refreshed (it has no :refreshable, and no refresh in its environment)", 1, true)
    app:unmount()
    assert.error_matches(function() ui.List {}:refreshable("now") end, "function expected", 1, true)
  end)
end)

-- refreshable(action:) "set[s] the refresh value in the view's environment to
-- a RefreshAction instance"; "When the refresh environment value contains an
-- instance of this structure, certain built-in views in the corresponding
-- Environment begin offering a refresh capability"; "By default, the
-- environment value is nil"; a custom view reads it and calls it
-- (https://developer.apple.com/documentation/swiftui/refreshaction,
-- https://developer.apple.com/documentation/swiftui/environmentvalues/refresh).
-- Issue 19, session 9.
describe("refreshable: the environment's refresh", function()
  local runs
  local Custom = ui.View("RefreshButton", { environment = { refresh = "refresh" }, body = function(self)
    return ui.Button(self.refresh and "Reload" or "cannot reload", function() self.refresh() end)
      :disabled(self.refresh == nil)
  end })
  local Page = ui.View("RefreshPage", { state = { loads = 0 }, body = function(self)
    return ui.VStack { ui.List { ui.Text("loads " .. self.loads) }, Custom {} }
      :refreshable(function() runs = runs + 1; ui.sleep(1); self.loads = self.loads + 1 end)
  end })

  before_each(function() runs = 0 end)

  it("a List inside a refreshable view offers the refresh; node:refresh() on it runs the action", function()
    local app = ui.mount(Page {})
    assert.matches("List refreshable=true", app:tree(), 1, true)
    app:find { type = "List" }:refresh()
    assert.matches("VStack .refreshable() refreshing=true", app:tree(), 1, true)
    ui.clock.advance(1.5)
    assert.equal(1, runs)
    assert.truthy(app:find("loads 1"))
    app:unmount()
  end)

  it("a List that offers the refresh shows refreshing=true while it runs, in its own body or another's", function()
    local Rows = ui.View("RefreshRows", function() return ui.List { ui.Text("row") } end)
    local Outer = ui.View("RefreshOuter", function()
      return ui.VStack { Rows {}, ui.List { ui.Text("here") } }
        :refreshable(function() ui.sleep(1) end)
    end)
    local app = ui.mount(Outer {})
    local function lists() local n = 0; for _ in app:tree():gmatch("List refreshable=true refreshing=true") do n = n + 1 end; return n end
    assert.equal(0, lists())
    app:find { type = "List" }:refresh()              -- the one in Rows' body
    ui.flush()
    assert.equal(2, lists())                           -- both Lists show it, as the view with :refreshable does
    ui.clock.advance(1.5)
    assert.equal(0, lists())
    app:unmount()
  end)

  it("a view reads refresh: a callable inside, nil outside; calling it refreshes once at a time", function()
    local app = ui.mount(ui.VStack { Page {}, Custom {} })
    local buttons = app:findAll { type = "Button" }
    assert.equal("Reload", buttons[1].text)
    assert.equal("cannot reload", buttons[2].text)       -- outside :refreshable: nil
    buttons[1]:tap()
    app:find("Reload"):tap()                              -- refreshing already: nothing more
    ui.clock.advance(1.5)
    assert.equal(1, runs)
    assert.truthy(app:find("loads 1"))
    app:unmount()
  end)

  it("is the same action from render to render, so its readers do not render again for it; it is read-only", function()
    local renders = 0
    local Counter = ui.View("RefreshReader", { environment = { refresh = "refresh" }, body = function(self)
      renders = renders + 1
      return ui.Text(tostring(self.refresh))
    end })
    local Outer = ui.View("RefreshOuter", { state = { n = 0 }, body = function(self)
      return ui.VStack { ui.Text("n " .. self.n), Counter {}, ui.Button("more", function() self.n = self.n + 1 end) }
        :refreshable(function() end)
    end })
    local app = ui.mount(Outer {})
    assert.truthy(app:find("RefreshAction"))
    app:find("more"):tap()
    assert.truthy(app:find("n 1"))
    assert.equal(1, renders)
    app:unmount()
    assert.error_matches(function() ui.Text("x"):environment("refresh", function() end) end,
      ':environment("refresh", …): refresh is read-only (:refreshable sets it for the views inside)', 1, true)
  end)
end)

-- A crafted border (t[2^52] = true on a view value's raw list) must not
-- hang the walk (issue 17's hostile read, applied to the extras the lists'
-- modifiers add).
describe("Lists against crafted view values", function()
  local function bordered(t)
    for i = #t + 1, 4 do rawset(t, i, ui.Text("x")) end
    for k = 52, 4, -1 do rawset(t, 1 << k, ui.Text("x")) end
    rawset(t, 8, ui.Text("8")); rawset(t, 5, ui.Text("5"))
    return t
  end

  it("a crafted border on a view's extras ends the walk with an error node #errors", function()
    local v = ui.Text("x"):toolbar({ ui.Button("a", function() end) })
    bordered(rawget(v, "extras"))
    local app = ui.mount(ui.View("CraftedExtras", function() return v end) {})
    assert.matches("extras has %d+ entries %(at most 1000000%)", app:tree())
    app:unmount()
  end)
end)


-- Found by the hostile read of session 10: a view value's :id is kept under
-- its own field (so a second :id is a clear error), and a List or ForEach
-- over view values keys each row by it, as ForEach identifies its views.
describe("Rows of view values keyed by their :id", function()
  it("a reordered list of view values with :id keeps each view's state with its id", function()
    local Counter = ui.View("IdCounter", { inputs = { "label" }, state = { n = 0 }, body = function(self)
      return ui.Button(self.label .. " " .. self.n, function() self.n = self.n + 1 end)
    end })
    local M = ui.Observable("IdOrder", { order = { "a", "b", "c" } })
    local m = M()
    local Root = ui.View("IdRows", function()
      local views = {}
      for _, k in ipairs(m.order) do views[#views + 1] = Counter { label = k }:id(k) end
      return ui.VStack { ui.List(views, function(v) return v end), ui.ForEach(views, function(v) return v end) }
    end)
    local app = ui.mount(Root {})
    app:findAll("a 0")[1]:tap()                       -- the List's "a" (the ForEach's stays at 0)
    m.order = { "c", "b", "a" }
    ui.flush()
    assert.equal(1, #app:findAll("a 1"))               -- its state went with "a", not with the first place
    assert.equal(1, #app:findAll("a 0"))
    assert.equal(0, #app:findAll("c 1"))
    app:unmount()
  end)
end)

-- Found by the second hostile read of session 10: a refresh action keeps
-- the Lists that offered it by their unit, and a unit gone may give its id
-- to another: only the Lists still mounted render again, and an action
-- whose view is gone does nothing.
describe("A refresh and the Lists that are gone", function()
  it("renders only the Lists that offer it now, and does nothing once its view is gone", function()
    local Box = ui.Observable("GoneRefreshBox", { show = true, page = true })
    local box = Box()
    local stash, ran = nil, 0
    local Rows = ui.View("GoneRefreshRows", function() return ui.List { ui.Text("row") } end)
    local Reader = ui.View("GoneRefreshReader", { environment = { refresh = "refresh" }, body = function(self)
      stash = self.refresh
      return ui.Text("reader")
    end })
    local Outer = ui.View("GoneRefreshOuter", function(self)
      return ui.VStack { self.box.show and Rows {} or ui.Text("no rows"), ui.List { ui.Text("here") }, Reader {} }
        :refreshable(function() ran = ran + 1; ui.sleep(1) end)
    end)
    local app = ui.mount(ui.View("GoneRefreshRoot", function(self)
      return self.box.page and Outer { box = self.box } or ui.Text("elsewhere")
    end) { box = box })
    box.show = false                                   -- Rows, which offered the refresh, goes
    ui.flush()
    local runs = {}
    for i = 1, 6 do runs[i] = 0; ui.effect(function() runs[i] = runs[i] + 1 end) end   -- they may take its id
    app:find { type = "List" }:refresh()
    ui.clock.advance(1.5)
    assert.same({ 1, 1, 1, 1, 1, 1 }, runs)
    assert.equal(1, ran)
    box.page = false                                   -- the view with :refreshable goes
    ui.flush()
    stash()                                            -- its action, called from elsewhere
    ui.clock.advance(1.5)
    assert.equal(1, ran)
    assert.same({ 1, 1, 1, 1, 1, 1 }, runs)
    app:unmount()
  end)
end)

-- Found by the second hostile read of session 10: view values without :id
-- are new tables each render; their rows are keyed by their place.
describe("Rows of view values without :id", function()
  it("keep their state across a re-render that changes nothing about them", function()
    local appears = 0
    local Counter = ui.View("NoIdCounter", { inputs = { "label" }, state = { n = 0 }, body = function(self)
      return ui.Button(self.label .. " " .. self.n, function() self.n = self.n + 1 end)
        :onAppear(function() appears = appears + 1 end)
    end })
    local M = ui.Observable("NoIdTick", { tick = 0 })
    local m = M()
    local app = ui.mount(ui.View("NoIdRows", function()
      return ui.VStack { ui.Text("tick " .. m.tick), ui.List({ Counter { label = "a" }, Counter { label = "b" } },
        function(v) return v end) }
    end) {})
    app:find("a 0"):tap()
    local before = appears
    m.tick = 1
    ui.flush()
    assert.truthy(app:find("a 1"))
    assert.equal(before, appears)
    app:unmount()
  end)
end)

-- A hostile read (session 24): a collection whose __len gave no integer
-- showed "object length is not an integer", with no place and no value.
describe("Rows over a collection object", function()
  it("a __len that gives no integer is the list's error, naming where its rows are made and what it gave", function()
    local Bag = {}
    Bag.__index = Bag
    Bag.__len = function(self) return self.count end     -- count was never set
    local bag = setmetatable({ "a", "b" }, Bag)
    local BagShelf = ui.View("BagShelf", function()
      return ui.VStack { ui.ForEach(bag, function(x) return ui.Text(x) end) }
    end)
    local function tree(count, error)
      bag.count = count
      local app = ui.mount(BagShelf())
      if error then assert.has_error_node(app, error) end   -- expected: not the test's failure
      local text = app:tree()
      app:unmount()
      return text
    end
    assert.matches("lists_spec.lua:%d+: the rows' data has a length %(#%) of nil, not an integer %(its __len gave it%)",
      tree(nil, "the rows' data has a length (#) of nil, not an integer (its __len gave it)"))
    assert.matches("a length %(#%) of 2%.5, not an integer", tree(2.5, "a length (#) of 2.5, not an integer"))
    local rows = 'BagShelf\n  VStack\n    ForEach\n      Text "a"\n      Text "b"\n'
    assert.equal(rows, tree(2))
    assert.equal(rows, tree(2.0))                          -- lengths luaL_len takes
    assert.equal(rows, tree("2"))
  end)
end)
