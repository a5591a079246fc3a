-- Benchmarks/bench.lua — TARGETS.md P1, P2, P2b, P5, each beside its floor
-- measured in the same run. Run by scripts/bench (release build):
--   lunette run Benchmarks/bench.lua [quick]
-- Times are CPU seconds from os.clock; every figure is a median of samples.
local ui = require("lunette")
local quick = (arg and arg[1] == "quick") or os.getenv("LUNETTE_BENCH_QUICK") ~= nil

local function median(xs)
  table.sort(xs)
  local n = #xs
  if n % 2 == 1 then return xs[(n + 1) // 2] end
  return (xs[n // 2] + xs[n // 2 + 1]) / 2
end

-- Runs fn `samples` times (after one warm-up) and returns the median seconds.
-- The collector runs as it would in use: samples include its amortised work.
local function measure(samples, fn)
  fn(0)
  local times = {}
  for i = 1, samples do
    local t0 = os.clock()
    fn(i)
    times[i] = os.clock() - t0
  end
  return median(times)
end

local function fmt(seconds)
  if seconds < 1e-6 then return ("%.1f ns"):format(seconds * 1e9) end
  if seconds < 1e-3 then return ("%.1f µs"):format(seconds * 1e6) end
  if seconds < 1 then return ("%.2f ms"):format(seconds * 1e3) end
  return ("%.2f s"):format(seconds)
end

local results = {}
local function report(id, what, value, reference, target, ok, note)
  local ratio = reference and reference > 0 and value / reference or nil
  local line = ("%-4s %-52s %11s  floor %11s  ratio %6s  target %-8s %s%s"):format(
    id, what, fmt(value), reference and fmt(reference) or "-", ratio and ("%.2f"):format(ratio) or "-",
    target, ok and "ok" or "MISSED", note and ("  (" .. note .. ")") or "")
  print(line)
  results[#results + 1] = line
  io.stdout:flush()
end

-- P1 ------------------------------------------------------------------------
do
  local N = quick and 200000 or 2000000
  local Box = ui.Observable("Box", { x = 1 })
  local box, plain = Box(), { x = 1 }
  local reads = 0
  local tracked = measure(quick and 3 or 7, function()
    local effect = ui.effect(function()
      local b, s = box, 0
      for _ = 1, N do s = s + b.x end
      reads = s
    end)
    effect:cancel()
  end)
  local floor = measure(quick and 3 or 7, function()
    local t, s = plain, 0
    for _ = 1, N do s = s + t.x end
    reads = s
  end)
  assert(reads == N)
  report("P1", "tracked read in a body vs plain table read (per read)", tracked / N, floor / N, "<= 10x",
    tracked / floor <= 10)
end

-- P2 / P2b: cellx -------------------------------------------------------------
local Source = ui.Observable("Source", { p1 = 1, p2 = 2, p3 = 3, p4 = 4 })
local Layer = ui.Observable("Layer", {
  prev = ui.ignored(false),
  p1 = ui.computed(function(self) return self.prev.p2 end),
  p2 = ui.computed(function(self) return self.prev.p1 - self.prev.p3 end),
  p3 = ui.computed(function(self) return self.prev.p2 + self.prev.p4 end),
  p4 = ui.computed(function(self) return self.prev.p3 end),
})

local expected = {
  [1000] = { before = { -3, -6, -2, 2 }, after = { -2, -4, 2, 3 } },
  [5000] = { before = { 2, 4, -1, -6 }, after = { -2, 1, -4, -4 } },
}

local function same(t, a, b, c, d) return t[1] == a and t[2] == b and t[3] == c and t[4] == d end

-- The floor: the same compute functions called blindly in dependency order.
local function cellx_floor(layers, observe)
  local f1 = function(p) return p.p2 end
  local f2 = function(p) return p.p1 - p.p3 end
  local f3 = function(p) return p.p2 + p.p4 end
  local f4 = function(p) return p.p3 end
  local source = { p1 = 1, p2 = 2, p3 = 3, p4 = 4 }
  local cells = {}
  local function compute()
    local prev = source
    for i = 1, layers do
      local c = cells[i]
      c.p1, c.p2, c.p3, c.p4 = f1(prev), f2(prev), f3(prev), f4(prev)
      if observe == "all" or i == layers then
        local _ = c.p1; _ = c.p2; _ = c.p3; _ = c.p4
      end
      prev = c
    end
  end
  for i = 1, layers do cells[i] = {} end
  compute()
  local last = cells[layers]
  local before = { last.p1, last.p2, last.p3, last.p4 }
  local flip = false
  local time = measure(quick and 5 or 15, function()
    flip = not flip
    if flip then source.p1, source.p2, source.p3, source.p4 = 4, 3, 2, 1
    else source.p1, source.p2, source.p3, source.p4 = 1, 2, 3, 4 end
    compute()
  end)
  source.p1, source.p2, source.p3, source.p4 = 4, 3, 2, 1
  compute()
  return time, before, { last.p1, last.p2, last.p3, last.p4 }
end

local function cellx_lunette(layers, observe)
  local source = Source()
  local prev, cells = source, {}
  for i = 1, layers do
    prev = Layer { prev = prev }
    cells[i] = prev
  end
  local last = cells[layers]
  local seen = {}
  local effects = {}
  if observe == "all" then
    for i = 1, layers do
      local c = cells[i]
      effects[#effects + 1] = ui.effect(function() local _ = c.p1 end)
      effects[#effects + 1] = ui.effect(function() local _ = c.p2 end)
      effects[#effects + 1] = ui.effect(function() local _ = c.p3 end)
      effects[#effects + 1] = ui.effect(function() local _ = c.p4 end)
    end
  end
  effects[#effects + 1] = ui.effect(function() seen = { last.p1, last.p2, last.p3, last.p4 } end)
  local before = seen
  local flip = false
  local time = measure(quick and 5 or 15, function()
    flip = not flip
    if flip then source.p1, source.p2, source.p3, source.p4 = 4, 3, 2, 1
    else source.p1, source.p2, source.p3, source.p4 = 1, 2, 3, 4 end
    ui.flush()
  end)
  source.p1, source.p2, source.p3, source.p4 = 4, 3, 2, 1
  ui.flush()
  local after = seen
  for _, e in ipairs(effects) do e:cancel() end
  return time, before, after
end

for _, observe in ipairs { "all", "end" } do
  for _, layers in ipairs { 1000, 5000 } do
    local want = expected[layers]
    local ftime, fbefore, fafter = cellx_floor(layers, observe)
    local ltime, lbefore, lafter = cellx_lunette(layers, observe)
    local correct = same(fbefore, table.unpack(want.before)) and same(fafter, table.unpack(want.after))
      and same(lbefore, table.unpack(want.before)) and same(lafter, table.unpack(want.after))
    local id = observe == "all" and "P2" or "P2b"
    local what = ("cellx %d layers, observers on %s: update"):format(layers, observe == "all" and "every cell" or "the end layer")
    report(id, what, ltime, ftime, "<= 8x", correct and ltime / ftime <= 8,
      correct and "answers correct" or "WRONG ANSWERS")
    collectgarbage()
  end
end

-- P5 ------------------------------------------------------------------------
do
  local Book = ui.Observable("Book", { title = "Sample Book Title" })
  local Row = ui.View("Row", function(self) return ui.Text(self.book.title) end)
  local Shelf = ui.View("Shelf", function(self)
    return ui.VStack { ui.ForEach(self.books, function(book) return Row { book = book } end) }
  end)
  local sizes = quick and { 1000, 10000 } or { 1000, 10000, 100000 }
  local times, runs = {}, {}
  for _, n in ipairs(sizes) do
    local books = {}
    for i = 1, n do books[i] = Book { title = "Book " .. i } end
    local app = ui.mount(Shelf { books = books })
    local target = books[n // 2]
    local before = app:renders("Row")
    local changes = 1000
    times[n] = measure(quick and 5 or 15, function(s)
      for k = 1, changes do
        target.title = "Changed " .. s .. "." .. k
        ui.flush()
      end
    end) / changes
    runs[n] = (app:renders("Row") - before) / ((quick and 6 or 16) * changes)
    app:unmount()
    books = nil
    collectgarbage()
  end
  local small, big = sizes[1], sizes[#sizes]
  for _, n in ipairs(sizes) do
    report("P5", ("%d mounted rows, one title changed, flush"):format(n), times[n], times[small],
      n == small and "1 run" or "<= 1.5x", runs[n] == 1 and (times[n] / times[small] <= 1.5),
      ("%.2f body runs per change"):format(runs[n]))
  end
end

-- F04: a plain table stored into a property is copied (a value, as a Swift
-- array is). The floor is the same copy written in plain Lua.
do
  local N = quick and 20000 or 100000
  local Shelf = ui.Observable("BenchShelf", { items = {} })
  local shelf, plain = Shelf(), {}
  local items = {}
  for i = 1, 20 do items[i] = "item " .. i end
  local stored = measure(quick and 3 or 7, function()
    for _ = 1, N do shelf.items = items end        -- equal write: also compares, then copies
  end)
  local floor = measure(quick and 3 or 7, function()
    for _ = 1, N do
      local copy = {}
      for i = 1, #items do copy[i] = items[i] end
      plain.items = copy
    end
  end)
  assert(#shelf.items == 20 and shelf.items[20] == "item 20")
  report("F04", "store a 20-element table into a property (copied)", stored / N, floor / N, "<= 3x",
    stored / floor <= 3)
end
