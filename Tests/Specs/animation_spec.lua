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

-- Animation's spring presets: bouncy, smooth and snappy, "a predefined
-- duration" (0.5 s) and a base bounce of 0.3, 0 and 0.15 plus extraBounce
-- (https://developer.apple.com/documentation/swiftui/animation/bouncy(duration:extrabounce:),
-- .../smooth(duration:extrabounce:), .../snappy(duration:extrabounce:)).
-- A name Animation lacks does not compile in Swift: read as nil here it
-- would mean "no animation", so it is an error.
describe("Animation values", function()
  -- delay(_:): "Delays the start of the animation by the specified number of
  -- seconds" (https://developer.apple.com/documentation/swiftui/animation/delay(_:));
  -- speed(_:): "Changes the duration of an animation by adjusting its speed"
  -- (https://developer.apple.com/documentation/swiftui/animation/speed(_:)).
  it("S20 animation:delay(s) and :speed(x) make another; the completion waits for the delay too", function()
    assert.equal("easeInOut 0.3s delay 1.0s", tostring(ui.Animation.easeInOut(0.3):delay(1)))
    assert.equal("linear 0.5s", tostring(ui.Animation.linear(1):speed(2)))
    assert.equal("default 0.175s", tostring(ui.Animation.default:speed(2)))
    assert.equal("default", tostring(ui.Animation.default))   -- the original is unchanged
    assert.equal("linear 1.0s delay 1.5s", tostring(ui.Animation.linear(1):delay(1):delay(0.5)))
    assert.error_matches(function() return ui.Animation.easeInOut():repeatForever() end,
      "an animation has no 'repeatForever' (it offers :delay(s) and :speed(x)", 1, true)
    assert.error_matches(function() return ui.Animation.linear():speed(0) end, "speed must be a number above 0")
    assert.error_matches(function() return ui.Animation.linear(1e9):speed(1e-3) end, "at most 1e9 seconds")
    assert.error_matches(function() return ui.Animation.linear():delay(9e8):delay(9e8) end, "at most 1e9 seconds")
    local M = ui.Observable("DelayedModel", { x = 0 })
    local m, done = M(), nil
    local app = ui.mount(ui.View("Delayed", function() return ui.Text("faded"):opacity(m.x) end)())
    ui.withAnimation(ui.Animation.linear(1):delay(0.5), function() m.x = 1 end, function() done = ui.clock.now() end)
    ui.flush()
    assert.equal("opacity 0 -> 1, linear 1.0s delay 0.5s", animated(app, "faded"))
    ui.clock.advance(1.2)
    assert.is_nil(done)
    ui.clock.advance(0.5)
    assert.equal(1.5, done)
    app:unmount()
  end)

  it("S20 bouncy, smooth and snappy are springs with SwiftUI's durations and bounces", function()
    assert.equal("bouncy 0.5s", tostring(ui.Animation.bouncy()))
    assert.equal(0.3, ui.Animation.bouncy().bounce)
    assert.equal("smooth 2.0s", tostring(ui.Animation.smooth(2)))
    assert.equal(0, ui.Animation.smooth().bounce)
    assert.near(0.25, ui.Animation.snappy(0.5, 0.1).bounce, 1e-12)
    local store = Store()
    local V = ui.View("BouncyView", function(self) return ui.Image("dot"):scaleEffect(self.store.playing and 2 or 1) end)
    local app = ui.mount(V { store = store })
    ui.withAnimation(ui.Animation.bouncy(), function() store.playing = true end)
    ui.flush()
    assert.equal("scaleEffect 1 -> 2, bouncy 0.5s", animated(app, "dot"))
    app:unmount()
  end)

  it("S20 a name ui.Animation lacks is an error with the closest one, not nil", function()
    assert.error_matches(function() return ui.Animation.bounce end, "ui.Animation has no 'bounce' %(did you mean 'bouncy'%?%)")
    local ok, err = pcall(function() return ui.Animation.eseIn end)
    assert.is_false(ok)
    assert.matches("animation_spec.lua:%d+: ui.Animation has no 'eseIn' %(did you mean 'easeIn'%?%)", err)
    assert.error_matches(function() return ui.Animation.bouncy(1, 0, "x") end, "ui.Animation.bouncy takes at most 2 arguments")
  end)

  -- animation(_:) "Applies the given animation to all animatable values
  -- within this view" and is deprecated for animation(_:value:)
  -- (https://developer.apple.com/documentation/swiftui/view/animation(_:)-1hc0p):
  -- Lunette's takes the value; without one it would watch nothing and never animate.
  it("S20 :animation(a) without the value it watches is an error naming the fix", function()
    local ok, err = pcall(function() return ui.Image("dot"):animation(ui.Animation.linear(2)) end)
    assert.is_false(ok)
    assert.matches("animation_spec.lua:%d+: view:animation%(a, value%): the value it watches is missing", err)
    assert.truthy(ui.Image("dot"):animation(ui.Animation.linear(2), nil))   -- a value that is nil is given
  end)

  -- "The completion callback will always be fired exactly one time"
  -- (https://developer.apple.com/documentation/swiftui/transaction/addanimationcompletion(criteria:_:)):
  -- withAnimation's body raising still animates what it changed, and its
  -- completion runs once, after the animation; the error reaches the caller.
  it("D05 a body that raises keeps its changes animated and its completion, then raises", function()
    local store = Store()
    local V = ui.View("RaisingBody", function(self) return ui.Image("dot"):scaleEffect(self.store.playing and 2 or 1) end)
    local app = ui.mount(V { store = store })
    local done = 0
    local ok, err = pcall(ui.withAnimation, ui.Animation.linear(1), function()
      store.playing = true
      error("boom")
    end, function() done = done + 1 end)
    assert.is_false(ok)
    assert.matches("boom", err)
    ui.flush()
    assert.equal("scaleEffect 1 -> 2, linear 1.0s", animated(app, "dot"))
    assert.equal(0, done)
    ui.clock.advance(1.5)
    ui.flush()
    assert.equal(1, done)
    ui.clock.advance(5)
    ui.flush()
    assert.equal(1, done)
    -- a body that raises before changing anything: the completion runs at once
    ok = pcall(ui.withAnimation, ui.Animation.linear(1), function() error("early") end, function() done = done + 1 end)
    assert.is_false(ok)
    assert.equal(2, done)
    app:unmount()
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
