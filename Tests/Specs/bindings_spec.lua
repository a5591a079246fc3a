-- SEMANTICS S15-S19: Binding and Bindable ("Managing user interface state").
local ui = require("lunette")

local Book = ui.Observable("Book", { title = "Sample Book Title", isAvailable = true })

-- struct PlayButton: View { @Binding var isPlaying: Bool ... }
local PlayButton = ui.View("PlayButton", {
  binding = { "isPlaying" },
  body = function(self)
    return ui.Button(self.isPlaying and "Pause" or "Play", function()
      self.isPlaying = not self.isPlaying
    end)
  end,
})

-- Binding: "Use a binding to create a two-way connection between a property
-- that stores data, and a view that displays and changes the data"
-- (https://developer.apple.com/documentation/swiftui/binding); constant(_:):
-- "Creates a binding with an immutable value"
-- (https://developer.apple.com/documentation/swiftui/binding/constant(_:));
-- Bindable: "supports creating bindings to the mutable properties of
-- observable objects … on properties and variables to an Observable object.
-- This includes global variables … or even local variables"
-- (https://developer.apple.com/documentation/swiftui/bindable);
-- https://developer.apple.com/documentation/swiftui/managing-user-interface-state.
describe("Bindings", function()
  it("S15 a child writing through a Binding re-renders the owner and every reader", function()
    local Reader = ui.View("Reader", { binding = { "isPlaying" }, body = function(self)
      return ui.Text(self.isPlaying and "playing" or "stopped")
    end })
    local PlayerView = ui.View("PlayerView", {
      state = { isPlaying = false },
      body = function(self)
        return ui.VStack {
          ui.Text(self.isPlaying and "Owner: on" or "Owner: off"),
          PlayButton { isPlaying = self["$isPlaying"] },
          Reader { isPlaying = self["$isPlaying"] },
        }
      end,
    })
    local app = ui.mount(PlayerView())
    app:find("Play"):tap()
    assert.truthy(app:find("Owner: on"))
    assert.truthy(app:find("Pause"))
    assert.truthy(app:find("playing"))
    assert.equal(2, app:renders("PlayerView"))
    assert.equal(2, app:renders("Reader"))
  end)

  it("S15 passing the same binding again does not re-run the child", function()
    local store = Book()
    local PlayerView = ui.View("PlayerView", {
      state = { isPlaying = false },
      body = function(self)
        return ui.VStack { ui.Text(store.title), PlayButton { isPlaying = self["$isPlaying"] } }
      end,
    })
    local app = ui.mount(PlayerView())
    store.title = "Dune"
    ui.flush()
    assert.equal(2, app:renders("PlayerView"))
    assert.equal(1, app:renders("PlayButton"))
  end)

  it("S16 a binding from a binding reaches the same storage through any number of levels", function()
    local Level3 = ui.View("Level3", { binding = { "value" }, body = function(self)
      return ui.Button("deep " .. self.value, function() self.value = self.value + 1 end)
    end })
    local Level2 = ui.View("Level2", { binding = { "value" }, body = function(self)
      return Level3 { value = self["$value"] }
    end })
    local Level1 = ui.View("Level1", { binding = { "value" }, body = function(self)
      return Level2 { value = self["$value"] }
    end })
    local Root = ui.View("Root", { state = { count = 0 }, body = function(self)
      return ui.VStack { ui.Text("root " .. self.count), Level1 { value = self["$count"] } }
    end })
    local app = ui.mount(Root())
    app:find("deep 0"):tap()
    app:find("deep 1"):tap()
    assert.truthy(app:find("root 2"))
    assert.truthy(app:find("deep 2"))
  end)

  it("S17 a scoped binding reads and writes one field of a state value", function()
    local Episode = ui.View("EpisodeView", {
      state = { episode = { title = "Pilot", isFavorite = false } },
      body = function(self)
        return ui.VStack {
          ui.Text(self.episode.title .. (self.episode.isFavorite and " ★" or "")),
          ui.Toggle("Favorite", self["$episode"].isFavorite),
        }
      end,
    })
    local app = ui.mount(Episode())
    local favorite = app:find("Favorite")
    assert.equal("off", favorite.value)
    favorite:toggle()
    assert.truthy(app:find("Pilot ★"))
    assert.equal("on", app:find("Favorite").value)
  end)

  it("S18 Binding.constant ignores writes; Binding(get, set) calls the given functions", function()
    local constant = ui.Binding.constant(5)
    constant:set(6)
    assert.equal(5, constant:get())
    local store, log = 1, {}
    local custom = ui.Binding(function() log[#log + 1] = "get"; return store end,
                              function(v) log[#log + 1] = "set " .. v; store = v end)
    custom:set(2)
    assert.equal(2, custom:get())
    assert.same({ "set 2", "get" }, log)
    local app = ui.mount(PlayButton { isPlaying = ui.Binding.constant(true) })
    app:find("Pause"):tap()
    assert.truthy(app:find("Pause"))          -- a constant stays as it was
  end)

  it("S19 Bindable gives Bindings on inputs, locals, globals and environment objects alike", function()
    globalBook = Book { title = "Global" }
    local Editor = ui.View("Editor", {
      bindable = { "book" },
      environment = { envBook = Book },
      body = function(self)
        local localBook = self.localBook
        return ui.VStack {
          ui.TextField("input", self["$book"].title),
          ui.TextField("local", ui.Bindable(localBook).title),
          ui.TextField("global", ui.Bindable(globalBook).title),
          ui.TextField("environment", ui.Bindable(self.envBook).title),
        }
      end,
    })
    local input, localBook, envBook = Book(), Book(), Book()
    local app = ui.mount(Editor { book = input, localBook = localBook }:environment(envBook))
    app:find("input"):setText("A")
    app:find("local"):setText("B")
    app:find("global"):setText("C")
    app:find("environment"):setText("D")
    assert.same({ "A", "B", "C", "D" }, { input.title, localBook.title, globalBook.title, envBook.title })
    assert.equal("C", app:find("global").value)
    globalBook = nil
  end)

  it("a binding input must be a Binding (an error where the view is made, D10)", function()
    local ok, err = pcall(function() return PlayButton { isPlaying = true } end)
    assert.is_false(ok)
    assert.matches("bindings_spec.lua:%d+: PlayButton: input 'isPlaying' must be a Binding %(pass self%[\"%$isPlaying\"%]%), got boolean", err)
  end)

  -- Bindable's initializer takes `Value : AnyObject, Value : Observable`
  -- (https://developer.apple.com/documentation/swiftui/bindable): an
  -- ObservableObject's bindings come from its observedObject, stateObject or
  -- environmentObject section instead.
  it("S19 Bindable, and a bindable input, refuse an ObservableObject", function()
    local Old = ui.ObservableObject("BindableOld", { title = ui.Published("x") })
    assert.error_matches(function() return ui.Bindable(Old()) end,
      "Bindable needs an @Observable model (ui.Observable), got the ObservableObject BindableOld", 1, true)
    local E = ui.View("BindsOld", { bindable = { "book" }, body = function(self)
      return ui.TextField("t", self["$book"].title)
    end })
    local app = ui.mount(E { book = Old() })
    assert.has_error_node(app, "got the ObservableObject BindableOld")
    app:unmount()
  end)

  it("Bindable refuses a property the object does not have", function()
    assert.error_matches(function() return ui.Bindable(Book()).titel end, "Book has no property 'titel' to bind", 1, true)
  end)
end)

-- ForEach over a binding to a collection: "Creates an instance that uniquely
-- identifies and creates views across updates based on the identity of the
-- underlying data", with `ID == C.Element.ID` and `C.Element : Identifiable`
-- (https://developer.apple.com/documentation/swiftui/foreach/init(_:editactions:content:);
-- the ForEach page, https://developer.apple.com/documentation/swiftui/foreach,
-- lists the Binding initializers) — rows are identified by their elements'
-- ids, so a row's state goes with its element.
describe("D02 ForEach over a binding", function()
  local Row = ui.View("D02Row", { binding = { "item" }, state = { taps = 0 }, body = function(self)
    return ui.Button(self.item.title .. " " .. self.taps, function() self.taps = self.taps + 1 end)
  end })
  local List = ui.View("D02List", { state = { items = function() return {
      { id = 1, title = "a" }, { id = 2, title = "b" }, { id = 3, title = "c" } } end }, body = function(self)
    return ui.VStack {
      ui.ForEach(self["$items"], function(item) return Row { item = item } end),
      ui.Button("delete first", function() table.remove(self.items, 1) end),
      ui.Button("reverse", function()
        local items, out = self.items, {}
        for i = #items, 1, -1 do out[#out + 1] = { id = items[i].id, title = items[i].title } end
        self.items = out
      end),
    }
  end })

  it("D02 keeps each row's state with its element when another is deleted or the list is reordered", function()
    local app = ui.mount(List {})
    app:find("b 0"):tap()
    app:find("c 0"):tap(); app:find("c 1"):tap()
    app:find("delete first"):tap()
    assert.truthy(app:find("b 1"))                -- not "b 0": the state stayed with b, not with position 1
    assert.truthy(app:find("c 2"))
    app:find("reverse"):tap()
    assert.truthy(app:find("b 1"))
    assert.truthy(app:find("c 2"))
    app:unmount()
  end)

  it("D02 still edits the element in place through the row's binding after a move", function()
    local Edit = ui.View("D02Edit", { state = { items = function() return { { id = "x", title = "x" }, { id = "y", title = "y" } } end },
      body = function(self)
        return ui.VStack {
          ui.ForEach(self["$items"], function(item) return ui.TextField("title", item.title) end),
          ui.Button("swap", function() self.items = { self.items[2], self.items[1] } end),
          ui.Text(self.items[1].title .. self.items[2].title),
        }
      end })
    local app = ui.mount(Edit {})
    app:find("swap"):tap()
    app:findAll { type = "TextField" }[1]:setText("Y!")
    assert.truthy(app:find("Y!x"))
    app:unmount()
  end)
  -- The page's rows are "based on the identity of the underlying data";
  -- SwiftUI's own element binding is by position (a binding kept past an
  -- edit writes into another element, or traps out of range): Lunette's
  -- reaches its element by id wherever it moved, and says so once it is gone.
  it("D02 a row's binding kept past an edit of the list still writes its own element", function()
    local held = {}
    local HeldRow = ui.View("D02Held", { binding = { "item" }, body = function(self)
      held[self.item.id] = self["$item"]
      return ui.Text(self.item.id)
    end })
    local HeldList = ui.View("D02HeldList", { state = { items = function() return {
        { id = "a", text = "" }, { id = "b", text = "" }, { id = "c", text = "" } } end }, body = function(self)
      local shown = {}
      for i, item in ipairs(self.items) do shown[i] = item.id .. "=" .. item.text end
      return ui.VStack {
        ui.Text(table.concat(shown, ",")),
        ui.ForEach(self["$items"], function(item) return HeldRow { item = item } end),
        ui.Button("delete a", function() table.remove(self.items, 1) end),
        ui.Button("delete c", function() table.remove(self.items) end),
      }
    end })
    local app = ui.mount(HeldList {})
    local b, c = held.b, held.c
    app:find("delete a"):tap()
    b:set({ id = "b", text = "loaded" })            -- was at 2, now at 1: wrote c's place before
    c.text:set("loaded")
    ui.flush()
    assert.truthy(app:find("b=loaded,c=loaded"), app:tree())
    app:find("delete c"):tap()
    local ok, err = pcall(function() c:set({ id = "c", text = "ghost" }) end)
    assert.is_false(ok)                             -- it put the deleted element back before
    assert.matches("a ForEach row's binding reaches an element no longer in the list %(id \"c\"%)", err)
    assert.is_false(pcall(function() return c:get() end))
    assert.truthy(app:find("b=loaded"))
    app:unmount()
  end)

  it("D02 a row's binding that writes its element with a new id reaches it by that id", function()
    local seen
    local V = ui.View("D02NewId", { state = { items = function() return { { id = 1, t = "a" }, { id = 2, t = "b" } } end },
      body = function(self)
        return ui.VStack { ui.ForEach(self["$items"], function(item)
          return ui.Button("renumber " .. item:get().t, function()
            item:set({ id = 99, t = item:get().t })
            seen = item:get().id                    -- said the element was gone
          end)
        end) }
      end })
    local app = ui.mount(V {})
    app:find("renumber b"):tap()
    assert.equal(99, seen)
    app:unmount()
    local through = {}
    local W = ui.View("D02NewIdWays", { state = { items = function() return { { id = 1, t = "a" }, { id = 2, t = "b" } } end },
      body = function(self)
        return ui.VStack { ui.ForEach(self["$items"], function(item)
          return ui.HStack {
            ui.Button("animated " .. item:get().t, function()
              item:animation():set({ id = 50 + item:get().id, t = item:get().t })   -- through an animated copy
              through[#through + 1] = item:get().id
            end),
            ui.Button("member " .. item:get().t, function()
              item.id:set(70)                       -- the id changed in place, through a member
              through[#through + 1] = item.t:get() .. item:get().id
            end),
          }
        end) }
      end })
    local app2 = ui.mount(W {})
    app2:find("animated a"):tap()
    app2:find("member b"):tap()
    assert.same({ 51, "b70" }, through)
    app2:unmount()
  end)

  it("D02 row bindings kept across a reverse of 200 rows each reach their own element (far moves)", function()
    local held = {}
    local FarRow = ui.View("D02FarRow", { binding = { "item" }, body = function(self)
      held[self.item.id] = self["$item"]
      return ui.Text(self.item.id .. "=" .. self.item.n)
    end })
    local V = ui.View("D02Far", { state = { items = function()
        local t = {}
        for i = 1, 200 do t[i] = { id = "k" .. i, n = 0 } end
        return t
      end }, body = function(self)
        return ui.VStack {
          ui.ForEach(self["$items"], function(item) return FarRow { item = item } end),
          ui.Button("reverse", function()
            local t, r = self.items, {}
            for i = #t, 1, -1 do r[#r + 1] = { id = t[i].id, n = t[i].n } end
            self.items = r
          end),
        }
      end })
    local app = ui.mount(V {})
    local kept = {}
    for id, binding in pairs(held) do kept[id] = binding end
    app:find("reverse"):tap()
    for i = 1, 200 do kept["k" .. i].n:set(i) end
    ui.flush()
    assert.truthy(app:find("k1=1"))
    assert.truthy(app:find("k150=150"))
    assert.truthy(app:find("k200=200"))
    app:unmount()
  end)

  it("D02 rows of plain values, and of elements with no id, are bound by position", function()
    local V = ui.View("D02Plain", { state = { items = function() return { "x", "y" } end }, body = function(self)
      return ui.VStack {
        ui.ForEach(self["$items"], function(item) return ui.TextField("f", item) end),
        ui.Text(table.concat(self.items, ",")),
      }
    end })
    local app = ui.mount(V {})
    app:findAll { type = "TextField" }[2]:setText("z")
    assert.truthy(app:find("x,z"))
    app:unmount()
  end)

  it("a Binding's member is not assigned: the message names :set", function()
    local V = ui.View("AssignsMember", { state = { item = function() return { text = "a" } end }, body = function(self)
      return ui.Button("w", function() self["$item"].text = "x" end)
    end })
    local app = ui.mount(V {})
    local ok, err = pcall(function() app:find("w"):tap() end)
    assert.is_false(ok)
    assert.matches("a Binding's members cannot be assigned: write b.text:set%(v%)", err)
    app:unmount()
  end)

  it("D10 a control edits what its binding holds: a Toggle a boolean, a TextField a string or a number", function()
    -- Toggle(isOn:) takes a Binding<Bool> (https://developer.apple.com/documentation/swiftui/toggle);
    -- TextField(_:value:format:) edits a number as text
    -- (https://developer.apple.com/documentation/swiftui/textfield/init(_:value:format:prompt:)-3fh51).
    local V = ui.View("EditsItsType", { state = { n = 1, b = false }, body = function(self)
      return ui.VStack { ui.TextField("count", self["$n"]), ui.Toggle("on", self["$b"]),
        ui.Text(math.type(self.n) .. " " .. self.n .. " " .. tostring(self.b)) }
    end })
    local app = ui.mount(V {})
    app:find("count"):setText("12")
    assert.truthy(app:find("integer 12 false"), app:tree())
    app:find("count"):setText("2.5")
    app:find("on"):toggle()
    assert.truthy(app:find("float 2.5 true"), app:tree())
    local ok, err = pcall(function() app:find("count"):setText("twelve") end)
    assert.is_false(ok)
    assert.matches("setText: the text typed is no number, and the field's binding holds one", err)
    assert.is_nil(err:find("twelve", 1, true))           -- never quoted: a field's text may be secret
    for _, text in ipairs { "", "-", "1e400", "12\0junk" } do
      assert.is_false(pcall(function() app:find("count"):setText(text) end), text)
    end
    app:unmount()
    local Secret = ui.View("SecretDigits", { state = { pin = "1234" }, body = function(self)
      return ui.VStack { ui.SecureField("PIN", self["$pin"]), ui.Text(type(self.pin)) }
    end })
    local secret = ui.mount(Secret {})
    secret:find("PIN"):setText("0042")                  -- a SecureField's text goes in as text, never read as a number
    assert.truthy(secret:find("string"))
    secret:unmount()
    local Bad = ui.View("TogglesAString", { state = { s = "yes" }, body = function(self) return ui.Toggle("t", self["$s"]) end })
    local bad = ui.mount(Bad {})
    assert.has_error_node(bad, 'ui.Toggle "t": its binding holds a string; a Toggle\'s is a boolean')
    bad:unmount()
  end)

  -- A hostile read (session 24): a ui.Binding(get, set) was never checked:
  -- a Toggle showed the number 0 as "on", a Stepper's step replaced a
  -- string with its range's low end, a table was shown by its __tostring.
  -- SwiftUI's controls take Binding<Bool>, Binding<String>, Binding<V: Strideable>.
  it("a ui.Binding(get, set) giving what its control cannot edit is its view's error, naming the control and the type", function()
    local box = { flag = 0, count = "abc", name = {}, pin = 42 }
    local function bound(k) return ui.Binding(function() return box[k] end, function(v) box[k] = v end) end
    local cases = {
      { ui.Toggle, "flag", 'ui.Toggle "flag": its binding\'s get gave a number; a Toggle\'s is a boolean' },
      { ui.Stepper, "count", 'ui.Stepper "count": its binding\'s get gave a string; a Stepper\'s is a number' },
      { ui.TextField, "name", 'ui.TextField "name": its binding\'s get gave a table; a TextField\'s is a string, or a number' },
      { ui.SecureField, "pin", 'ui.SecureField "pin": its binding\'s get gave a number; a SecureField\'s is a string' },
    }
    local control, key
    local Bound = ui.View("BoundByFunctions", function() return control(key, bound(key)) end)
    for _, case in ipairs(cases) do
      local message
      control, key, message = case[1], case[2], case[3]
      local app = ui.mount(Bound())
      assert.has_error_node(app, message)
      assert.matches("bindings_spec.lua:%d+: ", app:tree())
      app:unmount()
    end
    box.level, box.steps = 0 / 0, math.huge               -- numbers no Slider or Stepper can step
    local Unsteppable = ui.View("Unsteppable", function()
      return ui.VStack { ui.Slider(bound("level"), { 0, 1 }) }
    end)
    local nan = ui.mount(Unsteppable())
    assert.has_error_node(nan, "ui.Slider: its binding's get gave NaN (0/0); a Slider's value is a finite number")
    nan:unmount()
    local Infinite = ui.View("InfiniteSteps", { state = { steps = math.huge }, body = function(self)
      return ui.Stepper("steps", self["$steps"], { 1, 5 })
    end })
    local inf = ui.mount(Infinite {})
    assert.has_error_node(inf, "ui.Stepper: its binding holds an infinity; a Stepper's value is a finite number")
    inf:unmount()
    box.flag, box.count = true, 3
    local app = ui.mount(ui.View("BoundRight", function()
      return ui.VStack { ui.Toggle("flag", bound("flag")), ui.Stepper("count", bound("count"), { 1, 5 }) }
    end)())
    assert.equal('BoundRight\n  VStack\n    Toggle "flag" on\n    Stepper "count" 3 range={1, 5}\n', app:tree())
    app:find{ type = "Stepper" }:increment()
    assert.equal(4, box.count)
  end)
end)
