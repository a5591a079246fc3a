-- Beyond the seeds: today's SwiftUI data flow (issue 12). T-numbers.
local ui = require("lunette")

-- T02: withAnimation(_:completionCriteria:_:completion:) "runs the completion
-- when all animations are complete"
-- (https://developer.apple.com/documentation/swiftui/withanimation(_:completioncriteria:_:completion:)).
-- T03: the Entry() macro declares a custom environment value — its key and
-- its default — in one line (https://developer.apple.com/documentation/swiftui/entry(),
-- https://developer.apple.com/documentation/swiftui/environment-values).
describe("Today", function()
  it("T02 withAnimation calls its completion once, when the animation is done on the runtime's clock", function()
    local Box = ui.Observable("TodayBox", { on = false })
    local box, done = Box(), 0
    local app = ui.mount(ui.View("TodayAnimated", function(self) return ui.Text(tostring(self.box.on)) end) { box = box })
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.on = true end, function() done = done + 1 end)
    ui.flush()
    ui.clock.advance(0.9)
    assert.equal(0, done)
    ui.clock.advance(0.2)
    assert.equal(1, done)
    ui.clock.advance(5)
    assert.equal(1, done)
    ui.withAnimation(function() box.on = false end, function() done = done + 1 end)   -- the default animation
    ui.clock.advance(0.35)
    assert.equal(2, done)
    assert.has_error(function() ui.withAnimation(function() end, 42) end)
    app:unmount()
  end)

  it("T03 ui.Entry declares an environment key with its default in one line", function()
    ui.Entry("todayAccent", "blue")
    local Reader = ui.View("TodayReader", { environment = { accent = "todayAccent" }, body = function(self)
      return ui.Text("accent " .. self.accent)
    end })
    local app = ui.mount(ui.VStack { Reader {}, Reader {}:environment("todayAccent", "red") })
    assert.truthy(app:find("accent blue"))
    assert.truthy(app:find("accent red"))
    app:unmount()
  end)
end)

-- SE-0475 Observations: "The closure is not run immediately it is run
-- asynchronously upon the first call to the iterator's next method"; values
-- come per transaction, not per write; "if the task is cancelled then the
-- iterator will return nil"
-- (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0475-observed.md).
describe("Today: Observations", function()
  it("T01 ui.observations yields the value now and after each flush that changed it, one per flush, until the task is cancelled", function()
    local Book = ui.Observable("TodayBook", { title = "a" })
    local book, seen = Book(), {}
    local Watcher = ui.View("TodayWatcher", function()
      return ui.Text("watching"):task(function()
        for title in ui.observations(function() return book.title end) do
          seen[#seen + 1] = title
        end
        seen[#seen + 1] = "after the loop"             -- a cancelled loop ends normally (D04)
      end)
    end)
    local Host = ui.View("TodayHost", { state = { show = true }, body = function(self)
      return ui.VStack { self.show and Watcher {} or nil, ui.Button("hide", function() self.show = false end) }
    end })
    local app = ui.mount(Host {})
    ui.clock.advance(0)
    assert.same({ "a" }, seen)
    book.title = "b"; book.title = "c"                -- two writes, one flush: one value
    ui.flush()
    assert.same({ "a", "c" }, seen)
    book.title = "c"                                  -- unchanged: nothing
    ui.flush()
    assert.same({ "a", "c" }, seen)
    app:find("hide"):tap()                            -- cancelled: the loop ends, its effect with it
    book.title = "d"
    ui.flush()
    assert.same({ "a", "c", "after the loop" }, seen)
    app:unmount()
  end)
end)

describe("Today: strict mode", function()
  after_each(function() ui.configure { strict = false } end)

  it("T08 in strict mode a body that writes observable state is an error with file:line", function()
    ui.configure { strict = true }
    local Writer = ui.View("TodayWriter", { state = { n = 0 }, body = function(self)
      self.n = self.n + 1
      return ui.Text("n " .. self.n)
    end })
    local app = ui.mount(Writer {})
    assert.has_error_node(app, "today_spec.lua:")
    assert.has_error_node(app, "strict mode: a body may not write observable state")
    app:unmount()
  end)

  -- Found by the hostile read of session 10: the check was made where a
  -- write notifies its readers, so a property no view had read yet passed.
  it("T08 in strict mode a body may not write a property no view has read yet either #errors", function()
    ui.configure { strict = true }
    local Pair = ui.Observable("StrictPair", { x = 1, y = 1 })
    local pair = Pair()
    local W = ui.View("StrictWriter", function() pair.y = pair.x + 1; return ui.Text("x") end)
    local app = ui.mount(W {})
    assert.has_error_node(app, "strict mode: a body may not write observable state")
    assert.equal(1, pair.y)
    app:unmount()
  end)

  -- Found by the second hostile read of session 10: nothing can have
  -- observed an object a body (or its state's factory) has just made, so
  -- strict mode lets the body configure it; its own state stays refused.
  it("T08 in strict mode a body may write the objects it made, not its state #errors", function()
    ui.configure { strict = true }
    local Old = ui.ObservableObject("StrictOld", { title = ui.Published("") })
    local Note = ui.Observable("StrictNote", { text = "" })
    local Made = ui.View("StrictMade", {
      stateObject = { old = function() local o = Old(); o.title = "configured"; return o end },
      state = { note = function() local n = Note(); n.text = "set"; return n end },
      body = function(self)
        local scratch = Note()
        scratch.text = "local"
        return ui.Text(self.old.title .. " " .. self.note.text .. " " .. scratch.text)
      end })
    local app = ui.mount(Made {})
    assert.truthy(app:find("configured set local"))
    app:unmount()
    local Writer = ui.View("StrictStateWriter", { state = { n = 0 }, body = function(self)
      self.n = 1
      return ui.Text("n")
    end })
    app = ui.mount(Writer {})
    assert.has_error_node(app, "strict mode: a body may not write observable state")
    app:unmount()
  end)

  it("T08 in strict mode every body runs twice and must describe the same tree", function()
    ui.configure { strict = true }
    local runs, flip = 0, false
    local Steady = ui.View("TodaySteady", function()
      runs = runs + 1
      return ui.VStack { ui.Text("same"), ui.Button("go", function() end) }
    end)
    local app = ui.mount(Steady {})
    assert.equal(2, runs)                              -- twice, and the same tree
    assert.truthy(app:find("same"))
    local Flaky = ui.View("TodayFlaky", function()
      flip = not flip
      return ui.Text(flip and "heads" or "tails")
    end)
    local app2 = ui.mount(Flaky {})
    assert.has_error_node(app2, "strict mode: the body returned a different tree when run again")
    app:unmount()
    app2:unmount()
  end)

  it("T08 outside strict mode the same body renders once and may write", function()
    local runs = 0
    local V = ui.View("TodayLoose", function() runs = runs + 1; return ui.Text("x") end)
    local app = ui.mount(V {})
    assert.equal(1, runs)
    app:unmount()
  end)
end)

-- FocusState (https://developer.apple.com/documentation/swiftui/focusstate):
-- "a value that SwiftUI updates as the placement of focus within the scene
-- changes"; focused(_:equals:) binds the field's focus to a FocusState value
-- (https://developer.apple.com/documentation/swiftui/view/focused(_:equals:));
-- focused(_:) takes a FocusState<Bool>.Binding
-- (https://developer.apple.com/documentation/swiftui/view/focused(_:)).
describe("Today: focus", function()
  it("T05 focusState names start nil; :focused marks the field; focusing one unfocuses the other", function()
    local Login = ui.View("TodayLogin", {
      state = { name = "", password = "" },
      focusState = { "field" },
      body = function(self)
        return ui.VStack {
          ui.TextField("name", self["$name"]):focused(self["$field"], "name"),
          ui.TextField("password", self["$password"]):focused(self["$field"], "password"),
          ui.Text("focus " .. tostring(self.field)),
          ui.Button("next", function() self.field = "password" end),
        }
      end,
    })
    local app = ui.mount(Login {})
    assert.truthy(app:find("focus nil"))
    assert.matches('TextField "name" = "" focused=false', app:tree())
    app:find("name"):focus()
    assert.truthy(app:find("focus name"))
    assert.matches('TextField "name" = "" focused=true', app:tree())
    assert.matches('TextField "password" = "" focused=false', app:tree())
    app:find("next"):tap()                              -- moved from code, as SwiftUI does
    assert.matches('TextField "name" = "" focused=false', app:tree())
    assert.matches('TextField "password" = "" focused=true', app:tree())
    assert.error_matches(function() app:find("focus password"):focus() end, "cannot be focused", 1, true)
    app:unmount()
  end)

  it("T05 a Bool focus: :focused(binding) is focused while the binding is true", function()
    local Search = ui.View("TodaySearch", { state = { query = "" }, focusState = { searching = false }, body = function(self)
      return ui.TextField("search", self["$query"]):focused(self["$searching"])
    end })
    local app = ui.mount(Search {})
    assert.matches("focused=false", app:tree())
    app:find("search"):focus()
    assert.matches("focused=true", app:tree())
    app:unmount()
  end)
end)

-- Form (https://developer.apple.com/documentation/swiftui/form), Section
-- (https://developer.apple.com/documentation/swiftui/section), ZStack
-- (https://developer.apple.com/documentation/swiftui/zstack) contain;
-- Picker (one of a set of values: https://developer.apple.com/documentation/swiftui/picker),
-- Slider (a value within a bounded range:
-- https://developer.apple.com/documentation/swiftui/slider) and Stepper
-- (increments and decrements within its bounds:
-- https://developer.apple.com/documentation/swiftui/stepper) write their
-- bindings.
describe("Today: containers and controls", function()
  it("T07 Form, Section and ZStack contain; Picker, Slider and Stepper write their bindings", function()
    local Settings = ui.View("TodaySettings", { state = { flavor = "vanilla", volume = 0.5, count = 1 }, body = function(self)
      return ui.Form {
        ui.Section("Taste", {
          ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
          ui.Text("flavor " .. self.flavor),
        }),
        ui.Section("Sound", {
          ui.Slider(self["$volume"], { 0, 1 }),
          ui.Stepper("Count", self["$count"], { 1, 3 }),
          ui.ZStack { ui.Text("volume " .. self.volume), ui.Text("count " .. self.count) },
        }),
      }
    end })
    local app = ui.mount(Settings {})
    assert.matches('Form\n    Section "Taste"\n      Picker "Flavor" vanilla options={"vanilla", "chocolate"}', app:tree(), 1, true)
    assert.matches('Slider 0.5 range={0, 1}', app:tree(), 1, true)
    app:find { type = "Picker" }:select("chocolate")
    assert.truthy(app:find("flavor chocolate"))
    assert.error_matches(function() app:find { type = "Picker" }:select("mint") end, "not one of the Picker's options", 1, true)
    app:find { type = "Slider" }:setValue(0.75)
    assert.truthy(app:find("volume 0.75"))
    assert.error_matches(function() app:find { type = "Slider" }:setValue(2) end, "outside the range", 1, true)
    local stepper = app:find { type = "Stepper" }
    stepper:increment(); app:find { type = "Stepper" }:increment(); app:find { type = "Stepper" }:increment()
    assert.truthy(app:find("count 3"))                 -- kept within its range
    app:find { type = "Stepper" }:decrement()
    assert.truthy(app:find("count 2"))
    assert.error_matches(function() app:find("count 2"):select("x") end, "cannot be used so", 1, true)
    app:unmount()
  end)
end)

-- PreferenceKey: "A view with multiple children automatically combines its
-- values for a given preference into a single value visible to its
-- ancestors" (https://developer.apple.com/documentation/swiftui/preferencekey);
-- reduce(value:nextValue:) "receives its values in view-tree order"
-- (https://developer.apple.com/documentation/swiftui/preferencekey/reduce(value:nextvalue:));
-- preference(key:value:) and onPreferenceChange(_:perform:)
-- (https://developer.apple.com/documentation/swiftui/view/preference(key:value:),
--  https://developer.apple.com/documentation/swiftui/view/onpreferencechange(_:perform:)).
describe("Today: preferences", function()
  it("T06 values flow from children to an ancestor after the update, reduced in tree order", function()
    ui.PreferenceKey("todayBadges", 0, function(acc, next) return acc + next end)
    ui.PreferenceKey("todayTitle", "")              -- no reduce: the last in tree order wins
    local seen, titles = {}, {}
    local Row = ui.View("TodayBadgeRow", function(self)
      return ui.Text(self.label):preference("todayBadges", self.badges):preference("todayTitle", self.label)
    end)
    local Inbox = ui.View("TodayInbox", { state = { extra = 0, show = true }, body = function(self)
      return ui.VStack {
        Row { label = "a", badges = 2 },
        self.show and Row { label = "b", badges = 3 + self.extra } or nil,
        ui.Button("more", function() self.extra = self.extra + 1 end),
        ui.Button("hide", function() self.show = false end),
        ui.Button("same", function() self.extra = self.extra end),
      }:onPreferenceChange("todayBadges", function(total) seen[#seen + 1] = total end)
       :onPreferenceChange("todayTitle", function(title) titles[#titles + 1] = title end)
    end })
    local app = ui.mount(Inbox {})
    assert.same({ 5 }, seen)
    assert.same({ "b" }, titles)
    app:find("more"):tap()
    assert.same({ 5, 6 }, seen)
    app:find("same"):tap()                            -- nothing changed: not called again
    assert.same({ 5, 6 }, seen)
    app:find("hide"):tap()
    assert.same({ 5, 6, 2 }, seen)
    assert.same({ "b", "a" }, titles)
    assert.is_nil(app:tree():find("preference", 1, true))
    app:unmount()
  end)

  it("T06 a handler that sets state re-renders its view in the same flush", function()
    ui.PreferenceKey("todayNavTitle", "")
    local Screen = ui.View("TodayScreen", { state = { title = "" }, body = function(self)
      return ui.VStack {
        ui.Text("title: " .. self.title),
        ui.Text("content"):preference("todayNavTitle", "Inbox"),
      }:onPreferenceChange("todayNavTitle", function(t) self.title = t end)
    end })
    local app = ui.mount(Screen {})
    assert.truthy(app:find("title: Inbox"))
    app:unmount()
  end)
end)

-- ForEach over a binding gives each row a Binding<C.Element>
-- (https://developer.apple.com/documentation/swiftui/foreach/init(_:editactions:content:),
--  https://developer.apple.com/documentation/swiftui/foreach).
describe("Today: ForEach over a binding", function()
  it("T07 ui.ForEach(self['$items'], fn) gives each row a binding to its element", function()
    local Todo = ui.View("TodayTodo", { state = { items = { "milk", "bread" } }, body = function(self)
      return ui.VStack {
        ui.ForEach(self["$items"], function(item, i) return ui.TextField("item " .. i, item) end),
        ui.Text(table.concat(self.items, ",")),
      }
    end })
    local app = ui.mount(Todo {})
    assert.truthy(app:find("milk,bread"))
    app:find("item 2"):setText("butter")
    assert.truthy(app:find("milk,butter"))
    assert.error_matches(function() ui.ForEach(ui.Binding.constant(3), function() end) end, "must hold a list", 1, true)
    app:unmount()
  end)
end)

-- withAnimation(_:completionCriteria:_:completion:) runs the completion
-- "when all animations are complete": "The completion callback will always
-- be fired exactly one time. If no animations are created by the changes in
-- `body`, then the callback will be called immediately after `body`."
-- (https://developer.apple.com/documentation/swiftui/withanimation(_:completioncriteria:_:completion:),
-- https://developer.apple.com/documentation/swiftui/transaction/addanimationcompletion(criteria:_:)).
-- Its animation is an `Animation?`: nil creates none.
describe("D05 withAnimation's completion", function()
  it("D05 runs before withAnimation returns when the body changed nothing, after the duration when it did", function()
    local Box = ui.Observable("D05Box", { on = false })
    local box, done = Box(), {}
    local app = ui.mount(ui.View("D05Reader", function(self) return ui.Text(tostring(self.box.on)) end) { box = box })
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() end, function() done[#done + 1] = "nothing" end)
    assert.same({ "nothing" }, done)                   -- no clock advance: right after the body
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.on = true end, function() done[#done + 1] = "changed" end)
    ui.clock.advance(0)
    assert.same({ "nothing" }, done)
    ui.clock.advance(1.0)
    assert.same({ "nothing", "changed" }, done)
    app:unmount()
  end)

  it("D05 a nil animation creates none: the change is not animated and the completion runs right after the body", function()
    local Box = ui.Observable("D05NilBox", { scale = 1 })
    local box, done = Box(), {}
    local app = ui.mount(ui.View("D05NilReader", function(self) return ui.Text("box"):scaleEffect(self.box.scale) end) { box = box })
    ui.withAnimation(nil, function() box.scale = 2 end, function() done[#done + 1] = "nil" end)
    assert.same({ "nil" }, done)
    ui.flush()
    assert.is_nil(tostring(app:find("box")):match("%[animated"))
    ui.withAnimation(ui.Animation.linear(1), function()            -- inside another: it takes the animation away
      ui.withAnimation(nil, function() box.scale = 3 end, function() done[#done + 1] = "inner" end)
    end, function() done[#done + 1] = "outer" end)
    assert.same({ "nil", "inner" }, done)
    ui.flush()
    assert.is_nil(tostring(app:find("box")):match("%[animated"))
    app:unmount()
  end)

  -- "If no animations are added to the transaction, the completion will be
  -- called immediately after body" (Transaction.addAnimationCompletion): a
  -- view under .transaction { $0.animation = nil } adds none.
  -- https://developer.apple.com/documentation/swiftui/transaction/addanimationcompletion(criteria:_:)
  it("D05 when the only views that read the change have their animation taken away, the completion runs right after the update", function()
    local Box = ui.Observable("D05TxBox", { a = false, b = false })
    local box, done = Box(), {}
    local Reader = ui.View("D05TxReader", function(self) return ui.Text(self.key .. " " .. tostring(self.box[self.key])) end)
    local app = ui.mount(ui.VStack {
      ui.Group { Reader { box = box, key = "a" } }:transaction(function(t) t.animation = nil end),
      Reader { box = box, key = "b" },
    })
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.a = true end, function() done[#done + 1] = "a" end)
    assert.same({}, done)                              -- a view reads it: its update decides
    ui.clock.advance(0)
    assert.same({ "a" }, done)                         -- it animated nothing: right after the update
    assert.is_nil(tostring(app:find("a true")):match("%[animated"))
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.a = false; box.b = true end,
      function() done[#done + 1] = "a and b" end)
    ui.clock.advance(0)
    assert.same({ "a" }, done)                         -- b's view animates: after the duration
    ui.clock.advance(1.0)
    assert.same({ "a", "a and b" }, done)
    app:unmount()
  end)

  -- Found by the second hostile read of session 10: completions that wait
  -- for the update run in the order made, after their update (on the clock,
  -- at once: a completion that animates again runs its own after the next
  -- update, as a frame's would, never eating one flush's rounds); only an
  -- animation that ran delays a later .removed one; and a :transaction on the
  -- reader's own node takes the animation away as one around it does.
  it("D05 completions waiting for the update run in the order made, each after its update", function()
    local Box = ui.Observable("D05OrderBox", { a = 0, b = 0, c = 0, n = 0 })
    local box, log = Box(), {}
    local Reader = ui.View("D05OrderReader", function(self) return ui.Text(self.key .. " " .. self.box[self.key]) end)
    local app = ui.mount(ui.Group {
      Reader { box = box, key = "a" }, Reader { box = box, key = "b" }, Reader { box = box, key = "c" },
      Reader { box = box, key = "n" },
    }:transaction(function(t) t.animation = nil end))
    for _ = 1, 37 do ui.withTransaction("disablesAnimations", false, function() end) end   -- ids past 1..n
    for _, k in ipairs { "c", "a", "b" } do
      ui.withAnimation(ui.Animation.easeInOut(1.0), function() box[k] = 1 end, function() log[#log + 1] = k end)
    end
    local function again()                             -- animates again from its completion, three times
      if box.n < 3 then ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.n = box.n + 1 end, again) end
    end
    again()
    ui.clock.advance(0)
    assert.same({ "c", "a", "b" }, log)
    assert.equal(3, box.n)
    assert.truthy(app:find("n 3"))
    assert.same({}, app:warnings())                    -- no render loop spent on it
    app:unmount()
  end)

  it("D05 an animation taken away does not delay a later .removed completion", function()
    local Box = ui.Observable("D05PhantomBox", { a = 0, show = false })
    local box, log = Box(), {}
    local Plain = ui.View("D05PhantomPlain", function(self) return ui.Text("plain " .. self.box.a) end)
    local Shown = ui.View("D05PhantomShown", function(self)
      return ui.Text(self.box.show and ("shown " .. self.box.a) or "hidden")
    end)
    local app = ui.mount(ui.VStack {
      ui.Group { Plain { box = box } }:transaction(function(t) t.animation = nil end), Shown { box = box },
    })
    ui.withAnimation(ui.Animation.easeInOut(5.0), function() box.a = 1 end, function() log[#log + 1] = "first" end)
    ui.clock.advance(0)
    assert.same({ "first" }, log)                      -- nothing animated: right after the update
    box.show = true
    ui.flush()
    ui.withAnimation(ui.Animation.easeInOut(0.5), function() box.a = 2 end, function() log[#log + 1] = "second" end,
      { completionCriteria = "removed" })
    ui.flush()
    ui.clock.advance(1.0)
    assert.same({ "first", "second" }, log)            -- its own 0.5 s is over; the 5 s one never ran
    app:unmount()
  end)

  it("D05 a :transaction on the reader's own node takes the animation away too", function()
    local Box = ui.Observable("D05OwnBox", { a = false })
    local box, log = Box(), {}
    local Reader = ui.View("D05OwnReader", function(self)
      return ui.VStack { ui.Text("a " .. tostring(self.box.a)) }:transaction(function(t) t.animation = nil end)
    end)
    local app = ui.mount(ui.Group { Reader { box = box } }:transaction(function() end))
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.a = true end, function() log[#log + 1] = "done" end)
    ui.clock.advance(0)
    assert.same({ "done" }, log)
    app:unmount()
  end)

  it("D05 an error in a completion that runs right after the body is raised by withAnimation, with its line", function()
    local ok, err = pcall(ui.withAnimation, ui.Animation.default, function() end, function() error("done badly") end)
    assert.is_false(ok)
    assert.matches("today_spec.lua:%d+: done badly", err)
  end)
end)

-- withAnimation(_:completionCriteria:_:completion:) and
-- AnimationCompletionCriteria: .logicallyComplete (the default: "callbacks
-- will fire when the animations from the change that they were registered
-- with logically complete, ignoring the new animations") and .removed —
-- "The entire animation is finished and will now be removed. If a
-- subsequent change occurs that creates additional animations on properties
-- with `removed` completion callbacks registered, then those callbacks will
-- only fire when *all* of the created animations are complete." A body that
-- changes only what no view shows animates nothing, so its completion runs
-- "immediately after `body`".
-- https://developer.apple.com/documentation/swiftui/withanimation(_:completioncriteria:_:completion:)
-- https://developer.apple.com/documentation/swiftui/animationcompletioncriteria/logicallycomplete
-- https://developer.apple.com/documentation/swiftui/animationcompletioncriteria/removed
describe("D05 completion criteria", function()
  local Box = ui.Observable("D05CriteriaBox", { scale = 1, hidden = 0, other = 0 })
  local Reader = ui.View("D05ScaleReader", function(self)
    return ui.VStack { ui.Text("box"):scaleEffect(self.box.scale), ui.Text("other " .. self.box.other) }
  end)

  it("D05 a body that changed only what no view reads completes right after it", function()
    local box, done = Box(), {}
    local app = ui.mount(Reader { box = box })
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.hidden = 5 end, function() done[#done + 1] = "unread" end)
    assert.same({ "unread" }, done)
    local seen = 0
    local effect = ui.effect(function() seen = box.hidden end)
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.hidden = 6 end, function() done[#done + 1] = "effect" end)
    assert.same({ "unread", "effect" }, done)
    ui.flush()
    assert.equal(6, seen)
    effect:cancel()
    app:unmount()
  end)

  it("D05 .removed waits for a later animation of the same property; .logicallyComplete does not", function()
    local box, done = Box(), {}
    local app = ui.mount(Reader { box = box })
    local function note(name) return function() done[#done + 1] = name .. "@" .. ui.clock.now() end end
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.scale = 2 end, note("removed"),
      { completionCriteria = "removed" })
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.scale = 3 end, note("logical"),
      { completionCriteria = "logicallyComplete" })
    ui.clock.advance(0.5)
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.scale = 4 end)   -- later, the same property
    ui.withAnimation(ui.Animation.easeInOut(1.0), function() box.other = 1 end)   -- later, another property
    ui.clock.advance(0.5)
    assert.same({ "logical@1.0" }, done)
    ui.clock.advance(0.5)
    assert.same({ "logical@1.0", "removed@1.5" }, done)
    app:unmount()
  end)

  it("D05 .removed with no later animation completes after the duration, as logicallyComplete", function()
    local box, done = Box(), {}
    local app = ui.mount(Reader { box = box })
    ui.withAnimation(ui.Animation.linear(0.3), function() box.scale = 5 end, function() done[#done + 1] = ui.clock.now() end,
      { completionCriteria = "removed" })
    ui.clock.advance(0.2)
    assert.same({}, done)
    ui.clock.advance(0.1)
    assert.same({ 0.3 }, done)
    app:unmount()
  end)

  it("D05 an unknown criterion or option, or criteria without a completion, is an error naming it", function()
    local ok, err = pcall(ui.withAnimation, ui.Animation.default, function() end, function() end, { completionCriteria = "done" })
    assert.is_false(ok)
    assert.matches('completionCriteria must be "logicallyComplete" or "removed", got done', err)
    ok, err = pcall(function() ui.withAnimation(ui.Animation.default, function() end, function() end, { criteria = "removed" }) end)
    assert.matches("today_spec.lua:%d+: ui.withAnimation: unknown option 'criteria'", err)
    ok, err = pcall(ui.withAnimation, ui.Animation.default, function() end, nil, { completionCriteria = "removed" })
    assert.matches("completionCriteria needs a completion function", err)
  end)
end)
