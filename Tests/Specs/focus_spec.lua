-- D01. FocusState: "a value that SwiftUI updates as the placement of focus
-- within the scene changes ... when focus leaves, the wrapped value of this
-- property resets to nil or false. Setting the property's value
-- programmatically has the reverse effect"
-- (https://developer.apple.com/documentation/swiftui/focusstate); "when focus
-- is not in any view that is bound to this state, the wrapped value will be
-- nil (for optional-typed state) or false (for Bool-typed state)"
-- (https://developer.apple.com/documentation/swiftui/focusstate/wrappedvalue);
-- focused(_:): "when focus leaves the modified view, the binding sets the
-- bound value to false. If a caller sets the value to false, SwiftUI
-- automatically dismisses focus"
-- (https://developer.apple.com/documentation/swiftui/view/focused(_:)).
-- Focus is one per scene (here: per runtime): focusing a field in one view
-- takes it from the field of any other view.
local ui = require("lunette")

-- A form with two fields bound to an optional FocusState, and a search field
-- bound to a Bool one, each in its own view.
local Login = ui.View("D01Login", {
  state = { name = "", password = "", showPassword = true },
  focusState = { "field" },
  body = function(self)
    return ui.VStack {
      ui.Text("login " .. tostring(self.field)),
      ui.TextField("name", self["$name"]):focused(self["$field"], "name"),
      self.showPassword and ui.TextField("password", self["$password"]):focused(self["$field"], "password") or nil,
      ui.Button("to password", function() self.field = "password" end),
      ui.Button("dismiss", function() self.field = nil end),
      ui.Button("hide password", function() self.showPassword = false end),
    }
  end,
})

local Search = ui.View("D01Search", {
  state = { query = "" },
  focusState = { isSearching = false },           -- a Bool FocusState: false when not focused
  body = function(self)
    return ui.VStack {
      ui.Text("searching " .. tostring(self.isSearching)),
      ui.TextField("search", self["$query"]):focused(self["$isSearching"]),
      ui.Button("start searching", function() self.isSearching = true end),
    }
  end,
})

local function focused(app, label)
  return app:find(label):tree():match("focused=(%a+)")
end

describe("D01 Focus", function()
  it("D01 focusing a field takes focus from the fields of every other view", function()
    local app = ui.mount(ui.VStack { Login {}, Search {} })
    app:find("name"):focus()
    assert.truthy(app:find("login name"))
    app:find("search"):focus()                        -- another view's field
    assert.truthy(app:find("searching true"))
    assert.truthy(app:find("login nil"))              -- the login form's FocusState is nil again
    assert.equal("false", focused(app, "name"))
    app:find("to password"):tap()                     -- from code, as well
    assert.truthy(app:find("login password"))
    assert.truthy(app:find("searching false"))        -- a Bool FocusState becomes false
    assert.equal("false", focused(app, "search"))
    app:find("start searching"):tap()
    assert.truthy(app:find("searching true"))
    assert.truthy(app:find("login nil"))
    app:unmount()
  end)

  it("D01 a FocusState becomes nil when its focused field leaves the tree", function()
    local app = ui.mount(Login {})
    app:find("password"):focus()
    assert.truthy(app:find("login password"))
    app:find("hide password"):tap()
    assert.truthy(app:find("login nil"))
    app:unmount()
  end)

  it("D01 a focused field whose view goes takes the focus with it: the FocusState above it becomes false", function()
    local Field = ui.View("D01Field", { binding = { "focus" }, state = { text = "" }, body = function(self)
      return ui.TextField("find", self["$text"]):focused(self["$focus"])
    end })
    local Host = ui.View("D01Host", {
      state = { shown = true },
      focusState = { isFinding = false },
      body = function(self)
        return ui.VStack {
          ui.Text("finding " .. tostring(self.isFinding)),
          self.shown and Field { focus = self["$isFinding"] } or nil,
          ui.Button("close", function() self.shown = false end),
        }
      end,
    })
    local app = ui.mount(Host {})
    app:find("find"):focus()
    assert.truthy(app:find("finding true"))
    app:find("close"):tap()
    assert.truthy(app:find("finding false"))
    app:unmount()
  end)

  it("D01 setting a FocusState to nil (or a Bool one to false) dismisses focus", function()
    local app = ui.mount(ui.VStack { Login {}, Search {} })
    app:find("name"):focus()
    app:find("dismiss"):tap()
    assert.truthy(app:find("login nil"))
    assert.equal("false", focused(app, "name"))
    app:find("search"):focus()
    app:find("to password"):tap()
    assert.truthy(app:find("searching false"))
    app:unmount()
  end)

  it("D01 a focusState entry other than a name or `name = false` is an error naming it", function()
    local ok, err = pcall(ui.View, "D01Bad", { focusState = { field = "name" }, body = function() return ui.Text("") end })
    assert.is_false(ok)
    assert.matches("D01Bad.*focusState 'field'", err)
  end)
end)
