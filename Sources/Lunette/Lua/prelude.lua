-- prelude.lua — the parts of `ui` written in Lua, on top of the C module:
-- what composes existing pieces (effects, subjects, tasks) and needs no new
-- machinery. Run once by the runtime right after the module is installed.
local ui = require("lunette")

-- ui.observations(fn) -> sequence (T01, D04: SE-0475's Observations).
-- Inside a task, `for value in ui.observations(function() return book.title end) do`
-- (or over a sequence kept in a variable, by any number of loops):
--   * fn first runs at the first iteration of the first loop, not when the
--     sequence is made; it then runs again after every flush in which what
--     it read changed, and each such run gives every loop a value, equal to
--     the last or not (several writes in one flush give one value);
--   * there is no buffer: a loop that is slower than the changes gets the
--     value current at its next iteration;
--   * an error raised by fn ends every loop with that error (the task fails
--     and it is reported); the sequence is then finished;
--   * a cancelled task's loop ends normally: the code after it runs.
-- A nil value ends a loop, as for any Lua iterator. The shared run of fn (an
-- effect) stops when no loop is left.
local Observations = { __name = "lunette.Observations" }

-- Starts the effect that runs fn and tells the loops, once.
local function observe(seq)
  if seq.effect then return end
  seq.effect = ui.effect(function()
    local ok, value = pcall(seq.fn)
    for co in pairs(seq.loops) do                 -- loops whose task is gone leave
      if coroutine.status(co) == "dead" then seq.loops[co] = nil end
    end
    seq.version = seq.version + 1
    if ok then seq.value = value else seq.failure = value end
    seq.subject:send(true)
  end)
end

-- The loop of coroutine co ends; the effect stops with the last one.
local function leave(seq, co)
  seq.loops[co] = nil
  if next(seq.loops) == nil and seq.effect then
    seq.effect:cancel()
    seq.effect = nil
  end
end

-- Raises the failure fn raised, ending the loop of co with it.
local function fail(seq, co)
  leave(seq, co)
  error(seq.failure, 0)
end

-- The iterator: (seq, _, control) -> the next value. A loop starts with a
-- nil control: its first value is the one current now.
function Observations.__call(seq, _, control)
  local co = coroutine.running()
  local loop = seq.loops[co]
  if control == nil or loop == nil then
    loop = {}
    seq.loops[co] = loop
    observe(seq)
    if seq.failure ~= nil then fail(seq, co) end
    loop.seen = seq.version
    return seq.value
  end
  while seq.version == loop.seen do
    local ok, err = pcall(ui.await, seq.subject)
    if not ok then
      leave(seq, co)
      if rawequal(err, ui.CancellationError) or ui.isCancelled() then return nil end   -- the loop ends normally
      error(err, 0)
    end
  end
  if seq.failure ~= nil then fail(seq, co) end
  loop.seen = seq.version
  return seq.value
end

function ui.observations(fn)
  if type(fn) ~= "function" then
    error(("ui.observations: a function expected, got %s"):format(type(fn)), 2)
  end
  local seq = setmetatable({ fn = fn, subject = ui.Subject(), version = 0, loops = setmetatable({}, { __mode = "k" }) },
    Observations)
  -- `for v in ui.observations(fn) do`: the loop's end (a break too) lets the sequence go
  local closer = setmetatable({}, { __close = function() leave(seq, coroutine.running()) end })
  return seq, nil, nil, closer
end

-- ui.ForEach(self["$items"], function(item) ... end) (T07, ForEach($items)):
-- each row gets a Binding to its element, so a row edits the list in place.
-- Rows are identified as SwiftUI's ForEach($items) identifies them, by the
-- element's id (ID = Element.ID, D02): deleting or moving an element keeps
-- every other row's state with its element. An element without an id (a
-- plain value) is identified by its position.
local plainForEach = ui.ForEach
local function elementId(element, i)
  local kind = type(element)
  if kind == "table" or kind == "userdata" then
    local ok, id = pcall(function() return element.id end)   -- a model without `id` raises: its identity, then
    if ok and id ~= nil then return id end
    if not ok then return element end
  end
  return i
end
function ui.ForEach(data, row, ...)
  if getmetatable(data) == "lunette.Binding" and type(row) == "function" then
    local items = data:get()
    if type(items) ~= "table" and getmetatable(items) ~= "lunette.Tracked" then
      error(("ui.ForEach: the binding must hold a list, it holds %s"):format(type(items)), 2)
    end
    local rows = {}
    for i = 1, #items do rows[i] = { id = elementId(items[i], i), index = i } end
    return plainForEach(rows, function(r) return row(data[r.index], r.index) end, ...)
  end
  return plainForEach(data, row, ...)
end

-- Navigation (T07): ui.NavigationStack(self["$path"], { ... }, destination),
-- ui.NavigationStack{ ... }, ui.NavigationLink(label, destination), as
-- NavigationStack(path:) and NavigationLink. The stack shows its content,
-- then one screen per element of its path; a link appends its destination
-- to the path of the nearest stack (an environment value the stack gives
-- its content), and a pushed screen's `dismiss` pops it and what is above
-- it. An element is a view (a link's destination, or a function's result
-- at the tap) or a value the stack's destination function turns into a
-- view, as navigationDestination(for:) does. A stack without a path
-- binding keeps its own, in its state.
local navigationPath = ui.Entry("lunette.navigationPath", false)
-- A pushed screen's content sees its dismiss, and isPresented = true (both
-- read-only to scripts): the runtime's private way to set them, taken once.
local presented = ui._presented
ui._presented = nil

local function isView(v) return getmetatable(v) == "lunette.View" or getmetatable(v) == "lunette.ViewType" end

local function screenFor(stack, element, index)
  if isView(element) then return element end
  local destination = stack.destination
  if destination then return destination(element) end
  error(("NavigationStack: element %d of the path is a %s, and the stack has no destination for values " ..
         "(ui.NavigationStack(path, { ... }, function(value) return SomeView { value = value } end))")
        :format(index, type(element)), 0)
end

-- Gives a content view the stack's path once: a view value keeps what its
-- modifiers add, and the stack may render again with the same content.
local given = setmetatable({}, { __mode = "k" })
local function withPath(v, path)
  if getmetatable(v) == "lunette.ViewType" then v = v() end
  if getmetatable(v) == "lunette.View" then
    if not given[v] then given[v] = true; v:environment(navigationPath, path) end
    return v
  end
  if type(v) == "table" and getmetatable(v) == nil then
    local list = {}
    for i = 1, #v do list[i] = withPath(v[i], path) end
    return list
  end
  return v
end

local Stack = ui.View("NavigationStack", { state = { own = {} }, body = function(self)
  local path = self.path or self["$own"]
  local screens, content = {}, self.content
  for i = 1, #content do screens[i] = withPath(content[i], path) end
  local list = path:get()
  for i = 1, #list do
    local depth = i
    local function pop()
      local kept = {}
      for j = 1, depth - 1 do kept[j] = path:get()[j] end
      path:set(kept)
    end
    screens[#screens + 1] = presented(ui.Group { withPath(screenFor(self, list[i], i), path) }, pop)
  end
  return screens
end })

function ui.NavigationStack(path, content, destination)
  if getmetatable(path) ~= "lunette.Binding" then path, content, destination = nil, path, content end
  if type(content) ~= "table" or getmetatable(content) ~= nil then
    error(("ui.NavigationStack: a list of views expected%s, got %s")
          :format(path and " after the path" or "", getmetatable(content) or type(content)), 2)
  end
  if destination ~= nil and type(destination) ~= "function" then
    error(("ui.NavigationStack: the destination must be a function(value) returning a view, got %s")
          :format(type(destination)), 2)
  end
  return Stack { path = path, content = content, destination = destination }
end

local Link = ui.View("NavigationLink", { environment = { path = navigationPath }, body = function(self)
  return ui.Button(self.label, function()
    local path = self.path
    if not path then
      error(("NavigationLink '%s' is not inside a NavigationStack"):format(self.label), 0)
    end
    local list, destination = {}, self.destination
    for i = 1, #path:get() do list[i] = path:get()[i] end
    if type(destination) == "function" then destination = destination() end
    list[#list + 1] = destination
    path:set(list)
  end)
end })

function ui.NavigationLink(label, destination)
  if type(label) ~= "string" then
    error(("ui.NavigationLink: a label string expected, got %s"):format(type(label)), 2)
  end
  if destination == nil then
    error("ui.NavigationLink: a destination expected (a view, a function returning one, or a value for the " ..
          "stack's destination)", 2)
  end
  return Link { label = label, destination = destination }
end
