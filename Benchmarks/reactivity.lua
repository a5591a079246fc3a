-- Benchmarks/reactivity.lua — js-reactivity-benchmark's kairo cases, ported
-- to Lua, over any library with a signal / computed / effect shape.
--
-- A library is given as an adapter table:
--   signal(v)    -> get, set       (get() reads and tracks, set(x) writes)
--   computed(fn) -> get            (memoised, tracked)
--   effect(fn)   -> ()             (runs fn now and after changes it read)
--   batch(fn)    -> ()             (runs fn; effects run once, after it)
--   dispose()    -> ()             (optional: stops the case's effects)
-- `M.lunette(ui)` and `M.floor()` are the adapters this repository uses; an
-- adapter for another library is a few lines (see the README). Each case
-- returns a function that runs one iteration and checks its answer.
local M = {}

-- Lunette: cells are Observable properties, computeds computed properties.
function M.lunette(ui)
  local Cell = ui.Observable("BenchCell", { v = ui.none })
  local Derived = ui.Observable("BenchDerived", {
    fn = ui.ignored(false),
    v = ui.computed(function(self) return self.fn() end),
  })
  local effects = {}
  return {
    name = "lunette",
    signal = function(v)
      local c = Cell { v = v }
      return function() return c.v end, function(x) c.v = x end
    end,
    computed = function(fn)
      local d = Derived { fn = fn }
      return function() return d.v end
    end,
    effect = function(fn) effects[#effects + 1] = ui.effect(fn) end,
    batch = function(fn) fn(); ui.flush() end,
    dispose = function()
      for _, e in ipairs(effects) do e:cancel() end
      effects = {}
    end,
  }
end

-- The floor: no reactivity. Computeds are cached values recomputed blindly,
-- in creation (so dependency) order, after every batch; then every effect
-- runs. Reads are plain calls: the same call shape, nothing tracked.
function M.floor()
  local computeds, effects = {}, {}
  local function settle()
    for i = 1, #computeds do computeds[i]() end
    for i = 1, #effects do effects[i]() end
  end
  return {
    name = "floor",
    signal = function(v)
      local value = v
      return function() return value end, function(x) value = x end
    end,
    computed = function(fn)
      local value = fn()
      computeds[#computeds + 1] = function() value = fn() end
      return function() return value end
    end,
    effect = function(fn) effects[#effects + 1] = fn; fn() end,
    batch = function(fn) fn(); settle() end,
    dispose = function() computeds, effects = {}, {} end,
  }
end

local function check(ok, case)
  if not ok then error(case .. ": wrong answer", 2) end
end

M.cases = {}

-- broad: 50 branches off one signal, two computeds and an effect each.
function M.cases.broad(r)
  local head, setHead = r.signal(0)
  local runs = 0
  for i = 1, 50 do
    local current = r.computed(function() return head() + i end)
    local current2 = r.computed(function() return current() + 1 end)
    r.effect(function() local _ = current2(); runs = runs + 1 end)
  end
  local n = 0
  return function()
    n = n + 1
    runs = 0
    r.batch(function() setHead(n) end)
    check(runs == 50, "broad")
  end
end

-- deep: a chain of 50 computeds and an effect at its end.
function M.cases.deep(r)
  local head, setHead = r.signal(0)
  local current = head
  for _ = 1, 50 do
    local prev = current
    current = r.computed(function() return prev() + 1 end)
  end
  local last, seen = current, nil
  r.effect(function() seen = last() end)
  local n = 0
  return function()
    n = n + 1
    r.batch(function() setHead(n) end)
    check(seen == n + 50, "deep")
  end
end

-- diamond: 5 computeds off one signal, summed.
function M.cases.diamond(r)
  local head, setHead = r.signal(0)
  local branches = {}
  for i = 1, 5 do branches[i] = r.computed(function() return head() + 1 end) end
  local sum = r.computed(function()
    local s = 0
    for i = 1, 5 do s = s + branches[i]() end
    return s
  end)
  local seen
  r.effect(function() seen = sum() end)
  local n = 0
  return function()
    n = n + 1
    r.batch(function() setHead(n) end)
    check(seen == 5 * (n + 1), "diamond")
  end
end

-- triangle: a chain of 10 computeds, and a sum that reads every one.
function M.cases.triangle(r)
  local head, setHead = r.signal(0)
  local list, current = {}, head
  for i = 1, 10 do
    local prev = current
    list[i] = prev
    current = r.computed(function() return prev() + 1 end)
  end
  local sum = r.computed(function()
    local s = 0
    for i = 1, 10 do s = s + list[i]() end
    return s
  end)
  local seen
  r.effect(function() seen = sum() end)
  local n = 0
  return function()
    n = n + 1
    r.batch(function() setHead(n) end)
    check(seen == 10 * n + 45, "triangle")
  end
end

-- mux: 100 signals gathered into one table, split again, each split +1 and watched.
function M.cases.mux(r)
  local heads, sets = {}, {}
  for i = 1, 100 do heads[i], sets[i] = r.signal(0) end
  local mux = r.computed(function()
    local t = {}
    for i = 1, 100 do t[i] = heads[i]() end
    return t
  end)
  local seen = {}
  for i = 1, 100 do
    local split = r.computed(function() return mux()[i] end)
    local plus = r.computed(function() return split() + 1 end)
    r.effect(function() seen[i] = plus() end)
  end
  local n = 0
  return function()
    n = n + 1
    local i = (n - 1) % 100 + 1
    r.batch(function() sets[i](n) end)
    check(seen[i] == n + 1, "mux")
  end
end

-- repeated: one computed reading the same signal 30 times.
function M.cases.repeated(r)
  local head, setHead = r.signal(0)
  local current = r.computed(function()
    local s = 0
    for _ = 1, 30 do s = s + head() end
    return s
  end)
  local seen
  r.effect(function() seen = current() end)
  local n = 0
  return function()
    n = n + 1
    r.batch(function() setHead(n) end)
    check(seen == 30 * n, "repeated")
  end
end

-- unstable: a computed whose dependencies change with the signal's parity.
function M.cases.unstable(r)
  local head, setHead = r.signal(0)
  local double = r.computed(function() return head() * 2 end)
  local inverse = r.computed(function() return -head() end)
  local current = r.computed(function()
    local s = 0
    for _ = 1, 20 do s = s + (head() % 2 == 1 and double() or inverse()) end
    return s
  end)
  local seen
  r.effect(function() seen = current() end)
  local n = 0
  return function()
    n = n + 1
    r.batch(function() setHead(n) end)
    check(seen == 20 * (n % 2 == 1 and 2 * n or -n), "unstable")
  end
end

-- avoidable: a computed that does not change stops the propagation.
function M.cases.avoidable(r)
  local head, setHead = r.signal(0)
  local c1 = r.computed(function() return head() end)
  local c2 = r.computed(function() local _ = c1(); return 0 end)
  local c3 = r.computed(function() return c2() + 1 end)
  local c4 = r.computed(function() return c3() + 2 end)
  local c5 = r.computed(function() return c4() + 3 end)
  local runs = 0
  r.effect(function() local _ = c5(); runs = runs + 1 end)
  local n = 0
  return function()
    n = n + 1
    runs = 0
    r.batch(function() setHead(n) end)
    check(c5() == 6, "avoidable")
  end
end

M.order = { "broad", "deep", "diamond", "triangle", "mux", "repeated", "unstable", "avoidable" }

-- cellx: `layers` layers of four computeds over the previous layer, an
-- effect on every cell (with `observe` "end": on the last layer's cells
-- only, so the first read walks the whole chain); sources swap between
-- 1,2,3,4 and 4,3,2,1. Known answers for the last layer
-- (js-reactivity-benchmark's).
M.cellxAnswers = {
  [1000] = { { -3, -6, -2, 2 }, { -2, -4, 2, 3 } },
  [5000] = { { 2, 4, -1, -6 }, { -2, 1, -4, -4 } },
}
function M.cellx(r, layers, observe)
  local s = {}
  for i = 1, 4 do s[i] = { r.signal(i) } end
  local prev = { s[1][1], s[2][1], s[3][1], s[4][1] }
  for _ = 1, layers do
    local p = prev
    local cell = {
      r.computed(function() return p[2]() end),
      r.computed(function() return p[1]() - p[3]() end),
      r.computed(function() return p[2]() + p[4]() end),
      r.computed(function() return p[3]() end),
    }
    if observe ~= "end" then
      for k = 1, 4 do r.effect(function() local _ = cell[k]() end) end
    end
    prev = cell
  end
  local last = prev
  if observe == "end" then
    for k = 1, 4 do r.effect(function() local _ = last[k]() end) end
  end
  local answers = M.cellxAnswers[layers]
  local flip = false
  local function check(want)
    if answers then
      for k = 1, 4 do if last[k]() ~= want[k] then error("cellx: wrong answer", 2) end end
    end
  end
  check(answers and answers[1])
  return function()
    flip = not flip
    r.batch(function()
      for k = 1, 4 do s[k][2](flip and 5 - k or k) end
    end)
    check(answers and answers[flip and 2 or 1])
  end
end

-- molBench: a small model with costly nodes (fib(16)) and two batches an iteration.
local function fib(n) if n < 2 then return 1 end return fib(n - 1) + fib(n - 2) end
local function hard(n) return n + fib(16) end
function M.molbench(r)
  local A, setA = r.signal(0)
  local B, setB = r.signal(0)
  local C = r.computed(function() return (A() % 2) + (B() % 2) end)
  local D = r.computed(function()
    local t = {}
    for i = 0, 4 do t[i + 1] = { x = i + (A() % 2) - (B() % 2) } end
    return t
  end)
  local E = r.computed(function() return hard(C() + A() + D()[1].x) end)
  local F = r.computed(function() local x = D()[3].x; return hard(x ~= 0 and x or B()) end)
  local G = r.computed(function()
    local c = C()
    return c + (c ~= 0 and c or E() % 2) + D()[5].x + F()
  end)
  local last
  r.effect(function() last = hard(G()) end)
  r.effect(function() local _ = G() end)
  r.effect(function() local _ = hard(F()) end)
  local i = 0
  return function()
    r.batch(function() setB(1); setA(1 + i * 2) end)
    r.batch(function() setA(2 + i * 2); setB(2) end)
    i = i + 1
    return last
  end
end

return M
