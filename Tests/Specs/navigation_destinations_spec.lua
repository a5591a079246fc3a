-- Navigation (issue 19, session 7): NavigationLink and Button with a view
-- label, navigationDestination(for:) per type of value on the path, the
-- navigationTitle of the top screen, and toolbar. Each describe cites the
-- page of Apple's documentation it follows.
local ui = require("lunette")

local Book = ui.Observable("NavBook", { title = "" })

-- NavigationLink: "You control the visual appearance of the link by providing
-- view content in the link's label closure. For example, you can use a Label"
-- (https://developer.apple.com/documentation/swiftui/navigationlink,
-- https://developer.apple.com/documentation/swiftui/navigationlink/init(destination:label:)-27n7s);
-- Button(action:label:) (https://developer.apple.com/documentation/swiftui/button/init(action:label:)).
describe("A view as a label", function()
  it("a NavigationLink shows its label view, and a tap on any node of it follows the link", function()
    local app = ui.mount(ui.NavigationStack {
      ui.NavigationLink(ui.Label("Work Folder", "folder"), ui.Text("in the folder")),
    })
    assert.matches('  NavigationLink\n    Button\n      Label "Work Folder" systemImage="folder"\n', app:tree(), 1, true)
    app:find("Work Folder"):tapLink()
    assert.truthy(app:find("in the folder"))
    app:unmount()
  end)

  it("a Button holds its label view; a tap on the label taps the Button, a node in no Button cannot be tapped", function()
    local Counter = ui.View("LabelledButton", { state = { n = 0 }, body = function(self)
      return ui.VStack {
        ui.Button(ui.HStack { ui.Image { systemName = "plus" }, ui.Text("Add") }, function() self.n = self.n + 1 end),
        ui.Text("count " .. self.n),
      }
    end })
    local app = ui.mount(Counter {})
    app:find("Add"):tap()
    app:find("plus"):tap()
    app:find { type = "Button" }:tap()
    assert.truthy(app:find("count 3"))
    assert.error_matches(function() app:find("count 3"):tap() end, "cannot be tapped", 1, true)
    app:unmount()
    assert.error_matches(function() ui.NavigationLink(42, ui.Text("x")) end,
      'ui.NavigationLink: a label expected (a string, or a view such as ui.Label("Dune", "book")), got number', 1, true)
  end)
end)

-- NavigationLink init(_:value:): "Pass a nil value to disable the link"
-- (https://developer.apple.com/documentation/swiftui/navigationlink/init(_:value:)-kj9v).
describe("A nil value", function()
  it("disables the link: it shows, drawn disabled, and cannot be followed; a missing one is an error", function()
    local Shelf = ui.View("NilLinkShelf", { state = { picked = ui.none }, body = function(self)
      return ui.NavigationStack {
        ui.VStack {
          ui.NavigationLink("Open", self.picked),
          ui.NavigationLink(ui.Label("Folder", "folder"), self.picked),
          ui.Button("pick", function() self.picked = "Dune" end),
        }:navigationDestination("string", function(title) return ui.Text("book " .. title) end),
      }
    end })
    local app = ui.mount(Shelf {})
    assert.matches('NavigationLink\n        Button "Open" .disabled(true) disabled=true\n', app:tree(), 1, true)
    assert.error_matches(function() app:find("Open"):tapLink() end, 'cannot follow Button "Open": it is disabled', 1, true)
    assert.error_matches(function() app:find("Folder"):tap() end, "it is disabled", 1, true)
    app:find("pick"):tap()                                -- a value now: the link follows it
    app:find("Open"):tapLink()
    assert.truthy(app:find("book Dune"), app:tree())
    app:unmount()
    assert.error_matches(function() ui.NavigationLink("Open") end, "ui.NavigationLink: a destination expected", 1, true)
  end)
end)

-- navigationDestination(for:destination:): "Associates a destination view
-- with a presented data type for use within a navigation stack"; "Add this
-- view modifier to a view inside a NavigationStack"
-- (https://developer.apple.com/documentation/swiftui/view/navigationdestination(for:destination:)).
describe("navigationDestination(for:)", function()
  local Detail = ui.View("NavDetail", function(self)
    return ui.VStack { ui.Text("about " .. self.book.title), ui.NavigationLink("author", "Herbert") }
      :navigationTitle(self.book.title)
  end)
  local function Library(path)
    return ui.View("NavLibrary", { state = { path = path }, body = function(self)
      return ui.NavigationStack(self["$path"], {
        ui.List({ Book { title = "Dune" } }, function(book) return ui.NavigationLink(book.title, book) end)
          :navigationTitle("Books")
          :navigationDestination(Book, function(book) return Detail { book = book } end)
          :navigationDestination({ ["for"] = "string" }, function(name) return ui.Text("person " .. name):navigationTitle(name) end),
      })
    end })
  end

  it("turns each value pushed on the path into the screen its type's destination makes", function()
    local app = ui.mount(Library({})())
    app:find("Dune"):tapLink()
    assert.truthy(app:find("about Dune"))
    app:find("author"):tapLink()                          -- a string: the other destination
    assert.truthy(app:find("person Herbert"))
    app:unmount()
  end)

  it("serves a path that holds values from the first update", function()
    local app = ui.mount(Library({ "Ada" })())
    assert.truthy(app:find("person Ada"), app:tree())
    assert.equal(0, #app:warnings())
    app:unmount()
  end)

  it("a value no destination takes is an error naming its type and how to add one", function()
    local app = ui.mount(Library({ 7 })())
    assert.has_error_node(app, 'element 1 of the path is a number, and the stack has no destination for values ' ..
      '(:navigationDestination("number"')
    app:unmount()
  end)

  it("a destination that returns no view is an error naming where it was given, the element and what came back", function()
    -- it was blamed on the stack's own content ("(lunette prelude):319: child 1 is a number, expected a view")
    local Given = ui.View("NavGivenNoView", { state = { path = { 5 } }, body = function(self)
      return ui.NavigationStack(self["$path"], { ui.Text("root") }, function(n) return n * 2 end)
    end })
    local app = ui.mount(Given {})
    assert.has_error_node(app, "the destination for element 1 of the path (a number) returned a number, expected a view")
    assert.matches("navigation_destinations_spec.lua:%d+: the destination", app:tree())
    app:unmount()
    local Declared = ui.View("NavDeclaredNoView", { state = { path = { "x" } }, body = function(self)
      return ui.NavigationStack(self["$path"], {
        ui.Text("root"):navigationDestination("string", function() end),
      })
    end })
    app = ui.mount(Declared {})
    assert.has_error_node(app, "the destination for element 1 of the path (a string) returned a nil, expected a view")
    assert.matches("navigation_destinations_spec.lua:%d+: the destination", app:tree())
    app:unmount()
  end)

  it("matches a table on the path with the destination for \"table\"", function()
    -- the path's state holds the table as a tracked one: it was matched as a userdata, which no destination takes
    local Pairs = ui.View("NavPairs", { state = { path = {} }, body = function(self)
      return ui.NavigationStack(self["$path"], {
        ui.VStack { ui.NavigationLink("pair", { 1, 2 }) }
          :navigationDestination("table", function(t) return ui.Text("a pair of " .. #t) end),
      })
    end })
    local app = ui.mount(Pairs {})
    app:find("pair"):tapLink()
    assert.truthy(app:find("a pair of 2"), app:tree())
    app:unmount()
  end)

  it("refuses a type it cannot match, an option it does not know and a destination that is no function", function()
    assert.error_matches(function() ui.Text("x"):navigationDestination(3, function() end) end,
      "view:navigationDestination: `for` must be a model class (Book), a host type (ui.types.Inbox) or a type name", 1, true)
    assert.error_matches(function() ui.Text("x"):navigationDestination("integer", function() end) end, 'got "integer"', 1, true)
    assert.error_matches(function() ui.Text("x"):navigationDestination({ type = Book }, function() end) end,
      "view:navigationDestination: unknown option 'type'", 1, true)
    assert.error_matches(function() ui.Text("x"):navigationDestination(Book, "Detail") end,
      "a function(value) returning the screen expected, got string", 1, true)
  end)
end)

-- navigationTitle(_:): "Configures the view's title for purposes of
-- navigation" (https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-avgj);
-- the stack's bar shows the title of the screen on top.
describe("The title of the top screen", function()
  it("is shown on the stack while screens are pushed, and follows pushes and pops", function()
    local Driven = ui.View("TitledDriven", { state = { path = { "a" } }, body = function(self)
      return ui.VStack {
        ui.NavigationStack(self["$path"], { ui.Text("root"):navigationTitle("Books") },
          function(name) return ui.VStack { ui.Text("screen " .. name) }:navigationTitle("On " .. name) end),
        ui.Button("push b", function() self.path = { "a", "b" } end),
        ui.Button("pop", function() self.path = { "a" } end),
      }
    end })
    local app = ui.mount(Driven {})
    assert.matches('NavigationStack title="On a"', app:tree(), 1, true)
    app:find("push b"):tap()
    assert.matches('NavigationStack title="On b"', app:tree(), 1, true)
    app:find("pop"):tap()
    assert.matches('NavigationStack title="On a"', app:tree(), 1, true)
    app:unmount()
    local root = ui.mount(ui.NavigationStack { ui.Text("root"):navigationTitle("Books") })
    assert.matches("^NavigationStack\n", root:tree())          -- nothing pushed: the root shows its own title
    root:unmount()
  end)

  it("is shown once in strict mode, where the stack's body runs twice", function()
    ui.configure { strict = true }
    local ok, err = pcall(function()
      local Strict = ui.View("TitledStrict", { state = { path = { "a" } }, body = function(self)
        return ui.NavigationStack(self["$path"], { ui.Text("root") },
          function(name) return ui.Text("screen " .. name):navigationTitle("On " .. name) end)
      end })
      local app = ui.mount(Strict {})
      assert.matches('NavigationStack title="On a"\n', app:tree(), 1, true)
      local _, titles = app:json():gsub('"title":', "")
      assert.equal(1, titles)
      app:unmount()
    end)
    ui.configure { strict = false }
    assert(ok, err)
  end)
end)

-- toolbar(content:): "Populates the toolbar or navigation bar with the
-- specified items" (https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-5w0tj).
describe("toolbar", function()
  it("shows its items after the view's content, each acting as itself", function()
    local Editor = ui.View("ToolbarEditor", { state = { saved = 0 }, body = function(self)
      return ui.NavigationStack {
        ui.Text("saved " .. self.saved)
          :toolbar({ ui.Button("Save", function() self.saved = self.saved + 1 end) }, { placement = "confirmationAction" })
          :toolbar({ ui.Button("Help", function() end) }),
      }
    end })
    local app = ui.mount(Editor {})
    local tree = app:tree()
    assert.matches('    Text "saved 0"\n      Toolbar placement="confirmationAction"\n        Button "Save"\n      Toolbar\n        Button "Help"\n',
      tree, 1, true)
    app:find("Save"):tap()
    assert.truthy(app:find("saved 1"))
    app:unmount()
  end)

  it("refuses a placement it does not know, an option it does not know and items that are no list of views", function()
    assert.error_matches(function() ui.Text("x"):toolbar({}, { placement = "top" }) end,
      'view:toolbar: placement "top" is not one Lunette knows', 1, true)
    assert.error_matches(function() ui.Text("x"):toolbar({}, { id = "main" }) end, "view:toolbar: unknown option 'id'", 1, true)
    assert.error_matches(function() ui.Text("x"):toolbar("Save") end, "view:toolbar: a list of views expected", 1, true)
  end)
end)

-- S34: no view renders twice in one flush. A stack hears its screens'
-- titles and destinations as preferences; before, every title it heard
-- rendered it again, so a list whose root title counts what it lists
-- rendered the stack twice in each flush (a fresh user's report).
describe("S34 A navigation stack hearing its screens", function()
  it("renders once in a flush that changes its root's title", function()
    local Counter = ui.Observable("NavCounter", { count = 0 })
    local m = Counter()
    local Root = ui.View("NavCountRoot", function()
      return ui.NavigationStack { ui.List { ui.Text("a") }:navigationTitle("Count " .. m.count) }
    end)
    local app = ui.mount(Root())
    app:resetRenders()
    m.count = 1
    ui.flush()
    assert.equal(1, app:renders("NavCountRoot"))
    assert.equal(1, app:renders("NavigationStack"))
    app:unmount()
  end)

  it("renders once at its mount when its path is empty, and shows a value's screen once its destination is heard", function()
    local Holder = ui.View("NavHolder", { state = { path = {} }, body = function(self)
      return ui.NavigationStack(self["$path"], {
        ui.Button("push", function() self.path = { "x" } end)
          :navigationDestination("string", function(s) return ui.Text("screen " .. s) end),
      })
    end })
    local app = ui.mount(Holder {})
    assert.equal(1, app:renders("NavigationStack"))
    app:find("push"):tap()
    assert.matches("screen x", app:tree(), 1, true)
    app:unmount()
  end)

  it("shows the title of the screen on top after its path shifts or is reordered", function()
    -- a view value is watched once; it was heard under its first place, so
    -- { a, b } becoming { b } showed a's title over b (a hostile read)
    local A = ui.Text("one"):navigationTitle("One")
    local B = ui.Text("two"):navigationTitle("Two")
    local Root = ui.View("NavShift", { state = { path = {} }, body = function(self)
      return ui.NavigationStack(self["$path"], { ui.VStack {
        ui.Button("both", function() self.path = { A, B } end),
        ui.Button("swap", function() self.path = { B, A } end),
        ui.Button("drop", function() self.path = { B } end) }:navigationTitle("Root") })
    end })
    local app = ui.mount(Root {})
    local function title() return app:tree():match('NavigationStack title="([^"]*)"') end
    app:find("both"):tap(); assert.equal("Two", title())
    app:find("swap"):tap(); assert.equal("One", title())
    app:find("drop"):tap(); assert.equal("Two", title())
    app:unmount()
  end)

  it("keeps each stack's titles its own when one view value is in two stacks", function()
    -- what a stack heard of a view is the stack's: a second stack that
    -- showed the same value took the first stack's title away (a hostile read)
    local V = ui.Text("shared"):navigationTitle("Shared")
    local Root = ui.View("NavTwoStacks", { state = { a = { V }, b = {} }, body = function(self)
      return ui.VStack { ui.NavigationStack(self["$a"], { ui.Text("A root") }), ui.NavigationStack(self["$b"], { V }) }
    end })
    local app = ui.mount(Root {})
    assert.truthy(app:tree():find('NavigationStack title="Shared"', 1, true), app:tree())
    app:unmount()
  end)

  it("renders once, not with every render of its content, while values are on its path", function()
    -- a stack that renders again when its destinations' functions change
    -- rendered with every render of its content (a closure made anew), and
    -- without end for a screen declaring destinations itself (a hostile
    -- read): only a reload's new code makes its screens anew
    local LoopBook = ui.Observable("NavLoopBook", { title = "" })
    local Clock = ui.Observable("NavLoopClock", { n = 0 })
    local c = Clock {}
    local Content = ui.View("NavLoopContent", function()
      return ui.VStack { ui.Text("tick " .. c.n) }:navigationDestination(LoopBook, function(b)
        return ui.VStack { ui.Text("about " .. b.title), ui.NavigationLink("author", "Herbert") }
          :navigationDestination("string", function(s) return ui.Text("person " .. s .. " " .. c.n) end)
      end)
    end)
    local Root = ui.View("NavLoopRoot", { state = { path = function() return { LoopBook { title = "Dune" } } end }, body = function(self)
      return ui.NavigationStack(self["$path"], { Content {} })
    end })
    local app = ui.mount(Root {})
    app:find("author"):tapLink()
    app:resetRenders()
    ui.flush()
    assert.equal(0, app:renders("NavigationStack"))
    for i = 1, 5 do c.n = i; ui.flush() end
    assert.equal(5, app:renders("NavLoopContent"))
    assert.is_true(app:renders("NavigationStack") <= 5, app:renders("NavigationStack"))
    assert.equal(0, #app:warnings(), table.concat(app:warnings(), "\n"))
    app:unmount()
  end)

  it("shows a screen waiting for destinations not heard at its first render", function()
    local Pre = ui.View("NavPre", { state = { path = { "y" } }, body = function(self)
      return ui.NavigationStack(self["$path"], {
        ui.Text("root"):navigationDestination("string", function(s) return ui.Text("screen " .. s) end),
      })
    end })
    local app = ui.mount(Pre {})
    assert.matches("screen y", app:tree(), 1, true)
    app:unmount()
  end)
end)
