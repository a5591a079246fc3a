-- Tests/Patterns/differential.lua SEED COUNT: prints the answers of string.find,
-- match, gmatch and gsub on COUNT generated subjects, patterns, starts and
-- replacements, one line a case. The stock interpreter and `lunette run`
-- (whose four are Lunette's, under the budget) must print the same
-- (SafetyCommandLineTests.testPatternMatchingAnswersAsLuasOwn).
local seed, count = tonumber(arg[1]), tonumber(arg[2])
local state = seed
local function rnd(n) state = (state * 1103515245 + 12345) % 2147483648; return state % n + 1 end
local byte, char, concat = string.byte, string.char, table.concat
local function show(v)
  if type(v) ~= "string" then return tostring(v) end
  local out = {}
  for i = 1, #v do
    local b = byte(v, i)
    out[#out + 1] = (b >= 32 and b < 127 and b ~= 92) and char(b) or ("\\" .. b)
  end
  return '"' .. concat(out) .. '"'
end
local function pack(ok, ...)
  local n = select("#", ...)
  local t = { ok and "ok" or "err" }
  for i = 1, n do
    local v = select(i, ...)
    if not ok and type(v) == "string" then v = v:sub(1, 0) .. tostring(v) end
    t[#t + 1] = show(v)
  end
  return concat(t, " ")
end
local alphabet = { "a", "b", "c", "(", ")", "%", ".", "[", "]", "^", "$", "*", "+", "-", "?", "1", " ", "x", "\0", "\n", "%a", "%d", "%s", "%z", "%Z", "%P", "%x", "%c", "%u", "%l", "%g", "%w", "%b()", "%f[%w]", "[a-c]", "[^ab]", "%1", "()", "%%", "%.", "[%a_]" }
local subjects = { "a", "b", "c", "(", ")", "1", " ", "x", "\0", "%", "ab", "abc", "((a))", "a.b", "x1y2", "\n", "A", "Z" }
local function pattern()
  local t = {}
  for _ = 1, rnd(6) - 1 do t[#t + 1] = alphabet[rnd(#alphabet)] end
  return concat(t)
end
local function subject()
  local t = {}
  for _ = 1, rnd(8) - 1 do t[#t + 1] = subjects[rnd(#subjects)] end
  return concat(t)
end
local repls = { "%0", "%1", "<%1>", "%%", "x", "%2", "%", "", function(a, b) return b or a end, { a = "A", b = false }, 7 }
for i = 1, count do
  local s, p = subject(), pattern()
  local init = ({ nil, 1, 2, -1, -3, 0, 100 })[rnd(7)]
  local line = {}
  line[#line + 1] = pack(pcall(string.find, s, p, init))
  line[#line + 1] = pack(pcall(string.find, s, p, init, true))
  line[#line + 1] = pack(pcall(string.match, s, p, init))
  local ok, it = pcall(string.gmatch, s, p, init)
  if ok then
    local got, n = {}, 0
    local ok2, err = pcall(function()
      for a, b in it do n = n + 1; got[#got + 1] = show(a) .. "/" .. show(b); if n > 50 then break end end
    end)
    line[#line + 1] = (ok2 and "ok " or "err " .. show(err) .. " ") .. concat(got, ",")
  else line[#line + 1] = "err " .. show(it) end
  local r = repls[rnd(#repls)]
  line[#line + 1] = pack(pcall(string.gsub, s, p, r, ({ nil, 1, 2 })[rnd(3)]))
  print(i, show(s), show(p), concat(line, " | "))
end
