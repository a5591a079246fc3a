-- prelude.lua — the parts of `ui` written in Lua, on top of the C module:
-- what composes existing pieces (effects, subjects, tasks) and needs no new
-- machinery. Run once by the runtime right after the module is installed.
local ui = require("lunette")

-- ui.observations(fn) -> iterator (T01, SE-0475's Observations): inside a
-- task, `for value in ui.observations(function() return book.title end) do`
-- yields fn's value now and after every flush in which it changed (several
-- writes in one flush give one value); the loop ends when the task is
-- cancelled (its wait raises ui.CancellationError) and its effect ends with
-- the loop. A nil value ends the loop, as for any Lua iterator.
function ui.observations(fn)
  if type(fn) ~= "function" then
    error(("ui.observations: a function expected, got %s"):format(type(fn)), 2)
  end
  local subject, waiting, last, seen = ui.Subject(), {}, nil, false
  local effect = ui.effect(function()
    local value = fn()
    if seen and value == last then return end
    seen, last = true, value
    waiting[#waiting + 1] = value
    subject:send(true)
  end)
  local function next_value()
    while #waiting == 0 do ui.await(subject) end
    return table.remove(waiting, 1)
  end
  local closer = setmetatable({}, { __close = function() effect:cancel() end })
  return next_value, nil, nil, closer
end

-- ui.ForEach(self["$items"], function(item) ... end) (T07, ForEach($items)):
-- each row gets a Binding to its element, so a row edits the list in place
-- (items keep their identity by position, as ForEach over indices does).
local plainForEach = ui.ForEach
function ui.ForEach(data, row, ...)
  if getmetatable(data) == "lunette.Binding" and type(row) == "function" then
    local items = data:get()
    if type(items) ~= "table" and getmetatable(items) ~= "lunette.Tracked" then
      error(("ui.ForEach: the binding must hold a list, it holds %s"):format(type(items)), 2)
    end
    local positions = {}
    for i = 1, #items do positions[i] = i end
    return plainForEach(positions, function(i) return row(data[i], i) end, ...)
  end
  return plainForEach(data, row, ...)
end
