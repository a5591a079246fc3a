-- Where Lua differs from Swift (SEMANTICS F01-F09): Lunette behaves as SwiftUI does.
local ui = require("lunette")

-- F03: "A view inherits its environment from its container view, subject to
-- explicit changes from an environment(_:_:) view modifier"
-- (https://developer.apple.com/documentation/swiftui/environment-values,
--  https://developer.apple.com/documentation/swiftui/view/environment(_:_:)):
-- the modifier closest to the view sets what it reads.
-- F05: ObservableObject "synthesizes an objectWillChange publisher that emits
-- the changed value before any of its @Published properties changes"
-- (https://developer.apple.com/documentation/combine/observableobject);
-- @Observable (SE-0395, https://github.com/swiftlang/swift-evolution/blob/main/proposals/0395-observability.md)
-- tracks the properties a view reads. F08 is Lua's own (a typo Swift would
-- not compile).
describe("Fidelity", function()
  it("F03 the innermost :environment wins, by key and by type", function()
    local Theme = ui.Observable("FidelityTheme", { name = "plain" })
    ui.EnvironmentKey("fidelityAccent", "blue")
    local Reader = ui.View("FidelityReader", {
      environment = { accent = "fidelityAccent", theme = Theme },
      body = function(self) return ui.Text(self.accent .. "/" .. self.theme.name) end,
    })
    local inner, outer = Theme { name = "inner" }, Theme { name = "outer" }
    local app = ui.mount(ui.VStack {
      Reader():environment("fidelityAccent", "green"):environment(inner)
        :environment("fidelityAccent", "red"):environment(outer),
    })
    assert.truthy(app:find("green/inner"))
    app:unmount()
  end)

  it("F05 @Published emits objectWillChange on every set; @Observable notifies nobody on an equal write", function()
    local Old = ui.ObservableObject("FidelityOld", { n = ui.Published(1) })
    local New = ui.Observable("FidelityNew", { n = 1 })
    local old, new = Old(), New()
    local emitted, runs = 0, 0
    local c = old.objectWillChange:sink(function() emitted = emitted + 1 end)
    old.n = 1
    old.n = 1
    assert.equal(2, emitted)
    c:cancel()
    local e = ui.effect(function() runs = runs + 1; local _ = new.n end)
    new.n = 1
    ui.flush()
    assert.equal(1, runs)
    e:cancel()
  end)

  it("F08 unknown sections, undeclared state writes and unknown property reads are errors naming the type and the name", function()
    assert.error_matches(function()
      ui.View("Typo", { stat = { n = 0 }, body = function() return ui.Text("x") end })
    end, "ui.View('Typo'): unknown section 'stat'", 1, true)
    local Book = ui.Observable("FidelityBook", { title = "t" })
    local book = Book()
    assert.error_matches(function() return book.titel end, "FidelityBook has no property 'titel' to read", 1, true)
    local app = ui.mount(ui.View("Undeclared", function(self) self.count = 1 return ui.Text("x") end)())
    assert.has_error_node(app, "Undeclared: cannot assign to 'count'")
    app:unmount()
  end)
end)

-- Structural identity: a ViewBuilder gives each child its place in the
-- container, and an `if` without `else` builds an optional view in its place
-- (https://developer.apple.com/documentation/swiftui/viewbuilder), so showing
-- or hiding one child does not move its siblings.
describe("Fidelity: identity", function()
  local Counter = ui.View("FidelityCounter", { state = { n = 0 }, body = function(self)
    return ui.Button("n " .. self.n, function() self.n = self.n + 1 end)
  end })
  local Banner = ui.View("FidelityBanner", function() return ui.Text("banner") end)

  it("F02 a nil child keeps its slot: showing or hiding it keeps its siblings' state", function()
    local Screen = ui.View("FidelityScreen", { state = { show = false }, body = function(self)
      return ui.VStack {
        self.show and Banner {} or nil,
        Counter {},
        ui.Button("toggle", function() self.show = not self.show end),
      }
    end })
    local app = ui.mount(Screen {})
    app:find("n 0"):tap()
    app:find("n 1"):tap()
    app:find("toggle"):tap()
    assert.truthy(app:find("banner"))
    assert.truthy(app:find("n 2"))
    app:find("toggle"):tap()
    assert.truthy(app:find("n 2"))
    app:unmount()
  end)

  it("F02 children inside a nested plain array keep their slots too", function()
    local Screen = ui.View("FidelityNested", { state = { show = true }, body = function(self)
      return ui.VStack {
        { self.show and ui.Text("a") or nil, Counter {} },
        ui.Button("toggle", function() self.show = not self.show end),
      }
    end })
    local app = ui.mount(Screen {})
    app:find("n 0"):tap()
    app:find("toggle"):tap()
    assert.truthy(app:find("n 1"))
    app:unmount()
  end)

  -- A child's key holds its path in the parent's output: the first four
  -- steps inline, the rest apart. Two views whose paths differ only past
  -- the fourth step are different places: hiding one keeps the other's state.
  it("F02 views deep inside one body keep their state by their whole path", function()
    local Second = ui.View("FidelityDeepSecond", { state = { n = 0 }, body = function(self)
      return ui.Button("second " .. self.n, function() self.n = self.n + 1 end)
    end })
    local Screen = ui.View("FidelityDeep", { state = { show = true }, body = function(self)
      local inner = ui.HStack { self.show and Counter {} or nil, Counter {}, Second {} }
      for _ = 1, 6 do inner = ui.VStack { inner } end
      return ui.VStack { inner, ui.Button("hide", function() self.show = false end) }
    end })
    local app = ui.mount(Screen {})
    assert.are.equal(2, #app:findAll({ type = "FidelityCounter" }))
    app:find("n 0"):tap()                             -- the first: 1, then 2
    app:find("n 1"):tap()
    app:find("second 0"):tap()
    assert.truthy(app:find("n 2") and app:find("n 0"))
    app:find("hide"):tap()                            -- the first goes; the second keeps its own state
    assert.are.equal(1, #app:findAll({ type = "FidelityCounter" }))
    assert.truthy(app:find("n 0"))
    assert.is_nil(app:find("n 2"))
    assert.truthy(app:find("second 1"))
    app:unmount()
  end)
end)

-- Swift's arrays and dictionaries are values: "Structures and Enumerations
-- Are Value Types", while classes are references
-- (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/classesandstructures/).
describe("Fidelity: values", function()
  local List = ui.Observable("FidelityList", { items = function() return { "a" } end })

  it("F04 a table stored from one model into another is a copy, as a Swift array is", function()
    local a, b = List(), List()
    b.items = a.items
    table.insert(b.items, "x")
    assert.same({ "a" }, { table.unpack(a.items) })
    assert.same({ "a", "x" }, { table.unpack(b.items) })
    local runs = 0
    local e = ui.effect(function() runs = runs + 1; local _ = #a.items end)
    table.insert(b.items, "y")
    ui.flush()
    assert.equal(1, runs)                        -- a's readers are not touched by b's writes
    e:cancel()
  end)

  it("F04 a table given at construction or kept in state is the model's own", function()
    local shared = { "s" }
    local a, b = List { items = shared }, List { items = shared }
    table.insert(a.items, "t")
    assert.equal(1, #shared)
    assert.equal(1, #b.items)
    local seed = { n = 1 }
    local Child = ui.View("FidelityChild", { state = { mine = function(self) return self.seed end }, body = function(self)
      return ui.Button("n " .. self.mine.n, function() self.mine.n = self.mine.n + 1 end)
    end })
    local app = ui.mount(Child { seed = seed })
    app:find("n 1"):tap()
    assert.truthy(app:find("n 2"))
    assert.equal(1, seed.n)                      -- the parent's table is not written through
    app:unmount()
  end)

  it("F04 a table written into a model's table is a copy too", function()
    local Holder = ui.Observable("FidelityNested", { rows = function() return {} end })
    local h, row = Holder(), { n = 1 }
    h.rows[1] = row
    row.n = 2                                    -- the caller's table, not the model's
    assert.equal(1, h.rows[1].n)
    table.insert(h.rows, row)
    row.n = 3
    assert.equal(2, h.rows[2].n)
  end)

  it("F04 an element moved within its own list (table.insert, table.sort) is the same table, not a copy", function()
    local Holder = ui.Observable("FidelityMoved", { rows = function() return { { x = 1 }, { x = 2 } } end })
    local h = Holder()
    local first = h.rows[1]
    table.insert(h.rows, 1, { x = 0 })           -- moves both elements up by one
    first.x = 5                                  -- the element read before the move is the one in the list
    assert.equal(5, h.rows[2].x)
    table.sort(h.rows, function(a, b) return a.x > b.x end)
    assert.equal(h.rows[1], first)
  end)

  it("F04 models, functions and Swift objects stay references", function()
    local Holder = ui.Observable("FidelityHolder", { ref = ui.ignored(nil), list = function() return {} end })
    local h, inner = Holder(), List()
    h.list = { inner }
    assert.equal(inner, h.list[1])
  end)
end)

-- An if/else in a ViewBuilder produces conditional content:
-- buildEither(first:) "Produces content for a conditional statement in a
-- multi-statement closure when the condition is true", buildEither(second:)
-- when it is false (https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:),
-- https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)):
-- the two branches are different views. Views a loop builds are identified
-- as ForEach identifies its data (https://developer.apple.com/documentation/swiftui/foreach).
describe("Fidelity: branches", function()
  local Counter = ui.View("FidelityBranchCounter", { state = { n = 0 }, body = function(self)
    return ui.Button(self.label .. " " .. self.n, function() self.n = self.n + 1 end)
  end })

  it("F01 views built in different branches of a plain if are different identities", function()
    local Screen = ui.View("FidelityBranches", { state = { flag = true }, body = function(self)
      local counter
      if self.flag then
        counter = Counter { label = "A" }
      else
        counter = Counter { label = "B" }
      end
      return ui.VStack { counter, ui.Button("flip", function() self.flag = not self.flag end) }
    end })
    local app = ui.mount(Screen {})
    app:find("A 0"):tap()
    assert.truthy(app:find("A 1"))
    app:find("flip"):tap()
    assert.truthy(app:find("B 0"))                -- a new identity: fresh state
    app:find("flip"):tap()
    assert.truthy(app:find("A 0"))
    app:unmount()
  end)

  it("F01 views built at one place in a loop keep their identities by position", function()
    local Screen = ui.View("FidelityLoop", { state = { extra = false }, body = function(self)
      local rows = {}
      for i = 1, self.extra and 3 or 2 do rows[i] = Counter { label = "row" .. i } end
      return ui.VStack { rows, ui.Button("more", function() self.extra = true end) }
    end })
    local app = ui.mount(Screen {})
    app:find("row1 0"):tap()
    app:find("more"):tap()
    assert.truthy(app:find("row1 1"))
    assert.truthy(app:find("row3 0"))
    app:unmount()
  end)
end)

-- task(id:priority:_:): "Adds a task to perform before this view appears or
-- when a specified value changes"; the task is cancelled when the view goes
-- or the id changes (https://developer.apple.com/documentation/swiftui/view/task(id:priority:_:)).
-- A cancelled task sees CancellationError from its waits and
-- Task.isCancelled (https://developer.apple.com/documentation/swift/cancellationerror,
-- https://developer.apple.com/documentation/swift/task/iscancelled).
describe("Fidelity: tasks", function()
  it("F06 :task(fn, { id = v }) is cancelled and started again when v changes, kept while it does not", function()
    local log = {}
    local Episode = ui.View("FidelityEpisode", { state = { id = 1, other = 0 }, body = function(self)
      local id = self.id
      return ui.VStack {
        ui.Text("episode " .. id .. " " .. self.other):task(function()
          log[#log + 1] = "start " .. id
          ui.sleep(10)
          log[#log + 1] = "done " .. id
        end, { id = id }),
        ui.Button("next", function() self.id = self.id + 1 end),
        ui.Button("other", function() self.other = self.other + 1 end),
      }
    end })
    local app = ui.mount(Episode {})
    ui.clock.advance(0)
    app:find("other"):tap()                         -- re-renders with the same id: the task goes on
    app:find("next"):tap()                          -- a new id: cancelled, started again
    ui.clock.advance(10)
    assert.same({ "start 1", "start 2", "done 2" }, log)
    app:unmount()
  end)

  it("F06 a cancelled task sees ui.CancellationError from its wait: pcall catches it, <close> variables close, ui.isCancelled() is true", function()
    local log = {}
    local closer = setmetatable({}, { __close = function() log[#log + 1] = "closed" end })
    local Worker = ui.View("FidelityWorker", function()
      return ui.Text("working"):task(function()
        local guard <close> = closer
        local ok, err = pcall(ui.sleep, 10)
        log[#log + 1] = (ok and "slept" or tostring(err)) .. " " .. tostring(err == ui.CancellationError)
        log[#log + 1] = "cancelled " .. tostring(ui.isCancelled())
        local again = pcall(ui.sleep, 1)                -- every later wait raises at once
        log[#log + 1] = "again " .. tostring(again)
        ui.sleep(1)                                     -- uncaught: ends the task, not a failure
        log[#log + 1] = "never"
      end)
    end)
    local Host = ui.View("FidelityHost", { state = { show = true }, body = function(self)
      return ui.VStack { self.show and Worker {} or nil, ui.Button("hide", function() self.show = false end) }
    end })
    local app = ui.mount(Host {})
    ui.clock.advance(0)
    assert.same({}, log)
    app:find("hide"):tap()
    assert.same({ "CancellationError: the task was cancelled true", "cancelled true", "again false", "closed" }, log)
    assert.same({}, app:warnings())
    ui.clock.advance(20)
    assert.equal(4, #log)
    app:unmount()
  end)

  -- A hostile read (session 24): a task whose own step unmounted its view,
  -- or called ui.reset(), was forgotten rather than cancelled: it ran on,
  -- ui.isCancelled() said false and its next ui.sleep said it was not in a task.
  it("F06 a task whose own step ends its view is cancelled: ui.isCancelled() is true, its next wait raises", function()
    for _, ending in ipairs({ "unmount", "reset" }) do
      local log, app = {}, nil
      local Worker = ui.View("FidelitySelfEnding", function()
        return ui.Text("working"):task(function()
          ui.sleep(1)
          if ending == "unmount" then app:unmount() else ui.reset() end
          log[#log + 1] = "cancelled " .. tostring(ui.isCancelled())
          local ok, err = pcall(ui.sleep, 1)
          log[#log + 1] = tostring(ok) .. " " .. tostring(err == ui.CancellationError)
          ui.sleep(1)                                     -- uncaught: ends the task, not a failure
          log[#log + 1] = "never"
        end)
      end)
      app = ui.mount(Worker())
      ui.clock.advance(1)
      assert.same({ "cancelled true", "false true" }, log, ending)
      ui.clock.advance(5)
      assert.equal(2, #log, ending)
    end
  end)

  it("F06 outside a task ui.isCancelled() is false, and CancellationError is one sealed value", function()
    assert.is_false(ui.isCancelled())
    assert.equal("CancellationError: the task was cancelled", tostring(ui.CancellationError))
    assert.equal("lunette.CancellationError", getmetatable(ui.CancellationError))
  end)
end)

-- task(priority:_:) runs its action asynchronously
-- (https://developer.apple.com/documentation/swiftui/view/task(priority:_:)):
-- the view's first frame is shown before what the task loads.
describe("Fidelity: the first frame", function()
  it("F07 tasks start after the first update is committed: the first frame shows, then the loaded one", function()
    local Loader = ui.View("FidelityLoader", { state = { status = "loading…" }, body = function(self)
      return ui.Text(self.status):task(function() self.status = "loaded" end)
    end })
    local app = ui.mount(Loader {})
    assert.truthy(app:find("loading…"))
    ui.clock.advance(0)
    assert.truthy(app:find("loaded"))
    app:unmount()
  end)
end)

-- onChange(of:initial:_:) compares values, `V : Equatable`
-- (https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)):
-- an array compares its contents.
describe("Fidelity: onChange", function()
  local Shelf = ui.Observable("FidelityShelf", { items = { "a" } })

  local function watching(shelf, log)
    return ui.View("FidelityWatcher", function(self)
      return ui.Text(#self.shelf.items .. " items"):onChange(self.shelf.items, function(old, new)
        log[#log + 1] = table.concat(old, ",") .. " -> " .. table.concat(new, ",")
      end)
    end) { shelf = shelf }
  end

  it("F10 onChange of a table fires when its contents change in place; old is a snapshot", function()
    local shelf, log = Shelf(), {}
    local app = ui.mount(watching(shelf, log))
    table.insert(shelf.items, "b")
    ui.flush()
    assert.same({ "a -> a,b" }, log)
    shelf.items[1] = "z"
    ui.flush()
    assert.same({ "a -> a,b", "a,b -> z,b" }, log)
    app:unmount()
  end)

  it("F10 onChange of a table does not fire when it is replaced by an equal one, nested tables included", function()
    local shelf, log = Shelf(), {}
    shelf.items = { "a", { 1, 2 } }
    local View = ui.View("FidelityNested", function(self)
      return ui.Text(tostring(#self.shelf.items)):onChange(self.shelf.items, function() log[#log + 1] = "fired" end)
    end)
    local app = ui.mount(View { shelf = shelf })
    shelf.items = { "a", { 1, 2 } }
    ui.flush()
    assert.same({}, log)
    shelf.items = { "a", { 1, 3 } }
    ui.flush()
    assert.same({ "fired" }, log)
    app:unmount()
  end)

  it("F10 onChange of a model or a table with a metatable compares references", function()
    local shelf, other, log = Shelf(), Shelf(), {}
    local Holder = ui.Observable("FidelityHolder", { shelf = shelf })
    local holder = Holder()
    local View = ui.View("FidelityRef", function(self)
      return ui.Text("x"):onChange(self.holder.shelf, function() log[#log + 1] = "fired" end)
    end)
    local app = ui.mount(View { holder = holder })
    shelf.items = { "changed" }
    ui.flush()
    assert.same({}, log)
    holder.shelf = other
    ui.flush()
    assert.same({ "fired" }, log)
    app:unmount()
  end)
end)

describe("Fidelity: declarations", function()
  it("F11 state declared ui.none starts nil and is writable; Observable properties too", function()
    local Loader = ui.View("FidelityOptional", { state = { library = ui.none }, body = function(self)
      return ui.VStack {
        ui.Text(self.library and ("loaded " .. self.library) or "no library"),
        ui.Button("load", function() self.library = "mine" end),
        ui.Button("unload", function() self.library = nil end),
      }
    end })
    local app = ui.mount(Loader {})
    assert.truthy(app:find("no library"))
    app:find("load"):tap()
    assert.truthy(app:find("loaded mine"))
    app:find("unload"):tap()
    assert.truthy(app:find("no library"))
    local Shelf = ui.Observable("FidelityMaybe", { current = ui.none })
    local shelf = Shelf()
    assert.is_nil(shelf.current)
    shelf.current = 3
    assert.equal(3, shelf.current)
    app:unmount()
  end)

  it("F11 a write to an undeclared name is an error with file:line, not 'inputs are read-only'", function()
    local V = ui.View("FidelityUndeclared", { state = { count = 0 }, body = function(self)
      return ui.Button("go", function() self.cuont = 1 end)
    end })
    local app = ui.mount(V {})
    local ok, err = pcall(function() app:find("go"):tap() end)
    assert.is_false(ok)
    assert.matches("fidelity_spec.lua:%d+: FidelityUndeclared: cannot assign to 'cuont': it is not declared %(did you mean 'count'%?%)", tostring(err))
    local W = ui.View("FidelityInput", function(self) self.label = "x" return ui.Text("w") end)
    local app2 = ui.mount(W { label = "given" })
    assert.has_error_node(app2, "FidelityInput: cannot assign to 'label' (inputs are read-only")
    app:unmount()
    app2:unmount()
  end)
end)

describe("Fidelity: typos", function()
  it("F12 a misspelt section or property says which name was meant", function()
    assert.error_matches(function()
      ui.View("Typo", { states = { n = 0 }, body = function() return ui.Text("x") end })
    end, "unknown section 'states' (did you mean 'state'?)", 1, true)
    assert.error_matches(function()
      ui.View("Typo", { sate = { n = 0 }, body = function() return ui.Text("x") end })
    end, "unknown section 'sate' (did you mean 'state'?)", 1, true)
    local Book = ui.Observable("FidelityTypoBook", { title = "t", author = "a" })
    local book = Book()
    assert.error_matches(function() return book.titel end, "FidelityTypoBook has no property 'titel' to read (did you mean 'title'?)", 1, true)
    assert.error_matches(function() book.autor = "b" end, "(did you mean 'author'?)", 1, true)
    assert.error_matches(function() return ui.Bindable(book).tilte end, "(did you mean 'title'?)", 1, true)
    assert.error_matches(function() return book.zzzzzz end, "has no property 'zzzzzz' to read", 1, true)
    local ok, err = pcall(function() return book.zzzzzz end)
    assert.is_nil(tostring(err):find("did you mean", 1, true))
  end)
end)

-- List(_:rowContent:) "Creates a list that computes its rows on demand from
-- an underlying collection of identifiable data"
-- (https://developer.apple.com/documentation/swiftui/list/init(_:rowcontent:)-3vn6i).
describe("Fidelity: lazy lists", function()
  local function rows(n)
    local t = {}
    for i = 1, n do t[i] = "row " .. i end
    return t
  end

  it("F13 a List says which rows it did not realise, in the text tree", function()
    local app = ui.mount(ui.List(rows(200), function(r) return ui.Text(r) end))
    local tree = app:tree()
    assert.matches('Text "row 50"\n  … 150 more rows\n$', tree)
    assert.is_nil(tree:find("row 51", 1, true))
    app:unmount()
  end)

  it("F13 find says a match may lie outside a List's window; node:scroll brings the row in", function()
    local app = ui.mount(ui.List(rows(200), function(r) return ui.Button(r, function() end) end))
    local node, why = app:find("row 150")
    assert.is_nil(node)
    assert.matches("Lists hold 150 rows outside their windows", why)
    app:find({ type = "List" }):scroll(150)
    assert.truthy(app:find("row 150"))
    assert.is_nil(app:find("row 1"))
    local tree = app:tree()
    assert.matches("^List\n  … 149 rows before\n  Button \"row 150\"", tree)
    app:find({ type = "List" }):scroll(190)             -- as far as the rows go: the last 50
    assert.truthy(app:find("row 151"))
    assert.truthy(app:find("row 200"))
    assert.matches("… 150 rows before", app:tree())
    assert.is_nil(app:tree():find("more rows", 1, true))
    local _, none = app:find("no such row")
    assert.matches("150 rows outside", none)
    app:unmount()
  end)

  it("F13 a row keeps its state when scrolling moves it within the window; scroll needs a List", function()
    local Row = ui.View("FidelityRow", { state = { taps = 0 }, body = function(self)
      return ui.Button(self.label .. " " .. self.taps, function() self.taps = self.taps + 1 end)
    end })
    local app = ui.mount(ui.List(rows(100), function(r) return Row { label = r } end))
    app:find("row 40 0"):tap()
    app:find({ type = "List" }):scroll(30)
    assert.truthy(app:find("row 40 1"))
    assert.error_matches(function() app:find("row 40 1"):scroll(1) end, "scroll: Button \"row 40 1\" is not a List", 1, true)
    app:unmount()
  end)
end)

-- DynamicProperty: "An interface for a stored variable that updates an
-- external property of a view"; update(): "The view gives values to these
-- properties prior to recomputing the view's body"
-- (https://developer.apple.com/documentation/swiftui/dynamicproperty,
--  https://developer.apple.com/documentation/swiftui/dynamicproperty/update()).
describe("Fidelity: DynamicProperty", function()
  local Paged = ui.DynamicProperty("Paged", {
    state = { page = 1 },
    environment = { size = "fidelityPageSize" },
    update = function(p) local _ = p.page end,
  })
  ui.EnvironmentKey("fidelityPageSize", 10)

  it("F14 a DynamicProperty bundles state and environment a view includes; update runs before each body", function()
    local log = {}
    local Counted = ui.DynamicProperty("Counted", {
      state = { page = 1, seen = 0 },
      environment = { size = "fidelityPageSize" },
      update = function(p) log[#log + 1] = "update " .. p.page .. "/" .. p.size end,
    })
    function Counted:next() self.page = self.page + 1 end
    local Feed = ui.View("FidelityFeed", { properties = { paged = Counted }, body = function(self)
      log[#log + 1] = "body"
      return ui.VStack {
        ui.Text("page " .. self.paged.page .. " of size " .. self.paged.size),
        ui.Button("next", function() self.paged:next() end),
        ui.TextField("page", self.paged["$page"]),
      }
    end })
    local app = ui.mount(Feed {}:environment("fidelityPageSize", 25))
    assert.truthy(app:find("page 1 of size 25"))
    app:find("next"):tap()
    assert.truthy(app:find("page 2 of size 25"))
    assert.same({ "update 1/25", "body", "update 2/25", "body" }, log)
    assert.equal(2, app:renders("FidelityFeed"))
    app:unmount()
  end)

  it("F14 each view instance has its own; a read in update is the view's dependency", function()
    local Book = ui.Observable("FidelityDynBook", { title = "t" })
    local book = Book()
    local Titled = ui.DynamicProperty("Titled", {
      state = { shown = "" },
      update = function(p) p.shown = book.title:upper() end,
    })
    local V = ui.View("FidelityTitled", { properties = { t = Titled }, body = function(self)
      return ui.Button(self.label .. " " .. self.t.shown, function() self.t.shown = "tapped" end)
    end })
    local app = ui.mount(ui.VStack { V { label = "a" }, V { label = "b" } })
    assert.truthy(app:find("a T"))
    book.title = "dune"
    ui.flush()
    assert.truthy(app:find("a DUNE"))
    assert.truthy(app:find("b DUNE"))
    app:unmount()
  end)

  it("F14 mistakes name the property: unknown names, writes to environment, bad definitions", function()
    local V = ui.View("FidelityPagedTypo", { properties = { paged = Paged }, body = function(self)
      return ui.Text(tostring(self.paged.pgae))
    end })
    local app = ui.mount(V {})
    assert.has_error_node(app, "Paged (property 'paged'): no 'pgae' to read (did you mean 'page'?)")
    app:unmount()
    local W = ui.View("FidelityPagedWrite", { properties = { paged = Paged }, body = function(self)
      self.paged.size = 3
      return ui.Text("x")
    end })
    local app2 = ui.mount(W {})
    assert.has_error_node(app2, "no 'size' to write")
    app2:unmount()
    assert.error_matches(function() ui.DynamicProperty("Bad", { stat = {} }) end, "unknown section 'stat' (did you mean 'state'?)", 1, true)
    assert.error_matches(function()
      ui.View("FidelityTwice", { state = { ["paged.page"] = 1 }, properties = { paged = Paged }, body = function() end })
    end, "'paged.page' is declared twice", 1, true)
    assert.error_matches(function()
      ui.View("FidelityNotProp", { properties = { paged = {} }, body = function() end })
    end, "properties entry 'paged' must be a ui.DynamicProperty", 1, true)
    assert.equal("DynamicProperty Paged", tostring(Paged))
  end)
end)

-- DynamicProperty: "An interface for a stored variable that updates an
-- external property of a view" — SwiftUI updates every dynamic property a
-- DynamicProperty holds (@State, @Environment, @AppStorage, @SceneStorage,
-- @FocusState, @StateObject, @EnvironmentObject, …) before the body.
-- https://developer.apple.com/documentation/swiftui/dynamicproperty
-- An appStorage name is its store key (https://developer.apple.com/documentation/swiftui/appstorage),
-- so a property's is stored under its own name, not the dotted one.
describe("DynamicProperty holds any dynamic property", function()
  local Prefs = ui.ObservableObject("FidelityPrefs", { theme = ui.Published("light") })

  it("F14 a property's appStorage is kept under its own key, shared with a view's declaration of that key", function()
    local Launches = ui.DynamicProperty("Launches", {
      appStorage = { launches = 0, user = ui.AppStorage("user.name", "anon") },
    })
    function Launches:bump() self.launches = self.launches + 1 end
    local V = ui.View("FidelityLaunches", {
      properties = { counter = Launches },
      appStorage = { launches = 0, userName = ui.AppStorage("user.name", "?") },
      body = function(self)
        return ui.VStack {
          ui.Text("property " .. self.counter.launches .. ", view " .. self.launches),
          ui.Text("user " .. self.counter.user .. "/" .. self.userName),
          ui.Button("bump", function() self.counter:bump() end),
          ui.TextField("user", self.counter["$user"]),
        }
      end,
    })
    local app = ui.mount(V {})
    assert.truthy(app:find("property 0, view 0"))
    assert.truthy(app:find("user anon/?"))
    app:find("bump"):tap()
    app:find("user"):setText("zed")
    ui.flush()
    assert.truthy(app:find("property 1, view 1"))
    assert.truthy(app:find("user zed/zed"))
    app:unmount()
  end)

  it("F14 a property's sceneStorage, focusState, stateObject and environmentObject work as the view's own", function()
    local made = 0
    local Bundle = ui.DynamicProperty("Bundle", {
      sceneStorage = { tab = 1 },
      focusState = { "field" },
      stateObject = { prefs = function() made = made + 1; return Prefs() end },
      environmentObject = { shared = Prefs },
    })
    local V = ui.View("FidelityBundle", { properties = { b = Bundle }, state = { n = 0 }, body = function(self)
      local b = self.b
      return ui.VStack {
        ui.Text("tab " .. b.tab .. " field " .. tostring(b.field) .. " theme " .. b.prefs.theme .. " shared " .. b.shared.theme),
        ui.TextField("name", ui.Binding.constant("")):focused(b["$field"], "name"),
        ui.Button("tab", function() b.tab = 2 end),
        ui.Button("again", function() self.n = self.n + 1 end),
      }
    end })
    local shared = Prefs()
    local app = ui.mount(V {}:environmentObject(shared))
    assert.truthy(app:find("tab 1 field nil theme light shared light"))
    app:find("tab"):tap()
    app:find("name"):focus()
    ui.flush()
    assert.truthy(app:find("tab 2 field name theme light shared light"))
    shared.theme = "dark"
    ui.flush()
    assert.truthy(app:find("tab 2 field name theme light shared dark"))
    app:find("again"):tap()
    ui.flush()
    assert.equal(1, made)
    app:unmount()
  end)

  it("F14 a nested entry that is no property is an error; storage defaults are checked", function()
    local ok, err = pcall(function() return ui.DynamicProperty("Nested", { properties = { inner = {} } }) end)
    assert.matches("properties entry 'inner' must be a ui.DynamicProperty under a plain name", err)
    ok, err = pcall(function() return ui.DynamicProperty("BadStore", { appStorage = { f = print } }) end)
    assert.is_false(ok)
    assert.matches("BadStore", err)
    ok, err = pcall(function() return ui.DynamicProperty("NotTable", { appStorage = 3 }) end)
    assert.matches("ui.DynamicProperty%('NotTable'%): section 'appStorage' must be a table, got number", err)
    ok, err = pcall(function() return ui.View("FidelitySceneMarker", { sceneStorage = { tab = ui.AppStorage("t", 1) }, body = function() end }) end)
    assert.matches("sceneStorage 'tab' takes its default", err)
  end)
end)

-- DynamicProperty's conforming types include the property wrappers a
-- property may hold (https://developer.apple.com/documentation/swiftui/dynamicproperty);
-- a DynamicProperty is itself one, so it may hold another, and "The view
-- gives values to these properties prior to recomputing the view's body"
-- (update(): https://developer.apple.com/documentation/swiftui/dynamicproperty/update()).
-- Apple does not spell out nesting; SwiftUI updates a property's fields
-- before it. Issue 19, session 9 (the documentation check's item 13).
describe("DynamicProperty holding DynamicProperties", function()
  it("F14 a property may hold properties: their state is per view instance, updates run innermost first, the handle reaches them", function()
    local order = {}
    local Inner = ui.DynamicProperty("F14Inner", { state = { count = 0 }, update = function(p)
      order[#order + 1] = "inner " .. p.count
    end })
    function Inner:bump() self.count = self.count + 1 end
    local Outer = ui.DynamicProperty("F14Outer", { properties = { inner = Inner }, state = { label = "x" }, update = function(p)
      order[#order + 1] = "outer " .. p.inner.count
    end })
    local V = ui.View("F14Nesting", { properties = { o = Outer }, body = function(self)
      return ui.VStack {
        ui.Text("count " .. self.o.inner.count .. " " .. self.o.label),
        ui.Button("bump", function() self.o.inner:bump() end),
        ui.Stepper("step", self.o.inner["$count"], { 0, 9 }),
      }
    end })
    local app = ui.mount(ui.VStack { V {}, V {} })
    assert.equal("inner 0,outer 0,inner 0,outer 0", table.concat(order, ","))
    app:findAll { type = "Button" }[1]:tap()
    assert.truthy(app:find("count 1 x"))
    assert.truthy(app:find("count 0 x"))                 -- the other instance's own
    assert.equal("inner 1,outer 1", table.concat(order, ",", #order - 1))
    app:findAll { type = "Stepper" }[2]:increment()      -- a binding to the nested state: "$count"
    assert.equal(0, #app:findAll("count 0 x"))
    app:unmount()
  end)

  it("F14 properties nest at most 8 deep; a nested entry that is no property is an error naming it", function()
    local p = ui.DynamicProperty("F14Level0", { state = { n = 0 } })
    for i = 1, 7 do p = ui.DynamicProperty("F14Level" .. i, { properties = { down = p } }) end
    assert.error_matches(function() ui.DynamicProperty("F14Level8", { properties = { down = p } }) end,
      "ui.DynamicProperty('F14Level8'): properties nest more than 8 deep", 1, true)
    local V = ui.View("F14Deep", { properties = { p = p }, body = function(self)
      return ui.Text("n " .. self.p.down.down.down.down.down.down.down.n)
    end })
    local app = ui.mount(V {})
    assert.truthy(app:find("n 0"))
    app:unmount()
  end)
end)

-- Binding is among DynamicProperty's conforming types
-- (https://developer.apple.com/documentation/swiftui/dynamicproperty): a
-- DynamicProperty may hold a @Binding, which whoever makes the property
-- passes. Here the caller of the view that includes the property passes it,
-- under the property's name (issue 19, session 9; the documentation check's
-- item 13).
describe("DynamicProperty holding Bindings", function()
  local Selection = ui.DynamicProperty("F14Selection", { binding = { "value" }, state = { picks = 0 } })
  function Selection:pick(v) self.value = v; self.picks = self.picks + 1 end
  local Chooser = ui.View("F14Chooser", { properties = { sel = Selection }, body = function(self)
    return ui.VStack {
      ui.Text("chosen " .. tostring(self.sel.value) .. " picks " .. self.sel.picks),
      ui.Button("pick b", function() self.sel:pick("b") end),
      ui.TextField("edit", self.sel["$value"]),
    }
  end })

  it("F14 a property's binding comes from the view's caller, under the property's name; it reads and writes through", function()
    local Root = ui.View("F14ChooserRoot", { state = { picked = "a" }, body = function(self)
      return ui.VStack { ui.Text("root " .. self.picked), Chooser { sel = { value = self["$picked"] } } }
    end })
    local app = ui.mount(Root {})
    assert.truthy(app:find("chosen a picks 0"))
    app:find("pick b"):tap()
    assert.truthy(app:find("root b"))
    assert.truthy(app:find("chosen b picks 1"))
    app:find("edit"):setText("c")
    assert.truthy(app:find("root c"))
    app:unmount()
  end)

  it("F14 a nested property's binding comes in its own table, within its holder's", function()
    local Holder = ui.DynamicProperty("F14Holder", { properties = { sel = Selection } })
    local V = ui.View("F14HolderView", { properties = { h = Holder }, body = function(self)
      return ui.Button("value " .. tostring(self.h.sel.value), function() self.h.sel:pick("z") end)
    end })
    local Root = ui.View("F14HolderRoot", { state = { picked = "y" }, body = function(self)
      return ui.VStack { ui.Text("root " .. self.picked), V { h = { sel = { value = self["$picked"] } } } }
    end })
    local app = ui.mount(Root {})
    app:find("value y"):tap()
    assert.truthy(app:find("root z"))
    assert.error_matches(function() return V {} end, "(F14HolderView { h = { sel = { value = self[\"$flag\"] } } })", 1, true)
    app:unmount()
  end)

  it("F14 a missing one is an error naming the view, the input and how to pass it", function()
    assert.error_matches(function() return Chooser {} end,
      [[F14Chooser: missing input 'sel.value': binding = { "sel.value" } declares a Binding the caller passes (F14Chooser { sel = { value = self["$flag"] } })]],
      1, true)
    assert.error_matches(function() return Chooser { sel = { value = 3 } } end,
      "F14Chooser: input 'sel.value' must be a Binding", 1, true)
  end)
end)
