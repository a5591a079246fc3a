-- Transactions and their keys (issue 12, T02): what a change carries to the
-- re-renders it causes, read and changed by view:transaction(fn).
local ui = require("lunette")

local Card = ui.Observable("TxCard", { offset = 0 })
ui.TransactionKey("txFromSwipe", false)

local function animated(app, text)
  local node = app:find(text)
  return node and tostring(node):match("%[animated: (.-)%]")
end

local function cardView(seen)
  return ui.View("TxCardView", function(self)
    return ui.Text("card"):scaleEffect(self.card.offset):transaction(function(t)
      seen[#seen + 1] = t.txFromSwipe
      if t.txFromSwipe then t.animation = ui.Animation.spring() end
    end)
  end)
end

-- Transaction (https://developer.apple.com/documentation/swiftui/transaction):
-- "the context of the current state-processing update"; withTransaction
-- (https://developer.apple.com/documentation/swiftui/withtransaction(_:_:_:))
-- runs the body with the transaction's key set; transaction(_:)
-- (https://developer.apple.com/documentation/swiftui/view/transaction(_:))
-- changes it for the animations within the view. disablesAnimations
-- (https://developer.apple.com/documentation/swiftui/transaction/disablesanimations)
-- only keeps animation(_:) "from inserting new animations into the
-- transaction": the transaction's own animation (withAnimation's) stays.
describe("Transactions", function()
  it("T02 withTransaction carries a key to the views its change re-renders; :transaction reads it and picks the animation", function()
    local card, seen = Card(), {}
    local app = ui.mount(cardView(seen) { card = card })
    assert.same({ false }, seen)                       -- the first render: no transaction, the key's default
    ui.withTransaction("txFromSwipe", true, function() card.offset = 40 end)
    ui.flush()
    assert.same({ false, true }, seen)
    assert.equal("scaleEffect 0 -> 40, spring 0.5s", animated(app, "card"))
    card.offset = 0                                    -- a plain write: the default again, not animated
    ui.flush()
    assert.same({ false, true, false }, seen)
    assert.is_nil(animated(app, "card"))
    app:unmount()
  end)

  it("T02 :transaction can take the animation away from a subtree; disablesAnimations leaves withAnimation's", function()
    local card = Card()
    local V = ui.View("TxQuiet", function(self)
      return ui.VStack {
        ui.Text("quiet"):scaleEffect(self.card.offset):transaction(function(t) t.animation = nil end),
        ui.Text("calm"):scaleEffect(self.card.offset):transaction(function(t) t.disablesAnimations = true end),
        ui.Text("loud"):scaleEffect(self.card.offset),
      }
    end)
    local app = ui.mount(V { card = card })
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() card.offset = 10 end)
    ui.flush()
    assert.is_nil(animated(app, "quiet"))
    assert.equal("scaleEffect 0 -> 10, easeInOut 0.3s", animated(app, "calm"))   -- the explicit animation stays
    assert.equal("scaleEffect 0 -> 10, easeInOut 0.3s", animated(app, "loud"))
    ui.withAnimation(ui.Animation.linear(1), function()          -- nor does withTransaction's flag remove it
      ui.withTransaction("disablesAnimations", true, function() card.offset = 20 end)
    end)
    ui.flush()
    assert.equal("scaleEffect 10 -> 20, linear 1.0s", animated(app, "loud"))
    assert.equal("scaleEffect 10 -> 20, linear 1.0s", animated(app, "calm"))
    assert.is_nil(animated(app, "quiet"))
    app:unmount()
  end)

  it("T02 transactions nest: the inner one starts from the outer, and the outer is current again after it", function()
    local card, seen = Card(), {}
    local other = Card()
    local function reader(name)
      return ui.View("TxNested" .. name, function(self)
        return ui.Text(name):scaleEffect(self.m.offset):transaction(function(t)
          seen[#seen + 1] = name .. ":" .. tostring(t.txFromSwipe) .. ":" .. tostring(t.animation)
        end)
      end)
    end
    local Both = ui.View("TxNested", function(self)
      return ui.VStack { reader("a") { m = self.a }, reader("b") { m = self.b } }
    end)
    local app = ui.mount(Both { a = card, b = other })
    seen = {}
    ui.withAnimation(ui.Animation.linear(1), function()
      ui.withTransaction("txFromSwipe", true, function() card.offset = 1 end)
      other.offset = 1
    end)
    ui.flush()
    table.sort(seen)
    assert.same({ "a:true:linear 1.0s", "b:false:linear 1.0s" }, seen)
    app:unmount()
  end)

  it("T02 an undeclared key or a wrong value is an error naming it", function()
    assert.error_matches(function() ui.withTransaction("txFromSwip", true, function() end) end,
      "no transaction key 'txFromSwip' (did you mean 'txFromSwipe'?)", 1, true)
    assert.error_matches(function() ui.withTransaction("animation", 3, function() end) end,
      "animation must be an animation or nil, got number", 1, true)
    local card = Card()
    local V = ui.View("TxBad", function(self)
      return ui.Text("bad"):scaleEffect(self.card.offset):transaction(function(t) return t.nope end)
    end)
    local app = ui.mount(V { card = card })
    assert.has_error_node(app, "no transaction key 'nope'")
    assert.error_matches(function() ui.TransactionKey("animation", 1) end, "own fields", 1, true)
    app:unmount()
  end)
end)

-- D06. transaction(_:) "applies the given transaction mutation function to
-- all animations used within the view"
-- (https://developer.apple.com/documentation/swiftui/view/transaction(_:)):
-- the views inside it, whatever body they come from. Transaction's
-- disablesAnimations keeps animation(_:) "from inserting new animations into
-- the transaction" (https://developer.apple.com/documentation/swiftui/transaction/disablesanimations).
describe("D06 Transactions reach within the view", function()
  local CardFace = ui.View("D06Face", function(self)
    return ui.Text("face"):scaleEffect(self.card.offset)
  end)

  it("D06 :transaction applies to the animations of views inside it from other bodies", function()
    local card = Card()
    local Outer = ui.View("D06Outer", function(self)
      return ui.VStack { CardFace { card = self.card } }:transaction(function(t) t.animation = ui.Animation.spring() end)
    end)
    local Quiet = ui.View("D06Quiet", function(self)
      return ui.Group { ui.VStack { CardFace { card = self.card } } }:transaction(function(t) t.animation = nil end)
    end)
    local app = ui.mount(ui.VStack { Outer { card = card }, Quiet { card = card } })
    local faces = function() return app:findAll("face") end
    app:resetRenders()
    card.offset = 5                                   -- a plain write: only the faces render again
    ui.flush()
    assert.equal(0, app:renders("D06Outer"))
    assert.equal("scaleEffect 0 -> 5, spring 0.5s", tostring(faces()[1]):match("%[animated: (.-)%]"))
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() card.offset = 10 end)
    ui.flush()
    assert.equal("scaleEffect 5 -> 10, spring 0.5s", tostring(faces()[1]):match("%[animated: (.-)%]"))
    assert.is_nil(tostring(faces()[2]):match("%[animated"))   -- its :transaction took the animation away
    app:unmount()
  end)

  it("D06 disablesAnimations stops the implicit animations (:animation(a, value)) inside the view", function()
    local card = Card()
    local Implicit = ui.View("D06Implicit", function(self)
      return ui.Text("implicit"):scaleEffect(self.card.offset):animation(ui.Animation.linear(1), self.card.offset)
    end)
    local Calm = ui.View("D06Calm", function(self)
      return ui.VStack { Implicit { card = self.card } }:transaction(function(t) t.disablesAnimations = true end)
    end)
    local Free = ui.View("D06Free", function(self)
      return ui.Text("free"):scaleEffect(self.card.offset):animation(ui.Animation.linear(1), self.card.offset)
    end)
    local app = ui.mount(ui.VStack { Calm { card = card }, Free { card = card } })
    card.offset = 3
    ui.flush()
    assert.is_nil(animated(app, "implicit"))
    assert.equal("scaleEffect 0 -> 3, linear 1.0s", animated(app, "free"))
    ui.withTransaction("disablesAnimations", true, function() card.offset = 4 end)
    ui.flush()
    assert.is_nil(animated(app, "free"))              -- a transaction that disables them, from the change
    app:unmount()
  end)
end)

-- Modifiers wrap the view in the order written: each later one is outside
-- the earlier. transaction(_:) "Applies the given transaction mutation
-- function to all animations used within the view"
-- (https://developer.apple.com/documentation/swiftui/view/transaction(_:)),
-- so a :transaction written after :animation(a, value) changes the
-- transaction before it reaches the animation inside it (which still
-- inserts a), and one written before is inside it: it sees, and may take
-- away, the animation the outer :animation inserted. Apple does not spell
-- the order out; this follows from the wrapping (issue 19, session 9; the
-- documentation check's item 14).
describe("The order of :animation and :transaction on one view value", function()
  local function mount(order)
    local card = Card()
    local V = ui.View("Order" .. order, function(self)
      local v = ui.Text("card"):scaleEffect(self.card.offset)
      local a = ui.Animation.linear(1)
      if order == "animationFirst" then
        return v:animation(a, self.card.offset):transaction(function(t) t.animation = nil end)
      elseif order == "transactionFirst" then
        return v:transaction(function(t) t.animation = nil end):animation(a, self.card.offset)
      end
      return v:transaction(function(t) t.animation = t.animation and ui.Animation.spring() end):animation(a, self.card.offset)
    end)
    return ui.mount(V { card = card }), card
  end

  it("a :transaction written after :animation does not take its animation away", function()
    local app, card = mount("animationFirst")
    card.offset = 3
    ui.flush()
    assert.equal("scaleEffect 0 -> 3, linear 1.0s", animated(app, "card"))
    app:unmount()
  end)

  it("a :transaction written before :animation sees the animation it inserts, and may take it away or change it", function()
    local app, card = mount("transactionFirst")
    card.offset = 3
    ui.flush()
    assert.is_nil(animated(app, "card"))
    app:unmount()
    local changed, card2 = mount("changed")
    card2.offset = 4
    ui.flush()
    assert.equal("scaleEffect 0 -> 4, spring 0.5s", animated(changed, "card"))
    changed:unmount()
  end)

  it("D06 :transaction(fn, { value = v }) changes the transaction only in an update in which v changed", function()
    -- transaction(value:_:): "Applies the given transaction mutation function to all animations
    -- used within the view ... whenever value changes"
    -- (https://developer.apple.com/documentation/swiftui/view/transaction(value:_:))
    local card, trigger = Card(), Card()
    local V = ui.View("TxOnValue", function(self)
      return ui.Text("card"):scaleEffect(self.card.offset)
        :transaction(function(t) t.animation = nil end, { value = self.trigger.offset })
    end)
    local app = ui.mount(V { card = card, trigger = trigger })
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() card.offset = 1 end)
    ui.flush()
    assert.equal("scaleEffect 0 -> 1, easeInOut 0.3s", animated(app, "card"))   -- its value did not change
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() card.offset = 2; trigger.offset = 1 end)
    ui.flush()
    assert.is_nil(animated(app, "card"))                                          -- it did: the mutation ran
    app:unmount()
  end)

  it("D06 a valued :transaction reaches the bodies inside only in the update its value changed; a view that comes back is new", function()
    -- found by a hostile read: the views of a child body got the mutation every update, and a
    -- position kept the value of a view that had gone
    local c, trigger, calls = Card(), Card(), 0
    local Child = ui.View("TxValueChild", function() return ui.Text("inner"):scaleEffect(c.offset) end)
    local Parent = ui.View("TxValueParent", function()
      return ui.VStack { ui.Text("own"):scaleEffect(c.offset), Child {} }
        :transaction(function(t) calls = calls + 1; t.animation = nil end, { value = trigger.offset })
    end)
    local app = ui.mount(Parent {})
    ui.withAnimation(ui.Animation.linear(1), function() c.offset = 1 end)
    ui.flush()
    assert.equal("scaleEffect 0 -> 1, linear 1.0s", animated(app, "own"))
    assert.equal("scaleEffect 0 -> 1, linear 1.0s", animated(app, "inner"))
    assert.equal(0, calls)
    ui.withAnimation(ui.Animation.linear(1), function() c.offset = 2; trigger.offset = 1 end)
    ui.flush()
    assert.is_nil(animated(app, "inner"))                   -- now it applies, inside too
    app:unmount()
    local mode, back = Card(), 0
    local Back = ui.View("TxValueBack", function()
      return ui.VStack { mode.offset == 0 and ui.Text("a"):transaction(function() back = back + 1 end, { value = trigger.offset })
        or ui.Image("i") }
    end)
    local b = ui.mount(Back {})
    mode.offset = 1; ui.flush(); trigger.offset = 9; ui.flush(); mode.offset = 0; ui.flush()
    assert.equal(0, back)
    b:unmount()
  end)

  it("the values :animation and :transaction compare are kept for the positions of the last render only", function()
    -- found by a hostile read: a table on the record kept every position ever seen
    -- (a view that moves to a new place each render grew it by one entry a render)
    local box = Card()
    local V = ui.View("TxForgets", function()
      local rows = {}
      rows[box.offset % 3000 + 1] = ui.Text("t"):animation(ui.Animation.default, box.offset)
        :transaction(function() end, { value = box.offset })
      return ui.VStack(rows)
    end)
    local app = ui.mount(V {})
    for i = 1, 50 do box.offset = i; ui.flush() end
    collectgarbage(); collectgarbage()
    local before = collectgarbage("count")
    for i = 51, 1550 do box.offset = i; ui.flush() end
    collectgarbage(); collectgarbage()
    assert.is_true(collectgarbage("count") - before < 64, "grew by " .. (collectgarbage("count") - before) .. " KiB")
    app:unmount()
  end)

  it("S20 :animation(nil, value) keeps the view's change from animating when value changes, whatever transaction comes", function()
    -- "If animation is nil, the view doesn't animate."
    -- (https://developer.apple.com/documentation/swiftui/view/animation(_:value:))
    local card = Card()
    local V = ui.View("TxNilAnimation", function(self)
      return ui.VStack {
        ui.Text("still"):scaleEffect(self.card.offset):animation(nil, self.card.offset),
        ui.Text("moving"):scaleEffect(self.card.offset),
      }
    end)
    local app = ui.mount(V { card = card })
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() card.offset = 2 end)
    ui.flush()
    assert.is_nil(animated(app, "still"))
    assert.equal("scaleEffect 0 -> 2, easeInOut 0.3s", animated(app, "moving"))
    assert.error_matches(function() ui.Text("x"):animation(nil) end, "the value it watches is missing")   -- nil watches a value
    app:unmount()
  end)

  it("one view value takes one :animation and one :transaction; a second is an error naming it", function()
    assert.error_matches(function() ui.Text("x"):animation(ui.Animation.default, 1):animation(ui.Animation.default, 2) end,
      "view:animation(a, value): this view has one already; put the second on a view around it", 1, true)
    assert.error_matches(function() ui.Text("x"):transaction(function() end):transaction(function() end) end,
      "view:transaction(fn): this view has one already", 1, true)
  end)
end)

-- Found by the hostile read of session 10: a view made stale inside
-- ui.withAnimation by a body that ran before it in the same batch animates,
-- and the transaction is not left waiting for a later, unrelated change.
describe("A transaction that reaches a view mid-batch", function()
  it("animates that view's change, and not a later one", function()
    local M = ui.Observable("MidTx", { x = 1 })
    local m, trig = M(), M()
    local A = ui.View("MidTxA", { inputs = { "n" }, body = function(self)
      if self.n == 2 then ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.x = 9 end) end
      return ui.Text("a " .. self.n)
    end })
    local B = ui.View("MidTxB", { inputs = { "n" }, body = function(self)
      return ui.Text("b " .. self.n):scaleEffect(m.x)
    end })
    local app = ui.mount(ui.View("MidTxRoot", function() return ui.VStack { A { n = trig.x }, B { n = trig.x } } end) {})
    trig.x = 2
    ui.flush()
    assert.matches("scaleEffect 1 %-> 9, easeInOut 0.3s", tostring(app:find("b 2")))
    m.x = 10
    ui.flush()
    assert.is_nil(tostring(app:find("b 2")):match("%[animated"))
    app:unmount()
  end)
end)

-- withAnimation (https://developer.apple.com/documentation/swiftui/withanimation(_:_:)):
-- "Returns the result of recomputing the view's body with the provided
-- animation" — the changes its body makes animate, whatever else changed
-- in the same update. A view already waiting to re-render for a plain
-- change made just before (`count += 1; withAnimation { expanded.toggle() }`
-- in one action) still animates what the withAnimation changed. Before,
-- the order of the two writes decided, and the animation was silently
-- dropped. A view runs once an update, with one transaction, merged: after
-- a plain change it takes a later transaction, after one that does not
-- animate a later one that does ("sets the given Animation as the animation
-- property of the thread's current Transaction"), and an animation that
-- reached it stays, so a later withTransaction key or withAnimation(nil)
-- does not take an earlier change's animation away; disablesAnimations
-- (https://developer.apple.com/documentation/swiftui/transaction/disablesanimations)
-- applies to the changes made inside it, not to the plain change before it
-- that :animation(a, value) animates.
describe("T02 A transaction reaches a view already waiting to re-render", function()
  local Box = ui.Observable("WaitTxBox", { s = 1, t = 0 })
  local View = ui.View("WaitTxView", function(self)
    return ui.VStack {
      ui.Text("t " .. self.box.t):scaleEffect(self.box.s),
      ui.Button("plain then animated", function()
        self.box.t = self.box.t + 1
        ui.withAnimation(ui.Animation.easeInOut(0.3), function() self.box.s = self.box.s + 1 end)
      end),
    }
  end)

  it("T02 a plain write then withAnimation in one action: the change animates", function()
    local box = Box()
    local app = ui.mount(View { box = box })
    app:find("plain then animated"):tap()
    ui.flush()
    assert.matches("scaleEffect 1 %-> 2, easeInOut 0.3s", tostring(app:find("t 1")))
    app:unmount()
  end)

  it("T02 through a computed already waiting", function()
    local Model = ui.Observable("WaitTxModel", {
      a = 0, b = 1,
      sum = ui.computed(function(self) return self.a + self.b end),
    })
    local m = Model()
    local app = ui.mount(ui.View("WaitTxSum", function(self)
      return ui.Text("sum"):scaleEffect(self.m.sum)
    end) { m = m })
    m.a = 1                                            -- the computed and the view wait
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.b = 2 end)
    ui.flush()
    assert.matches("scaleEffect 1 %-> 3, easeInOut 0.3s", tostring(app:find("sum")))
    m.a = 2                                            -- a plain change later: not animated
    ui.flush()
    assert.is_nil(tostring(app:find("sum")):match("%[animated"))
    app:unmount()
  end)

  local Pair = ui.Observable("WaitTxPair", { a = 1, b = 1 })
  local function mountPair(name)
    local m = Pair()
    return m, ui.mount(ui.View(name, function() return ui.Text("x"):scaleEffect(m.a):opacity(m.b) end) {})
  end

  -- One run a view an update: what animates is the run, so the later change
  -- animates with it (SwiftUI animates by attribute; a run cannot).
  it("T02 withAnimation, then a withTransaction key: the first change still animates", function()
    ui.TransactionKey("waitTxSwipe", false)
    local m, app = mountPair("WaitTxKeyAfter")
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.a = 2 end)
    ui.withTransaction("waitTxSwipe", true, function() m.b = 0.5 end)
    ui.flush()
    assert.matches("scaleEffect 1 %-> 2;.*easeInOut 0.3s", tostring(app:find("x")))   -- (its one run animates)
    app:unmount()
  end)

  it("T02 withAnimation, then withAnimation(nil): the first change still animates", function()
    local m, app = mountPair("WaitTxNilAfter")
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.a = 2 end)
    ui.withAnimation(nil, function() m.b = 0.5 end)
    ui.flush()
    assert.matches("scaleEffect 1 %-> 2;.*easeInOut 0.3s", tostring(app:find("x")))   -- (its one run animates)
    app:unmount()
  end)

  it("T02 a transaction that does not animate, then withAnimation: the change animates", function()
    ui.TransactionKey("waitTxFirst", false)
    local firsts = {
      function(m) ui.withAnimation(nil, function() m.b = 0.5 end) end,
      function(m) ui.withTransaction("waitTxFirst", true, function() m.b = 0.5 end) end,
      function(m) ui.withTransaction("disablesAnimations", true, function() m.b = 0.5 end) end,
    }
    for i, first in ipairs(firsts) do
      local m, app = mountPair("WaitTxFirst" .. i)
      first(m)
      ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.a = 2 end)
      ui.flush()
      assert.matches("scaleEffect 1 %-> 2;.*easeInOut 0.3s", tostring(app:find("x")))   -- each first transaction in turn
      app:unmount()
    end
  end)

  it("T02 a plain change, then withTransaction(key): :transaction sees the key", function()
    -- TransactionKey (https://developer.apple.com/documentation/swiftui/transactionkey):
    -- a value set with withTransaction is read by .transaction { } in the views it changes.
    ui.TransactionKey("waitTxSeen", false)
    local m, seen = Pair(), {}
    local app = ui.mount(ui.View("WaitTxSeenView", function()
      return ui.Text("x"):scaleEffect(m.a):opacity(m.b):transaction(function(t) seen[#seen + 1] = t.waitTxSeen end)
    end) {})
    m.b = 0.5
    ui.withTransaction("waitTxSeen", true, function() m.a = 2 end)
    ui.flush()
    assert.same({ false, true }, seen)
    app:unmount()
  end)

  it("T02 a plain change :animation(a, value) animates, then a disablesAnimations change elsewhere", function()
    local M = ui.Observable("WaitTxImplicit", { x = 1, y = "a" })
    local m = M()
    local app = ui.mount(ui.View("WaitTxImplicitView", function()
      return ui.VStack { ui.Text("x"):scaleEffect(m.x):animation(ui.Animation.spring(), m.x), ui.Text("y " .. m.y) }
    end) {})
    m.x = 3
    ui.withTransaction("disablesAnimations", true, function() m.y = "b" end)
    ui.flush()
    assert.matches("scaleEffect 1 %-> 3, spring", tostring(app:find("x")))
    app:unmount()
  end)
end)

-- A body that reads a long chain of computeds no view read before unwinds
-- and runs again (the chain is evaluated deepest first in between): the
-- second try runs in the transaction the first took, so the change still
-- animates (withAnimation: https://developer.apple.com/documentation/swiftui/withanimation(_:_:)).
describe("T02 A body that must run again keeps its update's transaction", function()
  it("T02 withAnimation reaching a body that first reads a 100-deep chain animates", function()
    local props = { base = 1, show = false }
    props.c1 = ui.computed(function(self) return self.base end)
    for i = 2, 100 do
      local below = "c" .. (i - 1)
      props["c" .. i] = ui.computed(function(self) return self[below] + 1 end)
    end
    local m = ui.Observable("RetryTxChain", props)()
    local app = ui.mount(ui.View("RetryTxView", function()
      local v = m.show and m.c100 or 0
      return ui.Text("x"):scaleEffect(m.show and 2 or 1):opacity(v > 0 and 0.5 or 1)
    end) {})
    ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.show = true end)
    ui.flush()
    assert.matches("scaleEffect 1 %-> 2;.*easeInOut 0.3s", tostring(app:find("x")))
    app:unmount()
  end)
end)

-- The same merge holds for a view its parent's run made stale (new inputs):
-- a transaction that does not animate, reaching it before it runs (here an
-- effect's, which runs before the round's views), does not take the
-- animation its parent's change brought; and a
-- withAnimation inside a disablesAnimations transaction still animates a
-- view already waiting (disablesAnimations leaves the transaction's own
-- animation: https://developer.apple.com/documentation/swiftui/transaction/disablesanimations).
describe("T02 Transactions merge on a child its parent made stale, and through disablesAnimations", function()
  it("T02 an animated input change stays animated when a non-animating transaction reaches the child too", function()
    ui.TransactionKey("childTxKey", false)
    local seconds = {
      function(m) ui.withAnimation(nil, function() m.b = 0.5 end) end,
      function(m) ui.withTransaction("childTxKey", true, function() m.b = 0.5 end) end,
      function(m) ui.withTransaction("disablesAnimations", true, function() m.b = 0.5 end) end,
    }
    for i, second in ipairs(seconds) do
      local m = ui.Observable("ChildTxModel" .. i, { a = 1, b = 1 })()
      local Child = ui.View("ChildTxChild" .. i, { inputs = { "s" }, body = function(self)
        return ui.Text("x"):scaleEffect(self.s):opacity(m.b)
      end })
      local app = ui.mount(ui.View("ChildTxParent" .. i, function() return ui.VStack { Child { s = m.a } } end) {})
      local effect = ui.effect(function() if m.a == 2 then second(m) end end)   -- effects run before the views of a round
      ui.withAnimation(ui.Animation.easeInOut(0.3), function() m.a = 2 end)
      ui.flush()
      assert.matches("scaleEffect 1 %-> 2;.*easeInOut 0.3s", tostring(app:find("x")))
      assert.equal(2, app:renders("ChildTxChild" .. i))
      effect:cancel()
      app:unmount()
    end
  end)

  it("T02 withAnimation inside disablesAnimations animates a view already waiting", function()
    local m = ui.Observable("DisNestedModel", { a = 1, b = 1 })()
    local app = ui.mount(ui.View("DisNestedView", function() return ui.Text("x"):scaleEffect(m.a):opacity(m.b) end) {})
    m.a = 2
    ui.withTransaction("disablesAnimations", true, function()
      ui.withAnimation(ui.Animation.spring(), function() m.b = 0.5 end)
    end)
    ui.flush()
    assert.matches("opacity 1 %-> 0.5, spring", tostring(app:find("x")))
    app:unmount()
  end)
end)
