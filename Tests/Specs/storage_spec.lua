-- App storage (issue 12, T04): values kept by key, shared by every view
-- that reads the key, as @AppStorage. `lunette test` gives each test a
-- fresh, empty store (ui.reset() empties it), so these tests see defaults.
local ui = require("lunette")

local function counterType(name)
  return ui.View(name, {
    appStorage = { launches = 0, user = ui.AppStorage("user.name", "anonymous") },
    body = function(self)
      return ui.VStack {
        ui.Text(name .. ": " .. self.launches .. " " .. self.user),
        ui.Button(name .. " +", function() self.launches = self.launches + 1 end),
        ui.TextField(name .. " user", self["$user"]),
      }
    end,
  })
end

-- AppStorage reflects a value kept by key in the user defaults and
-- invalidates the views that read it when the value changes
-- (https://developer.apple.com/documentation/swiftui/appstorage); the
-- wrapped value given at the declaration is the default while the key holds
-- nothing (https://developer.apple.com/documentation/swiftui/appstorage/init(wrappedvalue:_:store:)).
describe("App storage", function()
  it("T04 a stored value starts from its default and is read by key", function()
    local app = ui.mount(counterType("StoreA") {})
    assert.truthy(app:find("StoreA: 0 anonymous"))
    app:unmount()
  end)

  it("T04 a write from one view invalidates every view that reads the key", function()
    local A, B = counterType("StoreB1"), counterType("StoreB2")
    local Unrelated = ui.View("StoreUnrelated", { appStorage = { other = 1 }, body = function(self)
      return ui.Text("other " .. self.other)
    end })
    local app = ui.mount(ui.VStack { A {}, B {}, Unrelated {} })
    app:resetRenders()
    app:find("StoreB1 +"):tap()
    assert.truthy(app:find("StoreB1: 1 anonymous"))
    assert.truthy(app:find("StoreB2: 1 anonymous"))
    assert.equal(0, app:renders("StoreUnrelated"))
    app:find("StoreB2 user"):setText("ada")            -- through the binding self["$user"]
    assert.truthy(app:find("StoreB1: 1 ada"))
    app:unmount()
  end)

  it("T04 each test starts from an empty store", function()
    local app = ui.mount(counterType("StoreC") {})
    assert.truthy(app:find("StoreC: 0 anonymous"))     -- the previous test wrote 1 and "ada"
    app:find("StoreC +"):tap()
    ui.reset()
    app = ui.mount(counterType("StoreC") {})
    assert.truthy(app:find("StoreC: 0 anonymous"))
    app:unmount()
  end)

  it("T04 a table is stored as a value; changing a field inside it is a write", function()
    local Prefs = ui.View("StorePrefs", { appStorage = { prefs = { theme = "dark", size = 12 } }, body = function(self)
      return ui.VStack {
        ui.Text("theme " .. self.prefs.theme),
        ui.Button("light", function() self.prefs.theme = "light" end),
      }
    end })
    local Other = ui.View("StorePrefsReader", { appStorage = { "prefs" }, body = function(self)
      return ui.Text("other sees " .. (self.prefs and self.prefs.theme or "nothing"))
    end })
    local app = ui.mount(ui.VStack { Prefs {}, Other {} })
    assert.truthy(app:find("other sees nothing"))     -- its own default (none: nil) until the key is written (D07)
    app:find("light"):tap()
    assert.truthy(app:find("theme light"))
    assert.truthy(app:find("other sees light"))
    app:unmount()
  end)

  it("T04 a value that cannot be stored is an error naming the view, the key and the type", function()
    local Bad = ui.View("StoreBad", { appStorage = { count = 0 }, body = function(self)
      return ui.Button("bad", function() self.count = function() end end)
    end })
    local app = ui.mount(Bad {})
    local ok, err = pcall(function() app:find("bad"):tap() end)   -- pcall: busted's error_matches drops the position
    assert.is_false(ok)
    assert.matches("storage_spec.lua:%d+: StoreBad: appStorage 'count' cannot hold a function", err)
    local Through = ui.View("StoreBadBinding", { appStorage = { count = 0 }, body = function(self)
      return ui.Button("through", function() self["$count"]:set(print) end)
    end })
    local other = ui.mount(Through {})
    ok, err = pcall(function() other:find("through"):tap() end)
    assert.is_false(ok)
    assert.matches("storage_spec.lua:%d+: StoreBadBinding: appStorage 'count' cannot hold a function", err)
    other:unmount()
    assert.error_matches(function()
      ui.View("StoreBadDefault", { appStorage = { when = print }, body = function() return ui.Text("") end })
    end, "StoreBadDefault: appStorage 'when' cannot hold a function", 1, true)
    assert.error_matches(function() ui.AppStorage("", 0) end, "non-empty string", 1, true)
    assert.error_matches(function()
      ui.Observable("StoreMisplaced", { n = ui.AppStorage("n", 0) })
    end, "belongs in a view's appStorage section", 1, true)
    app:unmount()
  end)

  -- An author's report: a key declared with a number took a string write.
  -- @AppStorage's value has its declaration's type ("var count = 0" is an
  -- Int, https://developer.apple.com/documentation/swiftui/appstorage): a
  -- write of another type is refused, through self or a binding; nil gives
  -- the key its default again.
  it("T04 a write keeps to the type of the key's declared default; nil removes it", function()
    local Typed = ui.View("StoreTyped", { appStorage = { count = 0, name = ui.AppStorage("user.name", "") },
      body = function(self)
        return ui.VStack {
          ui.Text("count " .. tostring(self.count) .. " name " .. self.name),
          ui.Button("word", function() self.count = "many" end),
          ui.Button("bound", function() self["$name"]:set(3) end),
          ui.Button("clear", function() self.count = nil end),
          ui.Button("five", function() self.count = 5.5 end),
        }
      end })
    local app = ui.mount(Typed {})
    local ok, err = pcall(function() app:find("word"):tap() end)
    assert.is_false(ok)
    assert.matches("storage_spec.lua:%d+: app storage 'count' holds a number %(its declared default is one%), got a string", err)
    ok, err = pcall(function() app:find("bound"):tap() end)
    assert.matches("app storage 'user.name' holds a string %(its declared default is one%), got a number", err)
    app:find("five"):tap()
    assert.truthy(app:find("count 5.5 name "))
    app:find("clear"):tap()
    assert.truthy(app:find("count 0 name "))
    app:unmount()
  end)

  it("T04 writing the same value again notifies nobody", function()
    local Same = ui.View("StoreSame", { appStorage = { flag = true }, body = function(self)
      return ui.Button("again", function() self.flag = true end)
    end })
    local app = ui.mount(Same {})
    app:resetRenders()
    app:find("again"):tap()
    assert.equal(0, app:renders("StoreSame"))
    app:unmount()
  end)
end)

-- D07. AppStorage's init(wrappedValue:_:store:): wrappedValue is "the
-- default value if a[n] ... value is not specified for the given key"
-- (https://developer.apple.com/documentation/swiftui/appstorage/init(wrappedvalue:_:store:));
-- the optional init(_:store:) "defaults to nil if there is no restored value"
-- (https://developer.apple.com/documentation/swiftui/appstorage/init(_:store:)).
-- So each declaration reads its own default while the key holds nothing, and
-- writing nil to an optional removes the key: every declaration falls back
-- to its own default again.
describe("D07 App storage defaults", function()
  local function reader(name, section)
    return ui.View(name, { appStorage = section, body = function(self)
      return ui.VStack {
        ui.Text(name .. " " .. tostring(self.size)),
        ui.Button(name .. " set", function() self.size = 20 end),
        ui.Button(name .. " clear", function() self.size = nil end),
        ui.Stepper(name .. " step", self["$size"], { 0, 99 }),
      }
    end })
  end

  it("D07 each declaration keeps its own default until the key is written", function()
    local Small, Large = reader("D07Small", { size = 10 }), reader("D07Large", { size = ui.AppStorage("size", 30) })
    local Unset = reader("D07Unset", { "size" })      -- an optional: nil while nothing is stored
    local app = ui.mount(ui.VStack { Small {}, Large {}, Unset {} })
    assert.truthy(app:find("D07Small 10"))
    assert.truthy(app:find("D07Large 30"))
    assert.truthy(app:find("D07Unset nil"))
    app:find("D07Large set"):tap()
    assert.truthy(app:find("D07Small 20"))
    assert.truthy(app:find("D07Large 20"))
    assert.truthy(app:find("D07Unset 20"))
    app:unmount()
  end)

  it("D07 a binding to a key that holds nothing reads its own declaration's default", function()
    local Small, Large = reader("D07BSmall", { size = 10 }), reader("D07BLarge", { size = 30 })
    local app = ui.mount(ui.VStack { Small {}, Large {} })
    app:find("D07BLarge step"):increment()           -- 30 + 1, written to the key
    assert.truthy(app:find("D07BSmall 31"))
    assert.truthy(app:find("D07BLarge 31"))
    app:unmount()
  end)

  it("D07 writing nil removes the key: every declaration falls back to its own default", function()
    local Small, Large = reader("D07RSmall", { size = 10 }), reader("D07RLarge", { size = 30 })
    local Unset = reader("D07RUnset", { "size" })
    local app = ui.mount(ui.VStack { Small {}, Large {}, Unset {} })
    app:find("D07RSmall set"):tap()
    assert.truthy(app:find("D07RLarge 20"))
    app:find("D07RUnset clear"):tap()
    assert.truthy(app:find("D07RSmall 10"))
    assert.truthy(app:find("D07RLarge 30"))
    assert.truthy(app:find("D07RUnset nil"))
    app:unmount()
  end)

  it("D07 changing a field of a table default writes the key with that declaration's default, changed", function()
    local function prefs(name, theme)
      return ui.View(name, { appStorage = { prefs = { theme = theme, size = 12 } }, body = function(self)
        return ui.VStack {
          ui.Text(name .. " " .. self.prefs.theme .. " " .. self.prefs.size),
          ui.Button(name .. " bigger", function() self.prefs.size = self.prefs.size + 1 end),
          ui.Button(name .. " reset", function() self.prefs = nil end),
        }
      end })
    end
    local Dark, Blue = prefs("D07Dark", "dark"), prefs("D07Blue", "blue")
    local app = ui.mount(ui.VStack { Dark {}, Blue {} })
    assert.truthy(app:find("D07Blue blue 12"))
    app:find("D07Dark bigger"):tap()
    assert.truthy(app:find("D07Dark dark 13"))
    assert.truthy(app:find("D07Blue dark 13"))        -- the key now holds Dark's default, changed
    app:find("D07Blue reset"):tap()
    assert.truthy(app:find("D07Dark dark 12"))        -- each default as declared, not as changed
    assert.truthy(app:find("D07Blue blue 12"))
    app:find("D07Blue bigger"):tap()
    assert.truthy(app:find("D07Dark blue 13"))
    app:unmount()
  end)
end)

-- SceneStorage: "a property wrapper type that reads and writes to persisted,
-- per-scene storage" (https://developer.apple.com/documentation/swiftui/scenestorage).
-- lunette run keeps a scene per script; a test starts from an empty store.
-- AppStorage's wrappedValue is "the default value if a value is not
-- specified for the given key" (https://developer.apple.com/documentation/swiftui/appstorage),
-- read as the declaration's type: a view declaring a key with a string
-- default read the number another view's declaration wrote, and its own
-- writes were refused "(its declared default is one)" of the other view.
describe("D07 one key, one type", function()
  it("D07 two declarations of a key with defaults of different types are an error naming the key and both types", function()
    local A = ui.View("OneTypeA", { appStorage = { k = ui.AppStorage("oneType.shared", 0) }, body = function(self)
      return ui.Text("A " .. tostring(self.k))
    end })
    local B = ui.View("OneTypeB", { appStorage = { k = ui.AppStorage("oneType.shared", "x") }, body = function(self)
      return ui.Text("B " .. tostring(self.k))
    end })
    local app = ui.mount(ui.VStack { A {}, B {} })
    assert.truthy(app:find("A 0"))
    assert.has_error_node(app, "storage key 'oneType.shared' is declared with a string default here and a number one elsewhere")
    app:unmount()
  end)
end)

describe("Scene storage", function()
  -- SceneStorage: "Each Scene has its own notion of SceneStorage, so data is
  -- not shared between scenes" (https://developer.apple.com/documentation/swiftui/scenestorage):
  -- names that differ only past a NUL were one key, and an app storage key
  -- spelled as a scene's reached that scene's value.
  it("R24 sceneStorage names that differ after a NUL are two values; app storage cannot reach a scene's keys", function()
    local V = ui.View("SceneNul", { sceneStorage = { ["x\0y"] = 0, ["x\0z"] = 0 }, body = function(self)
      return ui.Button(("y=%d z=%d"):format(self["x\0y"], self["x\0z"]), function() self["x\0y"] = self["x\0y"] + 1 end)
    end })
    local app = ui.mount(V {})
    app:find("y=0 z=0"):tap()
    assert.truthy(app:find("y=1 z=0"))
    app:unmount()
    assert.error_matches(function() return ui.AppStorage("scene:main:tab", 1) end,
      "ui.AppStorage: app storage key 'scene:main:tab' begins 'scene:', which is sceneStorage's", 1, true)
    assert.error_matches(function()
      return ui.View("SceneKeyed", { appStorage = { ["scene:main:tab"] = 1 }, body = function() return ui.Text("") end })
    end, "SceneKeyed: app storage key 'scene:main:tab' begins 'scene:'", 1, true)
    assert.error_matches(function()
      return ui.View("EmptyKeyed", { appStorage = { [""] = 1 }, body = function() return ui.Text("") end })
    end, "EmptyKeyed: appStorage takes names that are not empty", 1, true)
    assert.error_matches(function()
      return ui.View("TwiceKeyed", { appStorage = { "k", k = 3 }, body = function() return ui.Text("") end })
    end, "TwiceKeyed: appStorage 'k' is listed alone and given a default: keep one", 1, true)
  end)

  local function tabs(name)
    return ui.View(name, { sceneStorage = { tab = 1 }, body = function(self)
      return ui.VStack {
        ui.Text(name .. " tab " .. self.tab),
        ui.Button(name .. " next", function() self.tab = self.tab + 1 end),
        ui.Stepper(name .. " step", self["$tab"], { 1, 9 }),
      }
    end })
  end

  it("a sceneStorage value starts from its default, is shared by the views of the scene, and writes through its binding", function()
    local app = ui.mount(ui.VStack { tabs("SceneA") {}, tabs("SceneB") {} })
    assert.truthy(app:find("SceneA tab 1"))
    app:find("SceneA next"):tap()
    assert.truthy(app:find("SceneA tab 2"))
    assert.truthy(app:find("SceneB tab 2"))           -- one key per scene, as appStorage shares one per app
    app:find { type = "Stepper" }:increment()
    assert.truthy(app:find("SceneB tab 3"))
    app:unmount()
  end)

  it("a sceneStorage key is its own, apart from an appStorage key of the same name", function()
    local Both = ui.View("SceneBoth", { sceneStorage = { count = 5 }, body = function(self)
      return ui.Text("scene " .. self.count)
    end })
    local App = ui.View("AppCount", { appStorage = { count = 7 }, body = function(self)
      return ui.Text("app " .. self.count)
    end })
    local app = ui.mount(ui.VStack { Both {}, App {} })
    assert.truthy(app:find("scene 5"))
    assert.truthy(app:find("app 7"))
    app:unmount()
  end)

  it("a sceneStorage default that cannot be stored is an error naming the view", function()
    local ok, err = pcall(ui.View, "SceneBad", { sceneStorage = { f = print }, body = function() return ui.Text("x") end })
    assert.is_false(ok)
    assert.matches("SceneBad", err)
  end)
end)
