-- T06: what an onPreferenceChange handler hears, and when.
-- onPreferenceChange(_:perform:) "adds an action to perform when the
-- specified preference key's value changes"
-- (https://developer.apple.com/documentation/swiftui/view/onpreferencechange(_:perform:)):
-- a handler compares with what it heard itself, so one handler coming or
-- going tells the others nothing, and a handler that comes back is a new
-- one, told its value as the first was. Each case failed before session 20
-- (a hostile read: handlers were told apart by their place among their
-- view's handlers, and what one heard outlived it).
local ui = require("lunette")

describe("T06 preference handlers", function()
  it("T06 a handler compares with what it heard, however many handlers come and go before it", function()
    ui.PreferenceKey("prefsShiftK", "")
    ui.PreferenceKey("prefsShiftJ", "")
    local m = ui.Observable("PrefsShift", { first = true, b = "b", j = true })()
    local log = {}
    local V = ui.View("PrefsShiftHolder", function()
      local second = ui.VStack({ ui.Text("y"):preference("prefsShiftK", m.b) })
        :onPreferenceChange("prefsShiftK", function(x) log[#log + 1] = "second " .. x end)
      local first = m.first and ui.VStack({ ui.Text("x"):preference("prefsShiftK", "a") })
        :onPreferenceChange("prefsShiftK", function(x) log[#log + 1] = "first " .. x end) or ui.Text("none")
      local node = ui.VStack({ first, second })
      if m.j then node = node:onPreferenceChange("prefsShiftJ", function() end) end
      return node
    end)
    local app = ui.mount(V {})
    assert.same({ "first a", "second b" }, log)
    log = {}
    m.first = false
    m.b = "a"                                        -- what the first heard: still a change for the second
    ui.flush()
    assert.same({ "second a" }, log)
    log = {}
    m.j = false                                      -- another key's handler goes: nothing changed here
    ui.flush()
    assert.same({}, log)
    app:unmount()
  end)

  it("T06 a handler that goes and comes back is told its value again", function()
    ui.PreferenceKey("prefsBackK", "")
    local m = ui.Observable("PrefsBack", { watching = true })()
    local told = 0
    local V = ui.View("PrefsBackHolder", function()
      local node = ui.VStack({ ui.Text("x"):preference("prefsBackK", "same") })
      if m.watching then node = node:onPreferenceChange("prefsBackK", function() told = told + 1 end) end
      return node
    end)
    local app = ui.mount(V {})
    assert.equal(1, told)
    m.watching = false
    ui.flush()
    m.watching = true
    ui.flush()
    assert.equal(2, told)
    app:unmount()
  end)

  it("T06 the handlers of an if's two branches are two handlers: the other is told its value", function()
    -- as a view built in another branch is another view (F01); a hostile read: they were one
    ui.PreferenceKey("prefsBranchK", "")
    local m = ui.Observable("PrefsBranch", { a = true })()
    local log = {}
    local app = ui.mount(ui.View("PrefsBranchHolder", function()
      if m.a then
        return ui.VStack({ ui.Text("a"):preference("prefsBranchK", "same") })
          :onPreferenceChange("prefsBranchK", function(x) log[#log + 1] = "A " .. x end)
      else
        return ui.VStack({ ui.Text("b"):preference("prefsBranchK", "same") })
          :onPreferenceChange("prefsBranchK", function(x) log[#log + 1] = "B " .. x end)
      end
    end) {})
    m.a = false
    ui.flush()
    assert.same({ "A same", "B same" }, log)
    app:unmount()
  end)

  it("T06 a value that cannot be kept is its view's error, and the other handlers are still told", function()
    ui.PreferenceKey("prefsCycleK", 0)
    ui.PreferenceKey("prefsFineK", 0)
    local m = ui.Observable("PrefsCycle", { v = 1 })()
    local fine = {}
    local cyclic = {}
    cyclic.self = cyclic
    local V = ui.View("PrefsCycleHolder", function()
      return ui.VStack({
        ui.VStack({ ui.Text("c"):preference("prefsCycleK", m.v > 1 and cyclic or m.v) })
          :onPreferenceChange("prefsCycleK", function() end),
        ui.VStack({ ui.Text("f"):preference("prefsFineK", m.v) })
          :onPreferenceChange("prefsFineK", function(x) fine[#fine + 1] = x end),
      })
    end)
    local app = ui.mount(V {})
    m.v = 5
    ui.flush()
    assert.same({ 1, 5 }, fine)
    assert.reported(app, "PrefsCycleHolder: a preference value: the table contains itself")
    app:unmount()
  end)

  it("T06 a key's name is all of its bytes: one that holds a NUL, or is not UTF-8, is refused", function()
    local ok, message = pcall(ui.PreferenceKey, "prefs\0nul", 0)
    assert.is_false(ok)
    assert.matches("a preference key's name holds no NUL byte", message, 1, true)
    ok, message = pcall(ui.PreferenceKey, "prefs\xff", 0)
    assert.is_false(ok)
    assert.matches("a preference key's name is UTF-8 text", message, 1, true)
  end)

  it("T06 keys that read alike are two keys: canonically equivalent names stay apart", function()
    local composed, decomposed = "prefsCaf\u{e9}", "prefsCafe\u{301}"
    ui.PreferenceKey(composed, 0, function(a, v) return a + v end)
    ui.PreferenceKey(decomposed, 0, function(a, v) return a + v end)
    local heard = {}
    local app = ui.mount(ui.VStack({
      ui.Text("a"):preference(composed, 1),
      ui.Text("b"):preference(decomposed, 1000),
    }):onPreferenceChange(composed, function(x) heard[#heard + 1] = x end))
    assert.same({ 1 }, heard)
    app:unmount()
  end)

  it("T06 a key's name may begin with a combining mark", function()
    -- a hostile read: the host read "preference:" and the mark as one character and dropped both
    local key = "\u{301}prefsMark"
    ui.PreferenceKey(key, "")
    local heard = {}
    local app = ui.mount(ui.VStack({ ui.Text("x"):preference(key, "set") })
      :onPreferenceChange(key, function(x) heard[#heard + 1] = x end))
    assert.same({ "set" }, heard)
    assert.is_nil(app:tree():find("prefsMark", 1, true))
    app:unmount()
  end)

  it("T06 handlers of a key named like another's second handler stay apart", function()
    ui.PreferenceKey("prefsA", 0)
    ui.PreferenceKey("prefsA#2", 0)
    local told = {}
    local app = ui.mount(ui.VStack({ ui.Text("x"):preference("prefsA", 5):preference("prefsA#2", 5) })
      :onPreferenceChange("prefsA", function(x) told[#told + 1] = "a/1 " .. x end)
      :onPreferenceChange("prefsA", function(x) told[#told + 1] = "a/2 " .. x end)
      :onPreferenceChange("prefsA#2", function(x) told[#told + 1] = "a#2 " .. x end))
    assert.same({ "a/1 5", "a/2 5", "a#2 5" }, told)
    app:unmount()
  end)

  -- PreferenceKey's reduce "combines a sequence of values" from the views
  -- below in their order (https://developer.apple.com/documentation/swiftui/preferencekey/reduce(value:nextvalue:)):
  -- views moved by their ids change that order though none of them ran.
  -- Session 21 (a hostile read): the handler went on hearing the old order.
  it("T06 views reordered by their ids are heard in their new order", function()
    ui.PreferenceKey("prefsOrder", "", function(a, b) return a .. b end)
    local m = ui.Observable("PrefsOrder", { ids = { "a", "b", "c" } })()
    local Item = ui.View("PrefsOrderItem", function(self) return ui.Text(self.x):preference("prefsOrder", self.x) end)
    local Items = ui.View("PrefsOrderItems", function()
      local kids = {}
      for _, x in ipairs(m.ids) do kids[#kids + 1] = Item { x = x }:id(x) end
      return ui.VStack(kids)
    end)
    local heard = {}
    local app = ui.mount(ui.VStack { Items {} }:onPreferenceChange("prefsOrder", function(v) heard[#heard + 1] = v end))
    m.ids = { "c", "b", "a" }
    ui.flush()
    assert.same({ "abc", "cba" }, heard)
    assert.equal(1, app:renders("PrefsOrderItem#1"))   -- moved, not run again
    app:unmount()
  end)
end)
