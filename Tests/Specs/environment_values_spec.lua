-- The environment values SwiftUI gives every view (issue 19, session 7):
-- colorScheme, locale, scenePhase, editMode, isPresented and openURL, read
-- as any key (`environment = { scheme = "colorScheme" }`) and set for a
-- subtree with :environment where SwiftUI lets a view set them. Each
-- describe cites the page of Apple's documentation it follows.
local ui = require("lunette")

-- What a view sees of every built-in value, as one line of text.
local Probe = ui.View("Probe", {
  environment = { scheme = "colorScheme", locale = "locale", phase = "scenePhase", edit = "editMode",
                  presented = "isPresented", open = "openURL" },
  body = function(self)
    return ui.Text(("%s %s %s %s %s %s"):format(self.scheme, self.locale, self.phase,
      self.edit and self.edit:get() or "noEditMode", tostring(self.presented), type(self.open)))
  end,
})

-- EnvironmentValues: "SwiftUI automatically sets or updates many environment
-- values, like pixelLength, scenePhase, or locale"
-- (https://developer.apple.com/documentation/swiftui/environmentvalues);
-- colorScheme (https://developer.apple.com/documentation/swiftui/environmentvalues/colorscheme),
-- scenePhase (https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase),
-- locale (https://developer.apple.com/documentation/swiftui/environmentvalues/locale).
describe("Built-in environment values", function()
  it("have SwiftUI's defaults: light, en_US, active, no edit mode, not presented, an openURL action", function()
    local app = ui.mount(Probe {})
    assert.truthy(app:find("light en_US active noEditMode false function"), app:tree())
    app:unmount()
  end)

  it("are set for a subtree with :environment, and a view reading one renders again when it changes", function()
    local Root = ui.View("SchemeRoot", { state = { dark = false }, body = function(self)
      return ui.VStack {
        Probe {}:environment("colorScheme", self.dark and "dark" or "light"):environment("locale", "fr_FR")
          :environment("scenePhase", "background"),
        Probe {},
        ui.Button("dark", function() self.dark = true end),
      }
    end })
    local app = ui.mount(Root {})
    assert.truthy(app:find("light fr_FR background noEditMode false function"), app:tree())
    assert.truthy(app:find("light en_US active noEditMode false function"))
    app:find("dark"):tap()
    assert.truthy(app:find("dark fr_FR background noEditMode false function"), app:tree())
    assert.truthy(app:find("light en_US active noEditMode false function"))   -- outside the subtree
    app:unmount()
  end)

  it("are checked as SwiftUI's types are: a value a key cannot hold is an error naming it", function()
    assert.error_matches(function() ui.Text("x"):environment("colorScheme", "blue") end,
      ':environment("colorScheme", …): "light" or "dark" expected, got "blue"', 1, true)
    assert.error_matches(function() ui.Text("x"):environment("scenePhase", "asleep") end,
      '"active", "inactive" or "background" expected, got "asleep"', 1, true)
    assert.error_matches(function() ui.Text("x"):environment("locale", 7) end,
      'a locale identifier ("fr_FR") expected, got 7', 1, true)
    assert.error_matches(function() ui.Text("x"):environment("openURL", "https://example.com") end,
      ':environment("openURL", …): a function(url)', 1, true)
  end)

  -- Issue 19, session 9 (hostile read of session 8): the checks cannot be
  -- skipped by altering a view value's environment list with rawset.
  it("refuse an entry a script altered or added with rawset: the walk names the view and the field #errors", function()
    local forged = {
      function(v) rawget(v, "env")[1][2] = "blue" end,                        -- after :environment checked it
      function(v) local env = rawget(v, "env"); env[#env + 1] = { "isPresented", true } end,   -- a read-only key
      function(v) local env = rawget(v, "env"); env[#env + 1] = { "openURL", function() return "bogus" end } end,
      function(v) local env = rawget(v, "env"); env[#env + 1] = { "locale", {} } end,
    }
    for i, forge in ipairs(forged) do
      local v = Probe {}:environment("colorScheme", "dark")
      forge(v)
      local app = ui.mount(ui.VStack { v })
      local tree = app:tree()
      assert.truthy(tree:find("a view value was altered: its field 'env' holds what Lunette did not put there", 1, true),
        "case " .. i .. ": " .. tree)
      assert.falsy(tree:find("blue", 1, true), tree)
      app:unmount()
    end
    local app = ui.mount(Probe {}:environment("colorScheme", "dark"))   -- as made: as before
    assert.truthy(app:find("dark en_US active noEditMode false function"), app:tree())
    app:unmount()
  end)

  it("cannot be declared again with ui.EnvironmentKey", function()
    assert.error_matches(function() ui.EnvironmentKey("colorScheme", "dark") end,
      "ui.EnvironmentKey: 'colorScheme' is a built-in environment value", 1, true)
    assert.error_matches(function() ui.Entry("isPresented", true) end, "'isPresented' is a built-in environment value", 1, true)
  end)
end)

-- transformEnvironment(_:transform:) takes a `WritableKeyPath<EnvironmentValues, V>`
-- and an `(inout V) -> Void`: the derived value is still a V (a ColorScheme,
-- a ScenePhase, …), and a read-only value has no writable key path
-- (https://developer.apple.com/documentation/swiftui/view/transformenvironment(_:transform:)).
describe("transformEnvironment of a built-in value", function()
  it("derives a value the key can hold, as :environment sets one", function()
    local app = ui.mount(ui.VStack {
      Probe {}:transformEnvironment("colorScheme", function(s) return s == "light" and "dark" or "light" end)
        :transformEnvironment("locale", function(l) return l .. "_POSIX" end),
    })
    assert.truthy(app:find("dark en_US_POSIX active noEditMode false function"), app:tree())
    app:unmount()
  end)

  it("refuses a derived value the key cannot hold, naming the line, the key, the view and the value #errors", function()
    local Bad = ui.View("SchemeBad", function()
      return ui.VStack { Probe {}:transformEnvironment("colorScheme", function() return "blue" end) }
    end)
    local app = ui.mount(Bad {})
    assert.matches('Error SchemeBad: [^\n]*environment_values_spec.lua:%d+: view:transformEnvironment%("colorScheme", fn%) '
      .. 'on Probe: "light" or "dark" expected, got "blue"', app:tree())
    app:unmount()
    local Phase = ui.View("PhaseBad", function()
      return ui.Text("x"):transformEnvironment("scenePhase", function(p) return p:upper() end)
    end)
    app = ui.mount(Phase {})
    assert.matches('on Text "x": "active", "inactive" or "background" expected, got "ACTIVE"', app:tree(), 1, true)
    app:unmount()
    local Mode = ui.View("ModeBad", function()
      return Probe {}:transformEnvironment("editMode", function() return "active" end)
    end)
    app = ui.mount(Mode {})
    assert.matches('view:transformEnvironment("editMode", fn) on Probe: a Binding to "inactive", "transient" or "active" (or nil) expected, got "active"',
      app:tree(), 1, true)
    app:unmount()
  end)

  it("wraps a derived openURL handler as :environment does", function()
    local opened
    local Opener = ui.View("TransformOpener", { environment = { open = "openURL" }, body = function(self)
      return ui.Button("open", function() self.open("https://example.com") end)
    end })
    local app = ui.mount(Opener {}:transformEnvironment("openURL", function()
      return function(url) opened = url; return "handled" end
    end))
    app:find("open"):tap()
    assert.equal("https://example.com", opened)
    app:unmount()
  end)

  it("refuses the read-only values, as :environment does", function()
    assert.error_matches(function() ui.Text("x"):transformEnvironment("isPresented", function(v) return v end) end,
      "view:transformEnvironment('isPresented', fn): isPresented is read-only", 1, true)
    assert.error_matches(function() ui.Text("x"):transformEnvironment("dismiss", function(v) return v end) end,
      "view:transformEnvironment('dismiss', fn): dismiss is read-only", 1, true)
  end)
end)

-- editMode: "An indication of whether the user can edit the contents of a
-- view"; `var editMode: Binding<EditMode>? { get set }`
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/editmode).
describe("editMode", function()
  it("is an optional Binding: nil by default, a view inside reads and writes the one set above it", function()
    local Toggle = ui.View("EditToggle", { environment = { editMode = "editMode" }, body = function(self)
      return ui.Button(self.editMode:get() == "active" and "Done" or "Edit", function()
        self.editMode:set(self.editMode:get() == "active" and "inactive" or "active")
      end)
    end })
    local Root = ui.View("EditRoot", { state = { mode = "inactive" }, body = function(self)
      return ui.VStack { ui.Text("mode " .. self.mode), Toggle {}:environment("editMode", self["$mode"]) }
    end })
    local app = ui.mount(Root {})
    app:find("Edit"):tap()
    assert.truthy(app:find("mode active"))
    assert.truthy(app:find("Done"))
    app:unmount()
    assert.error_matches(function() ui.Text("x"):environment("editMode", "active") end,
      'a Binding to "inactive", "transient" or "active" (or nil) expected, got "active"', 1, true)
    assert.error_matches(function() ui.Text("x"):environment("editMode", ui.Binding.constant("editing")) end,
      'the binding holds "editing"; an edit mode is "inactive", "transient" or "active"', 1, true)
  end)
end)

-- isPresented: "A Boolean value that indicates whether the view associated
-- with this environment is currently presented"; `{ get }`
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/ispresented).
describe("isPresented", function()
  it("is true inside a sheet, a fullScreenCover, a popover and a pushed screen, false elsewhere", function()
    local Root = ui.View("PresentRoot", { state = { sheet = false, cover = false, pop = false }, body = function(self)
      return ui.VStack {
        Probe {},
        ui.Button("sheet", function() self.sheet = true end):sheet(self["$sheet"], function() return Probe {} end),
        ui.Button("cover", function() self.cover = true end):fullScreenCover(self["$cover"], Probe {}),
        ui.Button("pop", function() self.pop = true end):popover(self["$pop"], Probe {}),
        ui.NavigationStack { ui.NavigationLink("push", Probe {}) },
      }
    end })
    local app = ui.mount(Root {})
    assert.equal(0, #app:findAll("light en_US active noEditMode true function"))
    app:find("sheet"):tap()
    app:find("cover"):tap()
    app:find("pop"):tap()
    app:find("push"):tapLink()
    assert.equal(4, #app:findAll("light en_US active noEditMode true function"), app:tree())
    assert.equal(1, #app:findAll("light en_US active noEditMode false function"))
    app:unmount()
  end)

  -- dismiss: "An action that dismisses the current presentation."; `var
  -- dismiss: DismissAction { get }`
  -- (https://developer.apple.com/documentation/swiftui/environmentvalues/dismiss).
  it("is read-only, as dismiss is: a presentation sets them", function()
    assert.error_matches(function() ui.Text("x"):environment("isPresented", true) end,
      ':environment("isPresented", …): isPresented is read-only', 1, true)
    assert.error_matches(function() ui.Text("x"):environment("dismiss", function() end) end,
      ':environment("dismiss", …): dismiss is read-only', 1, true)
  end)
end)

-- openURL: "An action that opens a URL"; a custom OpenURLAction(handler:)
-- returns handled, discarded or systemAction
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/openurl,
-- https://developer.apple.com/documentation/swiftui/openurlaction/init(handler:)).
-- The host decides what the default action does (OpenURLTests in Swift).
describe("openURL", function()
  local Opener = ui.View("Opener", { environment = { openURL = "openURL" }, body = function(self)
    return ui.Button(self.label, function() self.openURL(self.url) end)
  end })

  it("runs the action a view set above, with the URL", function()
    local seen = {}
    local app = ui.mount(ui.VStack {
      Opener { label = "help", url = "https://example.com/help" }:environment("openURL", function(url)
        seen[#seen + 1] = url
        return "handled"
      end),
      Opener { label = "plain", url = "https://example.com/plain" },
    })
    app:find("help"):tap()
    assert.same({ "https://example.com/help" }, seen)
    app:find("plain"):tap()                              -- the default action: the host's
    assert.same({ "https://example.com/help" }, seen)
    app:unmount()
  end)

  it("refuses a URL that is no string and an answer a handler cannot give", function()
    local app = ui.mount(ui.VStack {
      Opener { label = "number", url = 42 },
      Opener { label = "odd", url = "https://example.com" }:environment("openURL", function() return "maybe" end),
    })
    assert.error_matches(function() app:find("number"):tap() end, "openURL: a URL string expected, got 42", 1, true)
    assert.error_matches(function() app:find("odd"):tap() end,
      'openURL: the handler returned "maybe"; expected "handled", "discarded" or "systemAction"', 1, true)
    app:unmount()
  end)
end)
