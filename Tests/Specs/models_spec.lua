-- ui.Observable: what a script author sees of models.
local ui = require("lunette")

local Author = ui.Observable("Author", { name = "Unknown Author" })
local Book = ui.Observable("Book", {
  title = "Sample Book Title",
  author = function() return Author() end,
  isAvailable = true,
  tags = { "new" },
  note = ui.ignored("not tracked"),
})

local function count_renders(read)
  local runs = 0
  local Probe = ui.View("Probe", function()
    runs = runs + 1
    read()
    return ui.EmptyView()
  end)
  ui.mount(Probe())
  return function() ui.flush(); return runs end
end

describe("Models", function()
  it("construct with defaults and overrides; function defaults are per-instance factories", function()
    local a, b = Book(), Book { title = "Dune" }
    assert.equal("Sample Book Title", a.title)
    assert.equal("Dune", b.title)
    assert.not_equal(a.author, b.author)
    assert.equal("Unknown Author", b.author.name)
  end)

  it("table defaults are copied per instance", function()
    local a, b = Book(), Book()
    table.insert(a.tags, "x")
    assert.equal(2, #a.tags)
    assert.equal(1, #b.tags)
  end)

  it("rejects unknown properties with the class and the name", function()
    assert.error_matches(function() Book { titel = "x" } end, "Book has no property 'titel'", 1, true)
    local book = Book()
    assert.error_matches(function() book.titel = "x" end, "Book has no property 'titel' to assign", 1, true)
  end)

  it("methods are plain Lua functions on the class", function()
    local Shelf = ui.Observable("Shelf", { books = function() return {} end })
    function Shelf:add(book) table.insert(self.books, book) end
    local shelf = Shelf()
    shelf:add(Book())
    assert.equal(1, #shelf.books)
  end)

  it("ui.ignored properties are stored but not tracked", function()
    local book = Book()
    local flushAndCount = count_renders(function() local _ = book.note end)
    book.note = "changed"
    assert.equal(1, flushAndCount())
    assert.equal("changed", book.note)
  end)

  it("identity and tostring are stable and readable", function()
    local book = Book { title = "Dune" }
    assert.matches("^Book#%d+$", ui.id(book))
    assert.equal(ui.id(book), ui.id(book))
    assert.not_equal(ui.id(book), ui.id(Book()))
    assert.matches('^Book#%d+ {author=Author#%d+, isAvailable=true, note="not tracked", tags={"new"}, title="Dune"}$', tostring(book))
    assert.matches("Observable class Book", tostring(Book))
  end)

  it("pairs over an instance gives its properties", function()
    local seen = {}
    for k, v in pairs(Author { name = "Le Guin" }) do seen[k] = v end
    assert.same({ name = "Le Guin" }, seen)
  end)

  it("plain tables in properties are tracked values: #, [], ipairs, pairs, nested writes", function()
    local Doc = ui.Observable("Doc", { data = function() return { items = { 1, 2 }, meta = { n = 0 } } end })
    local doc = Doc()
    local seen
    local flushAndCount = count_renders(function()
      local sum = 0
      for _, v in ipairs(doc.data.items) do sum = sum + v end
      local keys = 0
      for _ in pairs(doc.data.meta) do keys = keys + 1 end
      seen = sum .. "/" .. #doc.data.items .. "/" .. keys
    end)
    assert.equal("3/2/1", seen)
    doc.data.meta.n = 1                    -- nested write notifies the owner
    assert.equal(2, flushAndCount())
    table.insert(doc.data.items, 10)
    assert.equal(3, flushAndCount())
    assert.equal("13/3/1", seen)
    doc.data.meta.extra = true
    assert.equal(4, flushAndCount())
    assert.equal("13/3/2", seen)
    doc.data.items[1] = 1                  -- equal: nobody is notified
    assert.equal(4, flushAndCount())
    assert.equal(doc.data, doc.data)       -- proxies keep their identity
  end)
end)

describe("Computed properties", function()
  it("are memoised and recomputed only when an input changed", function()
    local runs = 0
    local Pair = ui.Observable("Pair", {
      a = 1, b = 2, c = 0,
      sum = ui.computed(function(self) runs = runs + 1; return self.a + self.b end),
    })
    local p = Pair()
    assert.equal(3, p.sum)
    assert.equal(3, p.sum)
    assert.equal(1, runs)
    p.c = 5
    assert.equal(3, p.sum)
    assert.equal(1, runs)
    p.a = 10
    assert.equal(12, p.sum)
    assert.equal(2, runs)
  end)

  it("are glitch-free in a diamond: each node runs once per change, never with mixed inputs", function()
    local log = {}
    local D = ui.Observable("Diamond", {
      a = 1,
      b = ui.computed(function(self) return self.a * 2 end),
      c = ui.computed(function(self) return self.a + 1 end),
      d = ui.computed(function(self)
        local v = self.b + self.c
        log[#log + 1] = self.a .. ":" .. v
        return v
      end),
    })
    local d = D()
    assert.equal(4, d.d)
    local flushAndCount = count_renders(function() local _ = d.d end)
    d.a = 2
    assert.equal(2, flushAndCount())
    assert.equal(7, d.d)
    assert.same({ "1:4", "2:7" }, log)
  end)

  it("an unchanged computed value stops propagation", function()
    local P = ui.Observable("Parity", {
      n = 1,
      odd = ui.computed(function(self) return self.n % 2 == 1 end),
    })
    local p = P()
    local flushAndCount = count_renders(function() local _ = p.odd end)
    p.n = 3
    assert.equal(1, flushAndCount())
    p.n = 4
    assert.equal(2, flushAndCount())
  end)

  it("cannot be assigned, and a cycle is reported", function()
    local C = ui.Observable("Cyclic", {
      x = ui.computed(function(self) return self.y end),
      y = ui.computed(function(self) return self.x end),
    })
    local c = C()
    assert.error_matches(function() c.x = 1 end, "cannot assign to computed property 'x'", 1, true)
    assert.error_matches(function() return c.x end, "depends on itself", 1, true)
  end)

  it("names a cycle once, at the line of the read that closes it", function()
    local C = ui.Observable("Loop", {
      x = ui.computed(function(self) return self.x + 1 end),
    })
    local ok, err = pcall(function() return C().x end)
    assert.is_false(ok)
    -- before: "computed property 'x' of Loop#1: …:N: computed property 'x' of Loop#1 depends on itself"
    assert.matches("^[^:]+_spec%.lua:%d+: computed property 'x' of Loop#%d+ depends on itself$", err)
    -- a script's own words are no computed's name: the computed that raised is named
    local Said = ui.Observable("Said", { z = ui.computed(function() error("the computed property 'q' is odd") end) })
    local ok2, err2 = pcall(function() return Said().z end)
    assert.is_false(ok2)
    assert.matches("^computed property 'z' of Said#%d+: .*the computed property 'q' is odd$", err2)
    local Put = ui.Observable("Put", { z = ui.computed(function() error("computed property 'q' is odd") end) })
    local ok3, err3 = pcall(function() return Put().z end)
    assert.is_false(ok3)
    assert.matches("^computed property 'z' of Put#%d+: .*: computed property 'q' is odd$", err3)
  end)

  it("a cycle formed after both were evaluated is reported too, not answered with an old value", function()
    local C = ui.Observable("LateCycle", {
      on = false,
      a = ui.computed(function(self) if self.on then return self.b end return 1 end),
      b = ui.computed(function(self) return self.a + 1 end),
    })
    local c = C()
    assert.equal(2, c.b)                               -- evaluated: b reads a
    c.on = true                                        -- now a reads b: a cycle
    assert.error_matches(function() return c.b end, "depends on itself", 1, true)
    c.on = false                                       -- and it recovers
    assert.equal(2, c.b)
  end)

  it("a deep chain whose computeds catch and wrap their dependency's errors still evaluates", function()
    -- A read past the nesting bound unwinds with a private marker and tries
    -- again deepest first; a computed that caught it and raised text in its
    -- place ("c9: userdata: 0x…") ended the read with that text.
    local props = { base = 1 }
    props.c1 = ui.computed(function(self) return self.base end)
    for i = 2, 40 do
      local below = "c" .. (i - 1)
      props["c" .. i] = ui.computed(function(self)
        local ok, v = pcall(function() return self[below] end)
        if not ok then error("c" .. i .. ": " .. tostring(v), 0) end
        return v + 1
      end)
    end
    local m = ui.Observable("WrappingChain", props)()
    assert.equal(40, m.c40)
  end)

  it("a cycle a pcall caught inside a computed leaves no loop for the next refresh to walk", function()
    -- A computed peeking at its own last value, and two that read each other
    -- defensively: each read of the cycle raises "depends on itself" (caught);
    -- the refresh after the next change walked the loop without end (4 GB).
    local M = ui.Observable("CaughtCycle", {
      x = 1,
      total = ui.computed(function(self)
        local ok, prev = pcall(function() return self.total end)
        return self.x + ((ok and prev) or 0)
      end),
      a = ui.computed(function(self)
        local ok, b = pcall(function() return self.b end)
        return self.x + ((ok and b) or 0)
      end),
      b = ui.computed(function(self) return self.a + 1 end),
    })
    local m = M()
    assert.equal(1, m.total)
    assert.equal(2, m.b)
    m.x = 2
    assert.equal(2, m.total)
    assert.equal(2, m.a)
    assert.equal(3, m.b)
  end)

  it("chains thousands deep evaluate without C stack overflow, first read and after changes", function()
    local Cell = ui.Observable("Cell", {
      prev = ui.ignored(false),
      base = 0,
      value = ui.computed(function(self)
        if self.prev then return self.prev.value + 1 end
        return self.base
      end),
    })
    local first = Cell()
    local last = first
    for _ = 1, 5000 do last = Cell { prev = last } end
    assert.equal(5000, last.value)        -- never evaluated before: the whole chain at once
    first.base = 10
    assert.equal(5010, last.value)
    local flushAndCount = count_renders(function() local _ = last.value end)
    first.base = 20
    assert.equal(2, flushAndCount())
    assert.equal(5020, last.value)
  end)

  it("errors in a computed reach the reader and are retried on the next read", function()
    local fail = true
    local F = ui.Observable("Flaky", {
      v = ui.computed(function() if fail then error("not yet") end; return 1 end),
    })
    local f = F()
    assert.error_matches(function() return f.v end, "not yet", 1, true)
    fail = false
    assert.equal(1, f.v)
  end)
end)

describe("Models: properties by name", function()
  -- A read or write names its property by the key's text (the class finds
  -- it by Lua's interned string, or through its names table when a name is
  -- too long for Lua to intern): every property of a large class, a long
  -- name, and no key that is not that string.
  it("finds every property by its name, in a class of many, with long names, and only by a string key", function()
    local spec, long = {}, string.rep("a_very_long_property_name_", 3)
    for i = 1, 300 do spec["p" .. i] = i end
    spec[long] = "long"
    local Wide = ui.Observable("WideModel", spec)
    local w = Wide()
    for i = 1, 300 do assert.equal(i, w["p" .. i]) end
    assert.equal("long", w[long])
    w[long] = "changed"
    assert.equal("changed", w[string.rep("a_very_long_property_name_", 3)])
    local Named = ui.Observable("NamedModel", { [long] = 1, short = 2 })
    local n = Named()
    local runs, read = 0, nil
    local app = ui.mount(ui.View("LongNameReader", function()
      runs = runs + 1
      read = n[long] + n.short
      return ui.Text(tostring(read))
    end)())
    n[table.concat({ "a_very_long_property_name_", "a_very_long_property_name_", "a_very_long_property_name_" })] = 10
    ui.flush()
    assert.equal(2, runs)
    assert.equal(12, read)
    local Small = ui.Observable("KeyedModel", { ["1"] = "one", title = "t" })
    local k = Small()
    assert.equal("one", k["1"])
    assert.error_matches(function() return k[1] end, "KeyedModel has no property '1' to read", 1, true)
    assert.error_matches(function() k[1] = "x" end, "KeyedModel has no property '1' to assign", 1, true)
    assert.error_matches(function() return w.p301 end, "WideModel has no property 'p301' to read", 1, true)
    app:unmount()
  end)

  -- A factory default runs with the instance made: it may read a computed
  -- of it, which then tracks what it read like any other (session 13's
  -- hostile read: the object was not findable yet, and the computed stayed
  -- nil for good).
  it("a factory default may read a computed of the object being made, which stays live", function()
    local M = ui.Observable("FactoryReader", {
      a = 2,
      double = ui.computed(function(self) return self.a * 2 end),
      label = function(self) return "x" .. tostring(self.double) end,
    })
    local m = M()
    assert.equal("x4", m.label)
    assert.equal(4, m.double)
    m.a = 5
    assert.equal(10, m.double)
  end)

  -- An init table's values are given before any factory runs (they are
  -- plain values), and a property a factory read before it was set (it got
  -- nil, or a computed it read did) tells its readers when it is set, so
  -- nothing keeps what it saw then (session 13's second hostile read).
  it("an init table's values come before factories; what a factory read before it was set is told", function()
    local M = ui.Observable("InitOrder", {
      a = function(self) return "a sees b=" .. tostring(self.b) .. " c=" .. tostring(self.c) end,
      b = function() return 1 end,
      c = ui.computed(function(self) return self.b and self.b * 10 end),
    })
    local m = M { b = 5 }
    assert.equal("a sees b=5 c=50", m.a)
    assert.equal(50, m.c)
    local Stale = ui.Observable("InitStale", {
      a = function(self) return "a sees c=" .. tostring(self.c) end,   -- names sort a, b, c: b is not set yet
      b = function() return 5 end,
      c = ui.computed(function(self) return (self.b or 0) * 2 end),
    })
    local s = Stale()
    assert.equal("a sees c=0", s.a)                  -- what it saw then
    assert.equal(10, s.c)                            -- and not kept: b was set after
    local seen
    local e = ui.effect(function() seen = s.c end)
    s.b = 6
    ui.flush()
    assert.equal(12, seen)
    e:cancel()
  end)

  -- An instance keeps each property in a user value, which Lua counts in an
  -- unsigned short: a class that declares more is refused, not truncated.
  it("refuses a class with more properties than an instance can hold, naming the count", function()
    local spec = {}
    for i = 1, 65001 do spec["p" .. i] = true end
    assert.error_matches(function() ui.Observable("Huge", spec) end,
      "ui.Observable('Huge'): too many properties (65001; at most 65000)", 1, true)
    assert.error_matches(function() ui.ObservableObject("HugeObject", spec) end,
      "ui.ObservableObject('HugeObject'): too many properties (65001; at most 65000)", 1, true)
    spec.p65001 = nil
    local Big = ui.Observable("Big", spec)
    local b = Big()
    b.p65000 = "last"
    assert.equal("last", b.p65000)
    assert.equal(true, b.p1)
  end)
end)
