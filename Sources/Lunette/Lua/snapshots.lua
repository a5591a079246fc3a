-- snapshots.lua — assert.matches_snapshot's file format and diff, shared by
-- `lunette test` (Sources/LunetteCLI/Lua/spec_runner.lua) and busted's support in
-- the loadable module (Sources/LuaModuleHost/Adopt.swift): require("lunette.snapshots").
-- The runners bring the file access (a store { read, write }); this is pure.
-- Snapshots (assert.matches_snapshot): a spec's tree texts, kept in
-- __snapshots__/<spec>.snap beside it, "=== <test name> <n>" over each.
local snapshots = {}

local function lines_of(text)
  local out = {}
  for line in text:gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

function snapshots.parse(text)
  local entries, order, key, body = {}, {}, nil, nil
  local function close()
    if not key then return end
    while #body > 0 and body[#body] == "" do body[#body] = nil end
    if entries[key] == nil then order[#order + 1] = key end
    entries[key] = table.concat(body, "\n") .. "\n"
  end
  for _, line in ipairs(lines_of(text .. "\n")) do
    local name = line:match("^=== (.*)$")
    if name then close(); key, body = name, {} elseif key then body[#body + 1] = line end
  end
  close()
  return entries, order
end

function snapshots.render(entries, order)
  local out = { "-- Lunette snapshots (assert.matches_snapshot); `lunette test --update-snapshots` rewrites them" }
  for _, key in ipairs(order) do
    out[#out + 1] = "=== " .. key
    out[#out + 1] = entries[key]
  end
  return table.concat(out, "\n")
end

-- A line diff (longest common subsequence): "  " kept, "- " in the snapshot only, "+ " now only.
function snapshots.diff(expected, actual)
  local a, b = lines_of(expected), lines_of(actual)
  local n, m = #a, #b
  if n * m > 1000000 then return "- " .. table.concat(a, "\n- ") .. "\n+ " .. table.concat(b, "\n+ ") end
  local common = {}
  for i = n + 1, 1, -1 do
    local row, below = {}, common[i + 1]
    for j = m + 1, 1, -1 do
      if i > n or j > m then row[j] = 0
      elseif a[i] == b[j] then row[j] = below[j + 1] + 1
      else row[j] = math.max(below[j], row[j + 1]) end
    end
    common[i] = row
  end
  local out, i, j = {}, 1, 1
  while i <= n or j <= m do
    if i <= n and j <= m and a[i] == b[j] then
      out[#out + 1] = "  " .. a[i]; i, j = i + 1, j + 1
    elseif i <= n and (j > m or common[i + 1][j] >= common[i][j + 1]) then
      out[#out + 1] = "- " .. a[i]; i = i + 1
    else
      out[#out + 1] = "+ " .. b[j]; j = j + 1
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

-- The key of a snapshot: "<full test name> <n>" (the n-th unnamed one of
-- the test) or "<full test name>: <name>".
function snapshots.key(test, name, count)
  local key = name ~= nil and (test .. ": " .. tostring(name)) or (test .. " " .. count)
  return (key:gsub("\n", "\\n"))
end

-- Compares text with the snapshot of key in store ({ read = fn, write = fn }):
-- a missing one is written, an old one rewritten when update; else true or
-- false and a message with the diff.
function snapshots.check(store, key, text, update)
  if not store.entries then store.entries, store.order = snapshots.parse(store.read() or "") end
  local expected = store.entries[key]
  if expected == text then return true end
  if expected == nil or update then
    if expected == nil then store.order[#store.order + 1] = key end
    store.entries[key] = text
    store.write(snapshots.render(store.entries, store.order))
    return true
  end
  return false, ("the tree does not match its snapshot %q (- snapshot, + now; `lunette test --update-snapshots`"
    .. " or LUNETTE_UPDATE_SNAPSHOTS=1 under busted takes the new one):\n%s"):format(key, snapshots.diff(expected, text))
end

return snapshots
