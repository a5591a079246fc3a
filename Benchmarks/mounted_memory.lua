-- P6's memory (TARGETS.md: ≤ 1 KiB a mounted view, Lua and Swift heaps
-- together), run by scripts/bench in a process of its own: in the long
-- benchmark run, pages freed by earlier cases are used again and the
-- resident size hardly grows. The view values are built before the first
-- measure (they are the caller's); what mounting them adds is the
-- runtime's: Lua's heap (records, selves, out tables) and the rest of the
-- process's (Swift's units and their keys, the records of their output,
-- the C graph), read as resident growth.
local ui = require("lunette")
local n = 20000
local function rss()
  local f = io.open("/proc/self/status")
  if not f then return 0 end
  local kib = f:read("a"):match("VmRSS:%s*(%d+)")
  f:close()
  return tonumber(kib) or 0
end
local Item = ui.View("BenchItem", function(self) return ui.Text(self.label) end)
local rows = {}
for i = 1, n do rows[i] = Item { label = "item " .. i } end
collectgarbage()
collectgarbage()
local resident, lua = rss(), collectgarbage("count")
local app = ui.mount(ui.VStack(rows))
collectgarbage()
collectgarbage()
local perView = (rss() - resident) * 1024 / n
local luaPerView = (collectgarbage("count") - lua) * 1024 / n
assert(app:find("item " .. n))
app:unmount()
print(("%-4s %-52s %8.0f B   target <= 1024 B  %s  (Lua's heap %.0f B of it; resident growth in a process of its own, %d views)")
  :format("P6", "memory per mounted one-Text view", perView, perView <= 1024 and "ok" or "MISSED", luaPerView, n))
