-- D09. disabled(_:) "adds a condition that controls whether users can
-- interact with this view"; "the higher views in a view hierarchy can
-- override the value you set on this view ... the outer disabled(_:)
-- modifier overrides the inner one"
-- (https://developer.apple.com/documentation/swiftui/view/disabled(_:)).
-- EnvironmentValues.isEnabled: "a Boolean value that indicates whether the
-- view associated with this environment allows user interaction. The
-- default value is true"
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/isenabled).
-- A disabled control, or one inside a disabled view (across bodies too),
-- cannot be tapped, typed into, toggled, stepped, picked or focused: the
-- attempt is an error naming the view, and nothing runs.
local ui = require("lunette")

-- Calls fn, which must raise; returns the message.
local function refused(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return tostring(err)
end

describe("D09 disabled", function()
  it("D09 a disabled Button cannot be tapped: an error naming it, and its action does not run", function()
    local taps = 0
    local app = ui.mount(ui.VStack {
      ui.Button("Save", function() taps = taps + 1 end):disabled(true),
      ui.Button("Open", function() taps = taps + 10 end):disabled(false),
    })
    local err = refused(function() app:find("Save"):tap() end)
    assert.matches('disabled_spec.lua:%d+: cannot tap Button "Save": it is disabled', err)
    assert.equal(0, taps)
    app:find("Open"):tap()
    assert.equal(10, taps)
    app:unmount()
  end)

  it("D09 every control inside a disabled container refuses: toggle, type, submit, step, slide, pick, focus", function()
    local Form = ui.View("D09Form", {
      state = { on = false, name = "ada", n = 1, x = 0.5, flavor = "vanilla", submitted = 0 },
      focusState = { "field" },
      body = function(self)
        return ui.VStack {
          ui.Text(("%s %s %d %s %s %d %s"):format(tostring(self.on), self.name, self.n, self.x, self.flavor,
            self.submitted, tostring(self.field))),
          ui.Toggle("On", self["$on"]),
          ui.TextField("Name", self["$name"]):onSubmit(function() self.submitted = self.submitted + 1 end)
            :focused(self["$field"], "name"),
          ui.Stepper("N", self["$n"], { 0, 9 }),
          ui.Slider(self["$x"], { 0, 1 }),
          ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
        }:disabled(true)
      end,
    })
    local app = ui.mount(Form {})
    local before = "false ada 1 0.5 vanilla 0 nil"
    assert.truthy(app:find(before))
    assert.matches('cannot toggle Toggle "On": it is disabled', refused(function() app:find("On"):toggle() end))
    local field = app:find { type = "TextField" }
    assert.matches('cannot type into TextField "Name": it is disabled', refused(function() field:setText("bob") end))
    assert.matches('cannot submit TextField "Name": it is disabled', refused(function() field:submit() end))
    assert.matches('cannot focus TextField "Name": it is disabled', refused(function() field:focus() end))
    local stepper = app:find { type = "Stepper" }
    assert.matches('cannot step Stepper "N": it is disabled', refused(function() stepper:increment() end))
    assert.matches('cannot step Stepper "N": it is disabled', refused(function() stepper:decrement() end))
    assert.matches("cannot set the value of Slider", refused(function() app:find { type = "Slider" }:setValue(1) end))
    assert.matches('cannot pick from Picker "Flavor"', refused(function() app:find { type = "Picker" }:select("chocolate") end))
    assert.truthy(app:find(before))                   -- nothing changed
    app:unmount()
  end)

  it("D09 disabled reaches into the bodies of the views inside it, and isEnabled reads false there", function()
    local Child = ui.View("D09Child", {
      environment = { enabled = "isEnabled" },
      body = function(self)
        return ui.Button("Child " .. tostring(self.enabled), function() end)
      end,
    })
    local Parent = ui.View("D09Parent", {
      state = { locked = true },
      body = function(self)
        return ui.VStack {
          ui.Group { Child {} }:disabled(self.locked),
          ui.Button("unlock", function() self.locked = not self.locked end),
        }
      end,
    })
    local app = ui.mount(ui.VStack { Parent {}, Child {} })
    assert.truthy(app:find("Child false"))            -- inside the disabled group
    assert.truthy(app:find("Child true"))             -- outside it: the default
    assert.matches('cannot tap Button "Child false": it is disabled',
      refused(function() app:find("Child false"):tap() end))
    app:find("unlock"):tap()                          -- the child's environment changed: it renders again
    assert.equal(2, #app:findAll("Child true"))
    app:find("unlock"):tap()
    assert.truthy(app:find("Child false"))
    app:unmount()
  end)

  it("D09 the outer disabled overrides the inner one", function()
    local taps = 0
    local app = ui.mount(ui.HStack {
      ui.Button("Press", function() taps = taps + 1 end):disabled(false),
    }:disabled(true))
    assert.matches("it is disabled", refused(function() app:find("Press"):tap() end))
    assert.equal(0, taps)
    app:unmount()
  end)

  it("D09 a List inside a disabled view, or disabled itself, cannot be scrolled", function()
    local items = {}
    for i = 1, 200 do items[i] = "row " .. i end
    local Feed = ui.View("D09Feed", function()          -- another body: disabled reaches it through isEnabled
      return ui.List(items, function(r) return ui.Text(r) end)
    end)
    local app = ui.mount(ui.VStack { Feed {} }:disabled(true))
    local err = refused(function() app:find({ type = "List" }):scroll(150) end)
    assert.matches("disabled_spec.lua:%d+: cannot scroll List: it is disabled", err)
    assert.is_nil(app:find("row 150"))                -- the window did not move
    local own = ui.mount(ui.List(items, function(r) return ui.Text(r) end):disabled(true))
    assert.matches("cannot scroll List: it is disabled", refused(function() own:find({ type = "List" }):scroll(150) end))
    assert.matches("^List %.disabled%(true%) disabled=true\n", own:tree())   -- marked, as controls are (the preview, a host)
    own:unmount()
    local outer = ui.mount(ui.VStack { ui.List(items, function(r) return ui.Text(r) end) })
    outer:find({ type = "List" }):scroll(150)          -- an enabled List scrolls
    assert.truthy(outer:find("row 150"))
    outer:unmount()
    app:unmount()
  end)

  it("D09 the tree marks a disabled control, for the preview to draw it so", function()
    local app = ui.mount(ui.VStack { ui.Toggle("Wifi", ui.Binding.constant(true)) }:disabled(true))
    assert.matches('Toggle "Wifi" on disabled=true', app:tree())
    app:unmount()
  end)

  it("D09 :disabled takes a boolean (or nil, not disabled); anything else is an error naming the call", function()
    local err = refused(function() ui.Button("x", function() end):disabled("yes") end)
    assert.matches("disabled_spec.lua:%d+: :disabled%(%) takes a boolean, got string", err)
    local taps = 0
    local app = ui.mount(ui.Button("y", function() taps = taps + 1 end):disabled(nil))
    app:find("y"):tap()
    assert.equal(1, taps)
    app:unmount()
  end)
end)
