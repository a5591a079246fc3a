-- snapshots.lua — assert.matches_snapshot's file format and diff, shared by
-- `lunette test` (Sources/LunetteCLI/Lua/spec_runner.lua) and busted's support in
-- the loadable module (Sources/LuaModuleHost/Adopt.swift): require("lunette.snapshots").
-- The runners bring the file access (a store { read, write }); this is pure.
-- Snapshots (assert.matches_snapshot): a spec's tree texts, kept in
-- __snapshots__/<spec>.snap beside it, "=== <test name> <n>" over each.
-- The file is text (UTF-8, LF): a body line that begins with "=" or "\\" is
-- kept with a "\\" before it (so no text can open an entry of its own, and
-- the mark reads back unambiguously); an entry
-- whose name or text is not UTF-8 is "==~ <name>" over text in which a
-- backslash is "\\" and each byte that is no part of a character "\xNN"
-- (so a tree's bytes are kept as bytes, never replaced).
local snapshots = {}

local function lines_of(text)
  local out = {}
  for line in text:gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

local function escape(text)
  local parts, i = {}, 1
  while i <= #text do
    local n, bad = utf8.len(text, i)
    local stop = n and #text or bad - 1
    parts[#parts + 1] = text:sub(i, stop):gsub("\\", "\\\\")
    if n then break end
    parts[#parts + 1] = ("\\x%02X"):format(text:byte(bad))
    i = bad + 1
  end
  return table.concat(parts)
end

local function unescape(text)
  local parts, i = {}, 1
  while true do
    local at = text:find("\\", i, true)
    if not at then parts[#parts + 1] = text:sub(i); break end
    parts[#parts + 1] = text:sub(i, at - 1)
    local hex = text:match("^x(%x%x)", at + 1)
    if text:sub(at + 1, at + 1) == "\\" then parts[#parts + 1] = "\\"; i = at + 2
    elseif hex then parts[#parts + 1] = string.char(tonumber(hex, 16)); i = at + 4
    else error("the snapshot file has a \\ that is neither \\\\ nor \\xNN in a ==~ entry", 0) end
  end
  return table.concat(parts)
end

-- The first line of every snapshot file.
local HEADER = "-- Lunette snapshots (assert.matches_snapshot); `lunette test --update-snapshots` rewrites them"

-- Parses a snapshot file: its entries (key -> text), their order, and the
-- lines before the first entry but the header (a note a person wrote there
-- is kept when the file is rewritten; it was dropped). Two entries with one
-- name are an error (the last one won, silently).
function snapshots.parse(text)
  local entries, order, key, body, escaped, preamble = {}, {}, nil, nil, false, {}
  local function close()
    if not key then return end
    while #body > 0 and body[#body] == "" do body[#body] = nil end
    local value = table.concat(body, "\n") .. "\n"
    if escaped then key, value = unescape(key), unescape(value) end
    if entries[key] ~= nil then
      error(("the file has two entries named %q: keep one (delete the other)"):format(key), 0)
    end
    order[#order + 1] = key
    entries[key] = value
  end
  for _, line in ipairs(lines_of(text .. "\n")) do
    local mark, name = line:match("^(==[=~]) (.*)$")
    if mark then
      if name:sub(-1) == "\r" then
        error("the snapshot file's lines end in CR LF (a checkout converted it?): keep it LF "
          .. "(.gitattributes: *.snap -text)", 0)
      end
      close(); key, body, escaped = name, {}, mark == "==~"
    elseif key then
      body[#body + 1] = line:find("^\\") and line:sub(2) or line
    elseif line ~= HEADER then
      preamble[#preamble + 1] = line
    end
  end
  close()
  while #preamble > 0 and preamble[#preamble] == "" do preamble[#preamble] = nil end
  return entries, order, preamble
end

function snapshots.render(entries, order, preamble)
  local out = { HEADER }
  for _, line in ipairs(preamble or {}) do out[#out + 1] = line end
  for _, key in ipairs(order) do
    local text = entries[key]
    local plain = utf8.len(key) and utf8.len(text)
    out[#out + 1] = (plain and "=== " or "==~ ") .. (plain and key or escape(key))
    if not plain then text = escape(text) end
    out[#out + 1] = (text:gsub("\n([=\\])", "\n\\%1"):gsub("^([=\\])", "\\%1"))
  end
  return table.concat(out, "\n")
end

-- A line diff: "  " kept, "- " in the snapshot only, "+ " now only; the
-- lines both share at the ends are set aside first (a large tree with one
-- change costs what the change costs), the middle is matched by longest
-- common subsequence, and a run of more than 2 * CONTEXT kept lines shows
-- only CONTEXT at each end: the changes of a 20,000-line tree are shown,
-- not cut off behind its first lines.
local CONTEXT = 3
function snapshots.diff(expected, actual)
  local a, b = lines_of(expected), lines_of(actual)
  local first, lastA, lastB = 1, #a, #b
  while first <= lastA and first <= lastB and a[first] == b[first] do first = first + 1 end
  while lastA >= first and lastB >= first and a[lastA] == b[lastB] do lastA, lastB = lastA - 1, lastB - 1 end
  local ops = {}                                 -- { mark, line }, in order
  for k = 1, first - 1 do ops[#ops + 1] = { " ", a[k] } end
  local n, m = lastA - first + 1, lastB - first + 1
  if n * m > 1000000 then                        -- too large to match whole: line by line, each side
    local at = { {}, {} }                        -- looking for the other's line ahead of it (a change of the
    for k = lastA, first, -1 do                  -- first and the last of 20,000 lines showed 20,000 "-"
      local list = at[1][a[k]] or {}; at[1][a[k]] = list; list[#list + 1] = k   -- lines, then "+")
    end
    for k = lastB, first, -1 do
      local list = at[2][b[k]] or {}; at[2][b[k]] = list; list[#list + 1] = k
    end
    -- The first place past `after` where line stands on side `side` (lists run downward).
    local function next_at(side, line, after)
      local list = at[side][line]
      while list and #list > 0 and list[#list] <= after do list[#list] = nil end
      return list and list[#list]
    end
    local i, j = first, first
    while i <= lastA or j <= lastB do
      if i <= lastA and j <= lastB and a[i] == b[j] then
        ops[#ops + 1] = { " ", a[i] }; i, j = i + 1, j + 1
      else
        local inB = i <= lastA and next_at(2, a[i], j - 1)   -- where a[i] comes in b
        local inA = j <= lastB and next_at(1, b[j], i - 1)   -- where b[j] comes in a
        local ahead, behind = inB and inB - j, inA and inA - i
        if ahead and (not behind or ahead <= behind) then
          for k = j, inB - 1 do ops[#ops + 1] = { "+", b[k] } end
          j = inB
        elseif behind then
          for k = i, inA - 1 do ops[#ops + 1] = { "-", a[k] } end
          i = inA
        else
          if i <= lastA then ops[#ops + 1] = { "-", a[i] }; i = i + 1 end
          if j <= lastB then ops[#ops + 1] = { "+", b[j] }; j = j + 1 end
        end
      end
    end
  else
    local common = {}
    for i = n + 1, 1, -1 do
      local row, below = {}, common[i + 1]
      for j = m + 1, 1, -1 do
        if i > n or j > m then row[j] = 0
        elseif a[first + i - 1] == b[first + j - 1] then row[j] = below[j + 1] + 1
        else row[j] = math.max(below[j], row[j + 1]) end
      end
      common[i] = row
    end
    local i, j = 1, 1
    while i <= n or j <= m do
      local x, y = a[first + i - 1], b[first + j - 1]
      if i <= n and j <= m and x == y then
        ops[#ops + 1] = { " ", x }; i, j = i + 1, j + 1
      elseif i <= n and (j > m or common[i + 1][j] >= common[i][j + 1]) then
        ops[#ops + 1] = { "-", x }; i = i + 1
      else
        ops[#ops + 1] = { "+", y }; j = j + 1
      end
    end
  end
  for k = lastA + 1, #a do ops[#ops + 1] = { " ", a[k] } end
  local out, k = {}, 1
  while k <= #ops do
    if ops[k][1] ~= " " then
      out[#out + 1] = ops[k][1] .. " " .. ops[k][2]; k = k + 1
    else
      local stop = k
      while stop + 1 <= #ops and ops[stop + 1][1] == " " do stop = stop + 1 end
      local keepHead = k == 1 and 0 or CONTEXT          -- after a change
      local keepTail = stop == #ops and 0 or CONTEXT    -- before one
      if stop - k + 1 <= keepHead + keepTail + 1 then
        for q = k, stop do out[#out + 1] = "  " .. ops[q][2] end
      else
        for q = k, k + keepHead - 1 do out[#out + 1] = "  " .. ops[q][2] end
        out[#out + 1] = ("  … (%d lines the same)"):format(stop - k + 1 - keepHead - keepTail)
        for q = stop - keepTail + 1, stop do out[#out + 1] = "  " .. ops[q][2] end
      end
      k = stop + 1
    end
  end
  return table.concat(out, "\n")
end

-- The text a snapshot keeps: an app's or a node's tree, or a string; one newline at the end.
function snapshots.text(value)
  local text = value
  if type(value) ~= "string" then
    local ok, tree = pcall(function() return value:tree() end)
    if not ok or type(tree) ~= "string" then
      error("assert.matches_snapshot: expected an app, a node or a string, got " .. type(value), 3)
    end
    text = tree
  end
  return (text:gsub("\n*$", "")) .. "\n"
end

-- A key's part on one line, one way back: \ as \\, line breaks as \n
-- and \r, and in the test's name a colon as \: (so the ": " of a named
-- snapshot is never part of it).
local function key_part(text, colon)
  text = text:gsub("\\", "\\\\"):gsub("\n", "\\n"):gsub("\r", "\\r")
  if colon then text = text:gsub(":", "\\:") end
  return text
end

-- The key of a snapshot: "<full test name> <n>" (the n-th unnamed one of
-- the test) or "<full test name>: <name>". Two different snapshots never
-- share one: test "a\nb" and test "a<line break>b", or test "k:"'s first
-- and test "k"'s snapshot "1", were one key ("two tests with one name",
-- and under --filter one was compared with the other's text).
-- The second result is the key an earlier Lunette gave it, when it differs
-- (a test name with ':' or '\\'): snapshots.check finds an entry kept under
-- it and moves it to the new key, rather than writing a new one and
-- passing whatever the tree is now.
function snapshots.key(test, name, count)
  if name ~= nil and type(name) ~= "string" and math.type(name) ~= "integer" then
    error("assert.matches_snapshot: a snapshot's name is a string or an integer, got " .. type(name), 3)
  end
  local key, legacy
  if name ~= nil then
    key = key_part(test, true) .. ": " .. key_part(tostring(name), false)
    legacy = test .. ": " .. tostring(name)
  else
    key = key_part(test, true) .. " " .. count
    legacy = test .. " " .. count
  end
  legacy = legacy:gsub("\n", "\\n"):gsub("\r", "\\r")
  return key, legacy ~= key and legacy or nil
end

-- Compares text with the snapshot of key in store ({ read = fn, write = fn }):
-- a missing one is written, an old one rewritten when update; else true or
-- false and a message with the diff.
function snapshots.check(store, key, text, update, legacy)
  if not store.entries then
    local ok, entries, order, preamble = pcall(function() return snapshots.parse(store.read() or "") end)
    if not ok then return false, ("%s: %s"):format(store.name and store.name() or "the snapshot file", tostring(entries)) end
    store.entries, store.order, store.preamble = entries, order, preamble
  end
  store.seen = store.seen or {}
  if store.seen[key] then                        -- else each would take the other's text, run after run
    return false, ("two snapshots of this run are named %q (two tests with one name, or one name given twice):"
      .. " give each its own name"):format(key)
  end
  store.seen[key] = true
  if store.entries[key] == nil and legacy and store.entries[legacy] ~= nil and not store.seen[legacy] then
    store.entries[key], store.entries[legacy] = store.entries[legacy], nil   -- kept under its old key: moved
    for i, k in ipairs(store.order) do if k == legacy then store.order[i] = key end end
    store.write(snapshots.render(store.entries, store.order, store.preamble))
  end
  local expected = store.entries[key]
  if expected == text then return true end
  if expected == nil or update then
    if expected == nil then store.order[#store.order + 1] = key end
    store.entries[key] = text
    store.write(snapshots.render(store.entries, store.order, store.preamble))
    return true
  end
  return false, ("the tree does not match its snapshot %q (- snapshot, + now; `lunette test --update-snapshots`"
    .. " or LUNETTE_UPDATE_SNAPSHOTS=1 under busted takes the new one):\n%s"):format(key, snapshots.diff(expected, text))
end

return snapshots
