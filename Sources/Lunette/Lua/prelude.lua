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
