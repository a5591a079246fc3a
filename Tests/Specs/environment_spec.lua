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

  -- environment(_:) takes "an Observable object", environment(_:_:) a
  -- WritableKeyPath of EnvironmentValues
  -- (https://developer.apple.com/documentation/swiftui/view/environment(_:),
  --  https://developer.apple.com/documentation/swiftui/view/environment(_:_:)):
  -- a type, or a key no EnvironmentValues has, does not compile in Swift.
  it("S21 :environment given a type, or a key not declared, is an error naming the fix", function()
    local ok, err = pcall(function() return ui.Text("x"):environment(Library) end)
    assert.is_false(ok)
    assert.matches("environment_spec.lua:%d+: view:environment: Library is a type: pass an instance of it, :environment%(Library%(…%)%)", err)
    ok, err = pcall(function() return ui.Text("x"):environment("acent", "red") end)
    assert.is_false(ok)
    assert.matches("environment_spec.lua:%d+: view:environment: environment key 'acent' is not declared", err)
    assert.truthy(ui.Text("x"):environment("accent", "red"))       -- declared
    assert.truthy(ui.Text("x"):environment("colorScheme", "dark"))   -- set by the system
    assert.truthy(ui.Text("x"):environment("isEnabled", false))      -- a built-in
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

  -- A fresh user's report: ui.none, which stands for nil where a table
  -- cannot hold one, reached a view as a truthy userdata through a key's
  -- default, :environment(key, ui.none) and Binding.constant(ui.none). An
  -- optional key whose value is nil (an @Entry var of an Optional type,
  -- https://developer.apple.com/documentation/swiftui/entry()) reads nil;
  -- set to nil in a subtree, it is nil there even under a value above.
  it("S23 a key whose default or override is ui.none reads nil, as an Optional entry's nil", function()
    ui.Entry("s23Maybe", ui.none)
    local Show = ui.View("S23Maybe", {
      environment = { maybe = "s23Maybe" }, binding = { "picked" },
      body = function(self)
        return ui.Text(tostring(self.maybe) .. " " .. type(self.maybe) .. " " .. tostring(self.picked))
      end,
    })
    local app = ui.mount(ui.VStack {
      Show { picked = ui.Binding.constant(ui.none) },
      ui.VStack {
        Show { picked = ui.Binding.constant("x") },
        ui.VStack { Show { picked = ui.Binding.constant(ui.none) } }:environment("s23Maybe", ui.none),
      }:environment("s23Maybe", "set"),
    })
    assert.equal(2, #app:findAll("nil nil nil"))
    assert.truthy(app:find("set string x"))
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

-- transformEnvironment(_:transform:): "Transforms the environment value of
-- the specified key path with the given function" — the subtree sees a
-- value derived from the one it inherits.
-- https://developer.apple.com/documentation/swiftui/view/transformenvironment(_:transform:)
describe("transformEnvironment", function()
  ui.Entry("nesting", 0)
  ui.Entry("textStyle", { size = 10 })
  local Show = ui.View("ShowNesting", {
    environment = { nesting = "nesting", style = "textStyle" },
    body = function(self) return ui.Text("nesting " .. self.nesting .. " size " .. self.style.size) end,
  })

  it("derives a subtree's value from the inherited one, nesting within one body", function()
    local app = ui.mount(ui.VStack {
      Show {},
      ui.VStack {
        Show {},
        ui.VStack { Show {} }:transformEnvironment("nesting", function(n) return n + 1 end),
      }:transformEnvironment("nesting", function(n) return n + 1 end),
    })
    local texts = {}
    for _, node in ipairs(app:findAll { type = "Text" }) do texts[#texts + 1] = node.text end
    assert.same({ "nesting 0 size 10", "nesting 1 size 10", "nesting 2 size 10" }, texts)
    app:unmount()
  end)

  it("derives from the value an ancestor's body set, and follows it when it changes", function()
    local calls = 0
    local Middle = ui.View("NestingMiddle", function()
      return Show {}:transformEnvironment("nesting", function(n) calls = calls + 1; return n * 10 end)
    end)
    local Top = ui.View("NestingTop", { state = { n = 1 }, body = function(self)
      return ui.VStack { Middle {}, ui.Button("more", function() self.n = self.n + 1 end) }:environment("nesting", self.n)
    end })
    local app = ui.mount(Top {})
    assert.truthy(app:find("nesting 10 size 10"))
    app:find("more"):tap()
    ui.flush()
    assert.truthy(app:find("nesting 20 size 10"))
    assert.equal(2, calls)
    app:unmount()
  end)

  it("applies with :environment in the order written: the first is closest to the view", function()
    local times10 = function(n) return n * 10 end
    local app = ui.mount(ui.VStack {
      Show {}:transformEnvironment("nesting", times10):environment("nesting", 2),
      Show {}:environment("nesting", 3):transformEnvironment("nesting", times10),
    })
    assert.truthy(app:find("nesting 20 size 10"))
    assert.truthy(app:find("nesting 3 size 10"))
    app:unmount()
  end)

  it("gives a plain table as a copy; a function returning nothing keeps the copy it changed (inout)", function()
    local app = ui.mount(ui.VStack {
      Show {}:transformEnvironment("textStyle", function(s) s.size = s.size + 1 end),
      Show {},
    })
    assert.truthy(app:find("nesting 0 size 11"))
    assert.truthy(app:find("nesting 0 size 10"))
    app:unmount()
  end)

  it("refuses an undeclared key, a missing function and isEnabled, naming the line and the value", function()
    local ok, err = pcall(function() ui.Text("x"):transformEnvironment("nestin", function() end) end)
    assert.is_false(ok)
    assert.matches("environment_spec.lua:%d+: view:transformEnvironment: environment key 'nestin' is not declared", err)
    assert.error_matches(function() ui.Text("x"):transformEnvironment("nesting", 3) end,
      "view:transformEnvironment%('nesting', fn%): fn must be a function %(value %-> new value%), got number")
    assert.error_matches(function() ui.Text("x"):transformEnvironment("isEnabled", function() end) end,
      "isEnabled is narrowed with :disabled%(true%)")
  end)

  it("an error in the function is an error node naming the view and the line #errors", function()
    local Bad = ui.View("NestingBad", function()
      return Show {}:transformEnvironment("nesting", function(n) return n + nil end)
    end)
    local app = ui.mount(Bad {})
    assert.matches("Error NestingBad: [^\n]*environment_spec.lua:%d+: attempt to perform arithmetic", app:tree())
    app:unmount()
  end)
end)

-- A value a parent stops setting: the views below that read it see the one
-- above it again (or the key's default), as SwiftUI's environment is
-- "the values that flow down the view hierarchy"
-- (https://developer.apple.com/documentation/swiftui/environmentvalues).
-- The kept child read the dropped value until something else re-ran it: the
-- entry's graph node was freed in the same update that changed it, so the
-- child's check saw nothing changed.
describe("An environment value a parent drops", function()
  it("reaches a child that is kept (its inputs equal)", function()
    ui.EnvironmentKey("droppedDepth", 0)
    local Child = ui.View("DropChild", { environment = { d = "droppedDepth" }, body = function(self)
      return ui.Text("d=" .. self.d)
    end })
    local Parent = ui.View("DropParent", { state = { on = true }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Child {} }
      if self.on then v = v:environment("droppedDepth", 5) end
      return v
    end })
    local app = ui.mount(Parent {})
    assert.truthy(app:find("d=5"))
    app:find("flip"):tap()
    assert.truthy(app:find("d=0"), app:tree())
    app:unmount()
  end)
end)

-- The reverse: a value a parent starts setting reaches the views below it
-- that are kept (S23: "`:environment(\"key\", v)` overrides it for a
-- subtree"; F03: the innermost wins), as SwiftUI's environment values
-- "flow down the view hierarchy"
-- (https://developer.apple.com/documentation/swiftui/environmentvalues).
-- A kept child that had read the default (or an ancestor's value further
-- up) tracked nothing the new value changed, and showed the old one until
-- something else ran it again.
describe("S23 an environment value a parent adds", function()
  ui.EnvironmentKey("addedDepth", 0)
  local Leaf = ui.View("AddLeaf", { environment = { d = "addedDepth" }, body = function(self)
    return ui.Text("d=" .. self.d)
  end })
  local Middle = ui.View("AddMiddle", { body = function()
    return ui.VStack { ui.Text("middle"), Leaf {} }
  end })

  it("reaches a kept child that read the default", function()
    local Parent = ui.View("AddParent", { state = { on = false }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Leaf {} }
      if self.on then v = v:environment("addedDepth", 5) end
      return v
    end })
    local app = ui.mount(Parent {})
    assert.truthy(app:find("d=0"))
    app:find("flip"):tap()
    assert.truthy(app:find("d=5"), app:tree())
    assert.same({ "environment 'addedDepth'" }, app:dependencies("AddLeaf"))   -- its value, and whether one appears: one key
    app:find("flip"):tap()
    assert.truthy(app:find("d=0"), app:tree())
    app:unmount()
  end)

  it("reaches a reader below a kept child, which does not read it and does not run again", function()
    local Parent = ui.View("AddParentDeep", { state = { on = false }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Middle {} }
      if self.on then v = v:environment("addedDepth", 7) end
      return v
    end })
    local app = ui.mount(Parent {})
    assert.truthy(app:find("d=0"))
    local middle, leaf = app:renders("AddMiddle"), app:renders("AddLeaf")
    ui.trace(true)
    app:find("flip"):tap()
    ui.trace(false)
    assert.truthy(app:find("d=7"), app:tree())
    assert.equal(middle, app:renders("AddMiddle"))
    assert.equal(leaf + 1, app:renders("AddLeaf"))
    local said = table.concat(app:trace(), "\n")     -- why it ran, as :why and the trace say it
    assert.matches("↻ AddLeaf#%d+  %(environment 'addedDepth'%)", said)
    app:unmount()
  end)

  it("shadows, for a kept child, the value an ancestor further up sets (the nearest wins, F03)", function()
    local Parent = ui.View("AddParentNear", { state = { on = false }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Leaf {} }
      if self.on then v = v:environment("addedDepth", 9) end
      return v
    end })
    local app = ui.mount(Parent {}:environment("addedDepth", 1))
    assert.truthy(app:find("d=1"))
    app:find("flip"):tap()
    assert.truthy(app:find("d=9"), app:tree())
    app:find("flip"):tap()
    assert.truthy(app:find("d=1"), app:tree())
    app:unmount()
  end)

  it("reaches a view that read it through another view's self, and an effect; not the view whose self it was", function()
    local Shows = ui.View("AddShows", { body = function(self) return ui.Text("c=" .. self.owner.d) end })
    local captured
    local Owner = ui.View("AddOwner", { environment = { d = "addedDepth" }, body = function(self)
      captured = self
      return Shows { owner = self }
    end })
    local Parent = ui.View("AddParentSelf", { state = { on = false }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Owner {} }
      if self.on then v = v:environment("addedDepth", 5) end
      return v
    end })
    local app = ui.mount(Parent {})
    local seen
    local effect = ui.effect(function() seen = captured.d end)
    assert.truthy(app:find("c=0"))
    assert.equal(0, seen)
    app:find("flip"):tap()
    assert.truthy(app:find("c=5"), app:tree())
    assert.equal(5, seen)
    assert.equal(1, app:renders("AddOwner"))          -- its body reads nothing of it
    effect:cancel()
    app:unmount()
  end)

  it("does not run a view that stopped reading the key, nor one a nearer value of its own shadows", function()
    local Stopped = ui.View("AddStopped", { environment = { d = "addedDepth" }, state = { reads = true }, body = function(self)
      if self.reads then return ui.Button("stop " .. self.d, function() self.reads = false end) end
      return ui.Text("not reading")
    end })
    local Shadowed = ui.View("AddShadowed", { body = function()
      return ui.VStack { Leaf {} }:environment("addedDepth", 9)
    end })
    ui.EnvironmentKey("addedOther", 0)
    local Parent = ui.View("AddParentMixed", { state = { on = false }, body = function(self)
      local v = ui.VStack { ui.Button("flip", function() self.on = not self.on end), Stopped {}, Shadowed {} }
      if self.on then v = v:environment("addedDepth", 5):environment("addedOther", 1) end
      return v
    end })
    local app = ui.mount(Parent {})
    app:find("stop 0"):tap()
    local stopped, leaf = app:renders("AddStopped"), app:renders("AddLeaf")
    for _ = 1, 4 do app:find("flip"):tap() end
    assert.equal(stopped, app:renders("AddStopped"))
    assert.equal(leaf, app:renders("AddLeaf"))
    assert.truthy(app:find("d=9"))
    app:unmount()
  end)

  -- S20: a change made inside withAnimation "is rendered with that
  -- animation recorded on the nodes that changed because of it"
  -- (https://developer.apple.com/documentation/swiftui/withanimation(_:_:)):
  -- so are the readers of an environment value it changed, in other bodies.
  -- They ran again with no transaction: changed, not animated.
  it("S20 reaches readers in other bodies with the transaction that changed it", function()
    local Fade = ui.View("AddFade", { environment = { d = "addedDepth" }, body = function(self)
      return ui.Text("fade"):opacity(self.d / 10)
    end })
    local Holder = ui.View("AddFadeHolder", { body = function() return ui.VStack { Fade {} } end })
    local Parent = ui.View("AddParentAnimated", { state = { on = false, v = 5 }, body = function(self)
      local v = ui.VStack {
        ui.Button("flip", function() ui.withAnimation(ui.Animation.linear(1), function() self.on = not self.on end) end),
        ui.Button("more", function() ui.withAnimation(ui.Animation.linear(2), function() self.v = self.v + 1 end) end),
        Holder {},
      }
      if self.on then v = v:environment("addedDepth", self.v) end
      return v
    end })
    local app = ui.mount(Parent {})
    app:find("flip"):tap()                            -- a value that appears
    assert.equal("opacity 0.0 -> 0.5, linear 1.0s", tostring(app:find("fade")):match("%[animated: (.-)%]"))
    app:find("more"):tap()                            -- a value that changes
    assert.equal("opacity 0.5 -> 0.6, linear 2.0s", tostring(app:find("fade")):match("%[animated: (.-)%]"))
    app:unmount()
  end)

  it("does not run a view that reads the key and sets it below itself twice", function()
    local Setter = ui.View("AddSetter", { environment = { d = "addedDepth" }, body = function(self)
      return ui.VStack { ui.Text("outer=" .. self.d), Leaf {} }:environment("addedDepth", self.d + 1)
    end })
    local app = ui.mount(Setter {})
    assert.truthy(app:find("outer=0"))
    assert.truthy(app:find("d=1"))
    assert.equal(1, app:renders("AddSetter"))
    assert.equal(1, app:renders("AddLeaf"))
    app:unmount()
  end)
end)

-- A view that goes keeps the environment values it had: an Environment
-- property holds the value it was last given (it "reads a value from a
-- view's environment", https://developer.apple.com/documentation/swiftui/environment,
-- and a closure the view made holds the view), so its onDisappear — and a
-- `self` a script kept — reads what was set above it, never another view's
-- (the unit's id goes to another view: a hostile read, older than the
-- probes) and never the default in its place (session 20: an onDisappear
-- that saved to a model it took from the environment failed with "no
-- Library in the environment").
describe("S23 a view that goes keeps the environment it had", function()
  it("S23 its onDisappear reads the values and objects set above it", function()
    local library = Library { name = "Kept Library" }
    local m = Store()
    local seen = {}
    local Leaving = ui.View("KeptLeaving", { environment = { library = Library, accent = "accent" }, body = function(self)
      return ui.Text("leaving"):onDisappear(function() seen[#seen + 1] = self.accent .. " " .. self.library.name end)
    end })
    local app = ui.mount(ui.View("KeptHolder", function()
      return ui.VStack { m.which == 1 and Leaving {} or nil }:environment("accent", "red"):environment(library)
    end) {})
    m.which = 2
    ui.flush()
    assert.same({ "red Kept Library" }, seen)
    app:unmount()
  end)

  it("S23 a self kept after its view is gone reads its own values, not another view's", function()
    ui.EnvironmentKey("goneKey", 0)
    local captured
    local Owner = ui.View("GoneOwner", { environment = { d = "goneKey", e = "accent" }, body = function(self)
      captured = self
      return ui.Text("owner")
    end })
    local Other = ui.View("GoneOther", { environment = { d = "goneKey" }, body = function() return ui.Text("other") end })
    local app = ui.mount(Owner {}:environment("goneKey", 3))
    local kept = captured
    assert.equal(3, kept.d)
    app:unmount()
    ui.flush()
    local other = ui.mount(Other {}:environment("goneKey", 42))
    assert.equal(3, kept.d)
    assert.equal("blue", kept.e)                    -- a key nothing above it set: its default
    other:unmount()
  end)
end)
