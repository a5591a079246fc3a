-- Views: built-ins, modifiers, lists, identity, inspection, errors.
local ui = require("lunette")

local Book = ui.Observable("Book", { title = "Sample Book Title", isAvailable = true })
local Shelf = ui.Observable("Shelf", { books = function() return {} end, flag = true })

local function shelf_of(n)
  local books = {}
  for i = 1, n do books[i] = Book { title = "Book " .. i } end
  return Shelf { books = books }
end

describe("Views", function()
  it("render built-in views and modifiers as a readable tree", function()
    local app = ui.mount(ui.NavigationStack {
      ui.VStack {
        ui.Text("Title"):font("title"):padding(),
        ui.HStack { ui.Image("star"), ui.Spacer(), ui.Button("Go", function() end):buttonStyle("borderedProminent") },
        ui.EmptyView(),
      }:navigationTitle("Home"),
    })
    assert.equal(table.concat({
      "NavigationStack",
      '  VStack .navigationTitle("Home")',
      '    Text "Title" .font("title") .padding()',
      "    HStack",
      '      Image "star"',
      "      Spacer",
      '      Button "Go" .buttonStyle("borderedProminent")',
      "    EmptyView",
      "",
    }, "\n"), app:tree())
  end)

  it("app:json() carries the same facts", function()
    local app = ui.mount(ui.Text("hi"):font("body"))
    assert.equal('{"app":' .. app:json():match('"app":(%d+)') ..
      ',"nodes":[{"type":"Text","text":"hi","modifiers":[{"name":"font","value":"\\"body\\""}]}],"warnings":[],"trace":[]}',
      app:json())
  end)

  it("find and findAll match exact text or label, and types, in tree order", function()
    local app = ui.mount(ui.VStack {
      ui.Text("a"), ui.Button("a", function() end), ui.Text("b"), ui.Text("ab"),
    })
    assert.equal("Text", app:find("a").type)
    assert.equal(2, #app:findAll("a"))
    assert.equal("Button", app:findAll("a")[2].type)
    assert.equal(3, #app:findAll { type = "Text" })
    assert.equal("b", app:findAll { type = "Text" }[2].text)
    assert.is_nil(app:find("c"))
  end)

  it("Toggle and TextField read and write through bindings", function()
    local book = Book()
    local Edit = ui.View("Edit", function(self)
      return ui.VStack {
        ui.TextField("Title", ui.Bindable(self.book).title),
        ui.Toggle("Book is available", ui.Bindable(self.book).isAvailable),
        ui.Text(self.book.title .. (self.book.isAvailable and " +" or " -")),
      }
    end)
    local app = ui.mount(Edit { book = book })
    assert.equal("on", app:find("Book is available").value)
    app:find("Title"):setText("Dune")
    app:find("Book is available"):toggle()
    assert.equal("Dune", book.title)
    assert.equal(false, book.isAvailable)
    assert.truthy(app:find("Dune -"))
    assert.equal("off", app:find("Book is available").value)
  end)

  it("List builds only the rows inside its window", function()
    ui.configure { listWindow = 20 }
    local made = 0
    local shelf = shelf_of(1000)
    local app = ui.mount(ui.List(shelf.books, function(book)
      made = made + 1
      return ui.Text(book.title)
    end))
    assert.equal(20, made)
    assert.equal(20, #app:findAll { type = "Text" })
    assert.matches("980 more rows", app:tree())
    ui.configure { listWindow = 50 }
  end)

  it("ForEach builds every row; rows keep their identity when the data moves", function()
    local shelf = shelf_of(3)
    local Row = ui.View("Row", { state = { taps = 0 }, body = function(self)
      return ui.Button(self.book.title .. " " .. self.taps, function() self.taps = self.taps + 1 end)
    end })
    local app = ui.mount(ui.VStack { ui.ForEach(shelf.books, function(book) return Row { book = book } end) })
    app:find("Book 2 0"):tap()
    local books = shelf.books
    books[1], books[2] = books[2], books[1]
    ui.flush()
    local buttons = app:findAll { type = "Button" }
    assert.equal("Book 2 1", buttons[1].text)
    assert.equal("Book 1 0", buttons[2].text)
  end)

  it("rows of plain values use the value as identity", function()
    local V = ui.View("V", { state = { items = { "x", "y" } }, body = function(self)
      return ui.VStack {
        ui.ForEach(self.items, function(item) return ui.Text(item) end),
        ui.Button("add", function() table.insert(self.items, 1, "w") end),
      }
    end })
    local app = ui.mount(V())
    app:find("add"):tap()
    local texts = app:findAll { type = "Text" }
    assert.equal(3, #texts)
    assert.equal("w", texts[1].text)
  end)

  it("a parent re-render that passes equal inputs does not re-run the child", function()
    local shelf = shelf_of(1)
    local Child = ui.View("Child", function(self) return ui.Text(self.label) end)
    local Parent = ui.View("Parent", function(self)
      return ui.VStack { ui.Text(tostring(self.shelf.flag)), Child { label = "same" } }
    end)
    local app = ui.mount(Parent { shelf = shelf })
    shelf.flag = false
    ui.flush()
    assert.equal(2, app:renders("Parent"))
    assert.equal(1, app:renders("Child"))
  end)

  it("a structural change replaces the view and its state", function()
    local shelf = shelf_of(1)
    local Counter = ui.View("Counter", { state = { n = 0 }, body = function(self)
      return ui.Button("n=" .. self.n, function() self.n = self.n + 1 end)
    end })
    local Parent = ui.View("Parent", function(self)
      if self.shelf.flag then return ui.VStack { Counter() } end
      return ui.HStack { Counter() }
    end)
    local app = ui.mount(Parent { shelf = shelf })
    app:find("n=0"):tap()
    assert.truthy(app:find("n=1"))
    shelf.flag = false
    ui.flush()
    assert.truthy(app:find("n=0"))
  end)

  it("a body that raises leaves an error node; siblings keep working", function()
    local book = Book()
    local Broken = ui.View("Broken", function(self)
      if self.book.isAvailable then error("boom") end
      return ui.Text("fixed")
    end)
    local Fine = ui.View("Fine", function(self) return ui.Text(self.book.title) end)
    local app = ui.mount(ui.VStack { Broken { book = book }, Fine { book = book } })
    local err = app:find { type = "Error" }
    assert.matches("Error Broken: .*views_spec.lua:%d+: boom", tostring(err))
    assert.has_error_node(app, "boom")
    book.title = "Still fine"
    ui.flush()
    assert.truthy(app:find("Still fine"))
    book.isAvailable = false                 -- the broken view recovers when what it read changes
    ui.flush()
    assert.truthy(app:find("fixed"))
    assert.is_nil(app:find { type = "Error" })
  end)

  it("bad arguments are errors naming the position and the argument", function()
    assert.error_matches(function() ui.Text({}) end, "bad argument #1 to 'Text' (string expected, got table)", 1, true)
    assert.error_matches(function() ui.Button("x") end, "bad argument #2 to 'Button'", 1, true)
    assert.error_matches(function() ui.Toggle("x", true) end, "Binding expected", 1, true)
    assert.error_matches(function() ui.Text("x"):fooBar() end, "unknown modifier 'fooBar' on Text", 1, true)
    assert.error_matches(function() ui.Text("x"):padding("wide") end, 'view:padding: its value is a length (a number) or edges', 1, true)
    local ok, err = pcall(function() ui.Text(nil) end)
    assert.falsy(ok)
    assert.matches("views_spec.lua:%d+:", err)
  end)

  it("a child that is not a view is reported in its parent", function()
    local Bad = ui.View("Bad", function() return ui.VStack { ui.Text("ok") } end)
    assert.error_matches(function() ui.VStack { 42 } end, "child 1 is a number, expected a view", 1, true)
    local app = ui.mount(Bad())
    assert.truthy(app:find("ok"))
  end)

  it("ui.effect re-runs after a flush in which what it read changed, until cancelled", function()
    local book = Book()
    local seen = {}
    local effect = ui.effect(function() seen[#seen + 1] = book.title end)
    book.title = "A"
    book.isAvailable = false
    ui.flush()
    effect:cancel()
    book.title = "B"
    ui.flush()
    assert.same({ "Sample Book Title", "A" }, seen)
  end)

  it("unmount stops updates", function()
    local book = Book()
    local V = ui.View("V", function(self) return ui.Text(self.book.title) end)
    local app = ui.mount(V { book = book })
    app:unmount()
    book.title = "x"
    ui.flush()
    assert.error_matches(function() app:tree() end, "unmounted", 1, true)
  end)

  it("flush and mount are refused inside a body", function()
    local Sneaky = ui.View("Sneaky", function() ui.flush(); return ui.Text("x") end)
    local app = ui.mount(Sneaky())
    assert.has_error_node(app, "ui.flush cannot be called while views are rendering")
  end)
end)

-- ProgressView: "a view that shows the progress toward completion of a task";
-- without a value it is indeterminate; "if the value is non-nil, but outside
-- the range of 0.0 through total, the progress view pins the value to those
-- limits" (https://developer.apple.com/documentation/swiftui/progressview,
-- init(value:total:)).
describe("ProgressView", function()
  it("is indeterminate without a value, shows value of total with one, and pins the value to 0...total", function()
    local app = ui.mount(ui.VStack {
      ui.ProgressView(), ui.ProgressView(0.5), ui.ProgressView("Loading", 3, 10), ui.ProgressView("Over", 12, 10),
    })
    local tree = app:tree()
    assert.matches("\n  ProgressView\n", tree)
    assert.matches('ProgressView 0.5 total=1', tree, 1, true)
    assert.matches('ProgressView "Loading" 3 total=10', tree, 1, true)
    assert.matches('ProgressView "Over" 10.0 total=10', tree, 1, true)
    app:unmount()
  end)

  it("refuses a total that is not positive and a value that is NaN", function()
    assert.error_matches(function() ui.ProgressView(1, 0) end, "the total must be a positive, finite number")
    assert.error_matches(function() ui.ProgressView(0 / 0) end, "not NaN")
    -- "A value of nil represents indeterminate progress, in which case the
    -- progress view ignores total"
    -- (https://developer.apple.com/documentation/swiftui/progressview/init(value:total:))
    local app = ui.mount(ui.VStack { ui.ProgressView(nil, 0), ui.ProgressView("Loading", nil, 0) })
    assert.equal(2, select(2, app:tree():gsub("ProgressView", "")), app:tree())
    assert.falsy(app:tree():find("total"), app:tree())
    app:unmount()
    -- init(value:total:label:currentValueLabel:) takes a view label: Lunette's label is text
    assert.error_matches(function() ui.ProgressView(ui.Text("Custom"), 0.2, 1) end,
      "ui.ProgressView: its label %(argument 1%) is text, got a view")
  end)
end)

-- HStack(alignment:spacing:content:), VStack(alignment:spacing:content:),
-- ZStack(alignment:content:) (https://developer.apple.com/documentation/swiftui/hstack/init(alignment:spacing:content:)):
-- the options come first, as SwiftUI's arguments do, or among the children;
-- an option a stack does not have is an error, and the children are never dropped.
describe("D10 Stacks with options", function()
  it("take (options, children) and options among the children, as attributes of the node", function()
    local app = ui.mount(ui.VStack {
      ui.HStack({ spacing = 8, alignment = "top" }, { ui.Text("a"), ui.Text("b") }),
      ui.VStack { spacing = 4, alignment = "leading", ui.Text("c") },
      ui.ZStack({ alignment = "bottomTrailing" }, { ui.Text("d") }),
    })
    local tree = app:tree()
    local hstack = tree:match("\n  (HStack[^\n]*)")
    assert.truthy(hstack:find("spacing=8", 1, true) and hstack:find('alignment="top"', 1, true), hstack)
    assert.matches('HStack[^\n]*\n    Text "a"\n    Text "b"', tree)
    local vstack = tree:match("\n  (VStack[^\n]*)")
    assert.truthy(vstack:find("spacing=4", 1, true) and vstack:find('alignment="leading"', 1, true), vstack)
    assert.truthy(app:find("d"))
    app:unmount()
  end)

  it("refuse an option they do not know, a bad value, and options where children belong", function()
    assert.error_matches(function() ui.HStack({ spacng = 8 }, { ui.Text("a") }) end,
      "ui.HStack: unknown option 'spacng' (did you mean 'spacing'?)", 1, true)
    assert.error_matches(function() ui.VStack { alignment = "top", ui.Text("a") } end,
      "ui.VStack: alignment must be one of leading, center, trailing", 1, true)
    -- SwiftUI's spacing may be negative (the views overlap): a NaN or a string is not a spacing
    assert.truthy(ui.HStack({ spacing = -4 }, {}))
    assert.error_matches(function() ui.HStack({ spacing = 0 / 0 }, {}) end, "spacing must be a number from -1e6 to 1e6, got 0/0", 1, true)
    assert.error_matches(function() ui.HStack({ spacing = "8" }, {}) end, 'spacing must be a number from -1e6 to 1e6, got "8"', 1, true)
    assert.error_matches(function() ui.Group({ spacing = 1 }, {}) end, "ui.Group takes no options", 1, true)
    assert.error_matches(function() ui.HStack({ ui.Text("x") }, { ui.Text("y") }) end, "children come second", 1, true)
  end)
end)

-- Stepper(_:value:in:step:) "increments or decrements the value by step"
-- (https://developer.apple.com/documentation/swiftui/stepper/init(_:value:in:step:oneditingchanged:)-7q7x4).
describe("Stepper with a step", function()
  it("steps by its step, within its range; an option it does not know is an error", function()
    local V = ui.View("Stepped", { state = { n = 1, x = 1.0 }, body = function(self)
      return ui.VStack {
        ui.Text("n " .. self.n), ui.Stepper("n", self["$n"], { 1, 6 }, { step = 2 }),
        ui.Text("x " .. self.x), ui.Stepper("x", self["$x"], { 0, 2 }, { step = 0.5 }),
      }
    end })
    local app = ui.mount(V {})
    app:findAll { type = "Stepper" }[1]:increment()
    assert.truthy(app:find("n 3"))
    app:findAll { type = "Stepper" }[1]:increment()
    app:findAll { type = "Stepper" }[1]:increment()
    assert.truthy(app:find("n 6"))                    -- 7 is past the range: pinned
    app:findAll { type = "Stepper" }[2]:increment()
    assert.truthy(app:find("x 1.5"))
    app:unmount()
    assert.error_matches(function() ui.Stepper("s", ui.Binding.constant(1), { 0, 1 }, { stpe = 1 }) end,
      "ui.Stepper: unknown option 'stpe' (did you mean 'step'?)", 1, true)
    assert.error_matches(function() ui.Stepper("s", ui.Binding.constant(1), { 0, 1 }, { step = 0 }) end,
      "step must be a positive number", 1, true)
  end)
end)

-- onSubmit(of:_:): "A TextField, or SecureField will trigger this action
-- when the user hits the hardware or software return key ... You may set
-- this action on an individual view or an entire view hierarchy"
-- (https://developer.apple.com/documentation/swiftui/view/onsubmit(of:_:)).
describe("onSubmit over a hierarchy", function()
  it("a Form's onSubmit runs when a field inside is submitted, in its body or another's, innermost first", function()
    local log = {}
    local Secret = ui.View("SubmitSecret", { state = { p = "" }, body = function(self)
      return ui.SecureField("password", self["$p"])
    end })
    local Login = ui.View("SubmitLogin", { state = { u = "" }, body = function(self)
      return ui.Form {
        ui.TextField("user", self["$u"]):onSubmit(function() log[#log + 1] = "field" end),
        Secret {},
        ui.TextField("plain", self["$u"]),
      }:onSubmit(function() log[#log + 1] = "form" end)
    end })
    local app = ui.mount(Login {})
    app:find("user"):submit()
    assert.same({ "field", "form" }, log)
    log = {}
    app:find("password"):submit()                     -- a field in another body
    app:find("plain"):submit()
    assert.same({ "form", "form" }, log)
    app:unmount()
  end)

  it("a field outside any onSubmit still cannot be submitted", function()
    local app = ui.mount(ui.VStack { ui.TextField("alone", ui.Binding.constant("")) })
    assert.has_error(function() app:find("alone"):submit() end)
    app:unmount()
  end)

  it("only a TextField or SecureField submits (not a Picker, nor a searchable's field, whose trigger is .search)", function()
    local log = {}
    local V = ui.View("SubmitOnlyFields", { state = { f = "a", q = "" }, body = function(self)
      return ui.List {
        ui.Picker("Flavor", self["$f"], { "a", "b" }),
        ui.Text("row"),
      }:searchable(self["$q"]):onSubmit(function() log[#log + 1] = "text" end)
    end })
    local app = ui.mount(V {})
    assert.has_error(function() app:find("Flavor"):submit() end)
    assert.has_error(function() app:find { type = "TextField" }:submit() end)
    assert.same({}, log)
    app:unmount()
  end)

  it("a parent's run does not run a child again for its onSubmit, and the child submits through the newest action", function()
    local Field = ui.View("SubmitChild", function() return ui.TextField("child", ui.Binding.constant("")) end)
    local log = {}
    local P = ui.View("SubmitParent", { state = { n = 0 }, body = function(self)
      local n = self.n
      return ui.VStack { ui.Text("n " .. n), ui.Button("more", function() self.n = self.n + 1 end), Field {} }
        :onSubmit(function() log[#log + 1] = n end)
    end })
    local app = ui.mount(P {})
    app:find("child"):submit()
    app:find("more"):tap()
    app:find("more"):tap()
    assert.truthy(app:find("n 2"))
    assert.equal(1, app:renders("SubmitChild"))       -- the same cell: no new environment value
    app:find("child"):submit()
    assert.same({ 0, 2 }, log)                         -- the newest action
    app:unmount()
  end)

  it("an :onSubmit a parent drops or adds is what a field in a child body finds when it submits", function()
    local log = {}
    local Child = ui.View("SubmitFlipChild", { state = { t = "" }, body = function(self) return ui.TextField("inner", self["$t"]) end })
    local Parent = ui.View("SubmitFlip", { state = { on = true }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Child {} }
      if self.on then v = v:onSubmit(function() log[#log + 1] = "parent" end) end
      return v
    end })
    local app = ui.mount(Parent {})
    app:find("flip"):tap()                            -- dropped
    assert.has_error(function() app:find("inner"):submit() end)
    app:find("flip"):tap()                            -- added again
    app:find("inner"):submit()
    assert.same({ "parent" }, log)
    assert.equal(1, app:renders("SubmitFlipChild"))   -- found when it submits: nothing read while rendering
    app:unmount()
  end)

  it("the chain is found before its actions run: one that removes its view and flushes leaves the rest to run", function()
    local log = {}
    local C = ui.View("SubmitGoneField", function() return ui.VStack { ui.TextField("gone", ui.Binding.constant("")) } end)
    local Other = ui.View("SubmitGoneOther", function() return ui.Text("other") end)
    local Mid = ui.View("SubmitGoneMid", { state = {}, body = function(self)
      return ui.VStack { C {} }:onSubmit(function() log[#log + 1] = "mid"; self.swap(); ui.flush() end)
    end })
    local P = ui.View("SubmitGoneParent", { state = { on = true }, body = function(self)
      if self.on then
        return ui.VStack { Mid { swap = function() self.on = false end } }:onSubmit(function() log[#log + 1] = "outer" end)
      end
      return ui.VStack { ui.VStack { Other {} }:onSubmit(function() log[#log + 1] = "another" end) }   -- may take a freed unit id
    end })
    local app = ui.mount(P {})
    app:find("gone"):submit()
    assert.same({ "mid", "outer" }, log)
    app:unmount()
  end)

  it("one :onSubmit a view value: a second is an error naming the fix", function()
    assert.error_matches(function()
      return ui.TextField("x", ui.Binding.constant("")):onSubmit(function() end):onSubmit(function() end)
    end, "view:onSubmit: this view has one already; put the second on a view around it")
  end)
end)
