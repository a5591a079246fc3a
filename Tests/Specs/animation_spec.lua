-- SEMANTICS S20: transactions and animations ("Animate state transitions").
local ui = require("lunette")

local Store = ui.Observable("Store", { playing = false, other = 0 })

local function animated(app, text)
  local node = app:find(text)
  return node and tostring(node):match("%[animated: (.-)%]")
end

-- withAnimation(_:_:): the changes made in its body are animated with the
-- given animation on the views they alter (it sets the animation of the
-- current Transaction: https://developer.apple.com/documentation/swiftui/transaction)
-- (https://developer.apple.com/documentation/swiftui/withanimation(_:_:));
-- Binding.animation(_:) (https://developer.apple.com/documentation/swiftui/binding/animation(_:));
-- animation(_:value:) (https://developer.apple.com/documentation/swiftui/view/animation(_:value:)).
describe("Animation", function()
  it("S20 a change inside withAnimation is recorded on the nodes that changed because of it", function()
    local store = Store()
    local PlayButton = ui.View("PlayButton", function(self)
      local playing = self.store.playing
      return ui.HStack {
        ui.Image(playing and "pause.circle" or "play.circle"):scaleEffect(playing and 1.5 or 1),
        ui.Text("label"):background(playing and "blue" or "gray"),
        ui.Text("still"):padding(8),
      }
    end)
    local app = ui.mount(PlayButton { store = store })
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() store.playing = true end)
    ui.flush()
    assert.equal("scaleEffect 1 -> 1.5, easeInOut 0.3s", animated(app, "pause.circle"))
    assert.equal('background "gray" -> "blue", easeInOut 0.3s', animated(app, "label"))
    assert.is_nil(animated(app, "still"))
    store.playing = false                    -- outside a transaction: not animated
    ui.flush()
    assert.is_nil(animated(app, "play.circle"))
  end)

  it("S20 a binding with an animation animates the changes its writes cause", function()
    local PlayButton = ui.View("PlayButton", { binding = { "isPlaying" }, body = function(self)
      return ui.Button(self.isPlaying and "Pause" or "Play", function() self.isPlaying = not self.isPlaying end)
    end })
    local PlayerView = ui.View("PlayerView", {
      state = { isPlaying = false },
      body = function(self)
        return ui.VStack {
          ui.Image("artwork"):scaleEffect(self.isPlaying and 1.2 or 1),
          PlayButton { isPlaying = self["$isPlaying"]:animation(ui.Animation.spring()) },
        }
      end,
    })
    local app = ui.mount(PlayerView())
    app:find("Play"):tap()
    assert.equal("scaleEffect 1 -> 1.2, spring 0.5s", animated(app, "artwork"))
  end)

  it("S20 :animation(a, value) animates only that view, when value changes", function()
    local store = Store()
    local V = ui.View("V", function(self)
      local playing = self.store.playing
      return ui.VStack {
        ui.Image("a"):scaleEffect(playing and 2 or 1):animation(ui.Animation.linear(1), playing),
        ui.Image("b"):scaleEffect(playing and 2 or 1),
        ui.Image("c"):opacity(self.store.other):animation(ui.Animation.linear(1), playing),
      }
    end)
    local app = ui.mount(V { store = store })
    store.playing = true
    ui.flush()
    assert.equal("scaleEffect 1 -> 2, linear 1.0s", animated(app, "a"))
    assert.is_nil(animated(app, "b"))
    store.other = 1                           -- value unchanged: not animated
    ui.flush()
    assert.is_nil(animated(app, "c"))
  end)

  it("animations are in app:json() too, and withAnimation checks its arguments", function()
    local store = Store()
    local V = ui.View("V", function(self) return ui.Text("x"):scaleEffect(self.store.playing and 2 or 1) end)
    local app = ui.mount(V { store = store })
    ui.withAnimation(function() store.playing = true end)
    ui.flush()
    assert.matches('"animated":"scaleEffect 1 %-> 2, default"', app:json())
    assert.error_matches(function() ui.withAnimation("fast", function() end) end, "animation expected", 1, true)
  end)
end)

-- D05: "If no animations are created by the changes in body, then the
-- callback will be called immediately after body"
-- (https://developer.apple.com/documentation/swiftui/transaction/addanimationcompletion(criteria:_:));
-- animation(_:value:): "If animation is nil, the view doesn't animate"
-- (https://developer.apple.com/documentation/swiftui/view/animation(_:value:)).
-- The only view that reads the change takes the animation away: the
-- completion runs at once, not after the animation's duration. (A run
-- animates as a whole — README, T02 — so this holds for a body's top node.)
describe("D05 a completion when the only reader has :animation(nil, value)", function()
  it("D05 runs right after the update; with an animation of its own, after its duration", function()
    local M = ui.Observable("D05NilAnim", { s = 1, t = 1 })
    local m = M()
    local V = ui.View("D05NilAnimView", function() return ui.Text("s " .. m.s):animation(nil, m.s) end)
    local W = ui.View("D05NilAnimOwn", function() return ui.Text("t " .. m.t):animation(ui.Animation.linear(2), m.t) end)
    local app = ui.mount(ui.VStack { ui.Text("s-view"), V {}, W {} })
    local t0, at = ui.clock.now(), nil
    ui.withAnimation(ui.Animation.easeInOut(1), function() m.s = 2 end, function() at = ui.clock.now() - t0 end)
    ui.flush()
    ui.clock.advance(0)
    assert.equal(0, at)
    at = nil
    t0 = ui.clock.now()
    ui.withAnimation(ui.Animation.easeInOut(1), function() m.t = 2 end, function() at = ui.clock.now() - t0 end)
    ui.flush()
    ui.clock.advance(0)
    assert.is_nil(at)                                 -- this one animates: after its duration
    ui.clock.advance(1)
    assert.equal(1, at)
    app:unmount()
  end)

  it("D05 a node inside that animates with its own :animation keeps the completion waiting", function()
    local M = ui.Observable("D05NilOuter", { s = 1 })
    local m = M()
    local V = ui.View("D05NilOuterView", function()
      return ui.VStack {
        ui.Text("inner " .. m.s):padding(m.s):animation(ui.Animation.linear(2), m.s),
      }:animation(nil, m.s)
    end)
    local app = ui.mount(V {})
    local t0, at = ui.clock.now(), nil
    ui.withAnimation(ui.Animation.easeInOut(1), function() m.s = 2 end, function() at = ui.clock.now() - t0 end)
    ui.flush()
    ui.clock.advance(0)
    assert.is_nil(at)                                 -- the inner node animates: not "no animations"
    ui.clock.advance(1)
    assert.equal(1, at)
    app:unmount()
  end)
end)
