-- Safety, round two (issue 16): what the runtime does *for* a script —
-- deep trees across bodies, copies of strings, timers at any interval,
-- app storage's values — stays bounded, exact or refused. Numbered by
-- TARGETS.md's R18-R26.
local ui = require("lunette")

-- A view that renders itself `levels` times, each body under a static stack
-- of `stack` VStacks: each body is shallow, the whole tree is not.
local function recursive(name, levels, stack)
  local V
  V = ui.View(name, function(self)
    local n = self.n or 0
    local inner = n < levels and V { n = n + 1 } or ui.Text("bottom")
    for _ = 1, stack do inner = ui.VStack { inner } end
    return inner
  end)
  return V
end

describe("R18 trees deep across bodies #errors", function()
  it("R18 a view rendering itself 400 times under 150-deep stacks is an error node; queries, JSON and unmount survive", function()
    local app = ui.mount(recursive("DeepAcross", 400, 150) {})
    local tree = app:tree()
    assert.matches("Error DeepAcross: [^\n]-safety_spec.lua:%d+: the rendered tree is more than %d+ views deep", tree)   -- where its body is
    assert.truthy(#tree < 8 * 1024 * 1024)
    assert.is_nil(app:find("bottom"))
    assert.truthy(#app:findAll { type = "VStack" } >= 900)
    assert.truthy(#app:json() > 0)
    app:unmount()
  end)

  it("R18 a kept view that its parent wraps deeper is checked again, with everything below it", function()
    local selves, Level = {}, nil
    Level = ui.View("Level", { state = { wrap = false }, body = function(self)
      selves[self.n] = self
      local inner = self.n > 0 and Level { n = self.n - 1 }:id("L" .. self.n) or ui.Text("leaf")
      if self.wrap then for _ = 1, 150 do inner = ui.VStack { inner } end end
      return inner
    end })
    local app = ui.mount(Level { n = 40 })
    for n = 0, 40 do selves[n].wrap = true; ui.flush() end   -- from the bottom up: each kept child moves deeper
    local tree = app:tree()
    assert.matches("the rendered tree is more than %d+ views deep", tree)
    local deepest = 0
    for indent in tree:gmatch("\n( *)") do deepest = math.max(deepest, #indent // 2) end
    assert.truthy(deepest < 1250, "deepest " .. deepest)
    app:unmount()
  end)

  it("R18 a tree 750 views deep across five bodies renders whole", function()
    local app = ui.mount(recursive("DeepButFine", 4, 150) {})
    assert.truthy(app:find("bottom"))
    assert.is_false(app:tree():find("Error", 1, true) ~= nil)
    app:unmount()
  end)
end)

describe("R24 values stay what they were", function()
  it("R24 a Stepper at the integers' ends stays there: no wrap, no signed overflow", function()
    local V = ui.View("Ends", { state = { n = math.maxinteger, m = math.mininteger }, body = function(self)
      return ui.VStack {
        ui.Text("n " .. self.n), ui.Stepper("n", self["$n"], { 0, math.huge }),
        ui.Text("m " .. self.m), ui.Stepper("m", self["$m"], { -math.huge, 0 }),
      }
    end })
    local app = ui.mount(V {})
    app:findAll { type = "Stepper" }[1]:increment()
    app:findAll { type = "Stepper" }[2]:decrement()
    assert.truthy(app:find("n " .. math.maxinteger))
    assert.truthy(app:find("m " .. math.mininteger))
    app:findAll { type = "Stepper" }[1]:decrement()
    assert.truthy(app:find("n " .. (math.maxinteger - 1)))
    app:unmount()
  end)
end)
