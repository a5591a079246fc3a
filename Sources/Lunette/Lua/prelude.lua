-- prelude.lua — the parts of `ui` written in Lua, on top of the C module:
-- what composes existing pieces (effects, subjects, tasks) and needs no new
-- machinery. Run once by the runtime right after the module is installed.
local ui = require("lunette")

-- The functions the prelude calls, as they were when it loaded (before any
-- script ran): a script that replaces a global (`pairs = …`, `table.concat
-- = …`) changes what its own code does, never what the runtime's does.
local error, getmetatable, next, pairs, pcall, rawequal, rawget, select, setmetatable, tostring, type =
  error, getmetatable, next, pairs, pcall, rawequal, rawget, select, setmetatable, tostring, type
local running, status, concat, mathtype = coroutine.running, coroutine.status, table.concat, math.type

-- ui.observations(fn) -> sequence (T01, D04: SE-0475's Observations).
-- Inside a task, `for value in ui.observations(function() return book.title end) do`
-- (or over a sequence kept in a variable, by any number of loops):
--   * fn first runs at the first iteration of the first loop, not when the
--     sequence is made; it then runs again after every flush in which what
--     it read changed, and each such run gives every loop a value, equal to
--     the last or not (several writes in one flush give one value);
--   * there is no buffer: a loop that is slower than the changes gets the
--     value current at its next iteration;
--   * a nil value is a value: it arrives as ui.none (Lua's for-in would end
--     at a nil), and the loop goes on;
--   * an error raised by fn ends every loop iterating then with that error
--     (the task fails and it is reported);
--   * ui.observations.untilFinished(fn): fn returns ui.observations.finished
--     (SE-0475's `.finished`) to end every loop normally;
--   * a finished sequence (an error, or .finished) stays finished: a new
--     loop over it ends at once, with no value, and fn runs no more;
--   * a cancelled task's loop ends normally (the code after it runs), and
--     only that loop: the sequence goes on for the others; a loop begun in
--     a task already cancelled ends at once ("if the task is cancelled then
--     the iterator will return nil", SE-0475);
--   * each loop's first value is fn's value when it begins (SE-0475 "primes
--     the pump" at the first call to next): a loop joining a sequence
--     others iterate first lets a change not yet flushed reach fn.
-- The shared run of fn (an effect) stops when no loop is left.
local Observations = { __name = "lunette.Observations" }

-- SE-0475's Iteration.finished: what an untilFinished closure returns to end.
local Finished = setmetatable({}, {
  __name = "lunette.ObservationsFinished",
  __tostring = function() return "ui.observations.finished" end,
  __newindex = function() error("ui.observations.finished cannot be changed", 2) end,
  __metatable = false,
})

-- Starts the effect that runs fn and tells the loops, once.
local function observe(seq)
  if seq.effect then return end
  seq.effect = ui.effect(function()
    if seq.finished then return end               -- terminal: fn runs no more (and reads nothing)
    local ok, value = pcall(seq.fn)
    for co in pairs(seq.loops) do                 -- loops whose task is gone leave
      if status(co) == "dead" then seq.loops[co] = nil end
    end
    seq.version = seq.version + 1
    if not ok then
      seq.failure, seq.finished = value, true
    elseif seq.untilFinished and rawequal(value, Finished) then
      seq.finished = true
    else
      seq.value = value
    end
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

-- The sequence finished while the loop of co was iterating: it ends, with
-- the error fn raised, or normally (.finished).
local function finish(seq, co)
  leave(seq, co)
  if seq.failure ~= nil then error(seq.failure, 0) end
  return nil
end

-- The value a loop gets: nil as ui.none, so that the loop goes on.
local function current(seq, loop)
  loop.seen = seq.version
  if seq.value == nil then return ui.none end
  return seq.value
end

-- The iterator: (seq, _, control) -> the next value. A loop starts with a
-- nil control: its first value is the one current now.
function Observations.__call(seq, _, control)
  local co = running()
  local loop = seq.loops[co]
  if control == nil or loop == nil then
    if seq.finished or ui.isCancelled() then      -- terminal already, or its task cancelled: ends at once,
      leave(seq, co)                              -- no value, no error
      return nil
    end
    if seq.effect then                            -- others iterate: what changed since fn ran reaches it
      local ok, err = pcall(ui.flush)
      if not ok and not (type(err) == "string" and err:find("ui%.flush cannot be called")) then error(err, 0) end
    end
    loop = {}
    seq.loops[co] = loop
    observe(seq)
    if seq.finished then return finish(seq, co) end
    return current(seq, loop)
  end
  while seq.version == loop.seen do
    local ok, err = pcall(ui.await, seq.subject)
    if not ok then
      leave(seq, co)
      if rawequal(err, ui.CancellationError) or ui.isCancelled() then return nil end   -- the loop ends normally
      if type(err) == "string" and err:find("^%(lunette prelude%):%d+: ui%.await can only be called in a task") then
        error("ui.observations: a loop over it waits for changes, so it runs in a task (:task(fn)); "
              .. "it gave the value current now, and cannot wait here", 2)            -- the loop's line
      end
      error(err, 0)
    end
  end
  if seq.finished then return finish(seq, co) end
  return current(seq, loop)
end

-- Raises at the caller's caller (level 3) if a call got, past its `most`
-- arguments, a value that is not nil: an argument it would not use (D10).
local function noExtra(name, most, ...)
  for i = most + 1, select("#", ...) do
    if select(i, ...) ~= nil then
      error(("%s takes %d argument%s, got a %s as argument %d"):format(name, most, most == 1 and "" or "s",
            type((select(i, ...))), i), 3)
    end
  end
end

local function sequence(fn, untilFinished, name)
  if type(fn) ~= "function" then
    error(("%s: a function expected, got %s"):format(name, type(fn)), 3)
  end
  local seq = setmetatable({ fn = fn, untilFinished = untilFinished, subject = ui.Subject(), version = 0,
                             loops = setmetatable({}, { __mode = "k" }) }, Observations)
  -- `for v in ui.observations(fn) do`: the loop's end (a break too) lets the sequence go
  local closer = setmetatable({}, { __close = function() leave(seq, running()) end })
  return seq, nil, nil, closer
end

ui.observations = setmetatable({
  finished = Finished,
  untilFinished = function(fn, ...)
    noExtra("ui.observations.untilFinished", 1, fn, ...)
    local seq, state, control, closer = sequence(fn, true, "ui.observations.untilFinished")   -- not a tail call:
    return seq, state, control, closer                                                        -- errors name the caller
  end,
}, {
  __name = "lunette.observations",
  __call = function(_, fn, ...)
    noExtra("ui.observations", 1, fn, ...)
    local seq, state, control, closer = sequence(fn, false, "ui.observations")
    return seq, state, control, closer
  end,
  __newindex = function(_, key) error(("ui.observations has no field '%s' to set"):format(tostring(key)), 2) end,
})

-- ui.ForEach(self["$items"], function(item) ... end) (T07, ForEach($items)):
-- each row gets a Binding to its element, so a row edits the list in place.
-- Rows are identified as SwiftUI's ForEach($items) identifies them, by the
-- element's id (ID = Element.ID, D02): deleting or moving an element keeps
-- every other row's state with its element, and a row's binding reaches its
-- element by that id, wherever it moved (one kept past the element's
-- removal is an error: SwiftUI's own binding is by position, and would
-- write into another element). An element without an id (a plain value) is
-- identified, and bound, by its position.
local plainForEach = ui.ForEach
local elementBinding = ui._element
ui._element = nil
-- The element's id, and whether it is its own (not its position).
local function elementId(element, i)
  local kind = type(element)
  if kind == "table" and getmetatable(element) == "lunette.View" then   -- a view value: its :id (element.id is the method)
    local id = rawget(element, "identity")
    if id ~= nil then return id, true end
    return i, false
  end
  if kind == "table" or kind == "userdata" then
    local ok, id = pcall(function() return element.id end)   -- a model without `id` raises: its identity, then
    if ok and id ~= nil then return id, true end
    if not ok then return element, true end
  end
  return i, false
end
function ui.ForEach(data, row, ...)
  -- a table is for the runtime to take or refuse (a callable one, a busted
  -- spy, is a row function too; its metatable may be protected from us)
  if type(row) ~= "function" and (type(row) ~= "table" or not pcall(plainForEach, {}, row)) then   -- the runtime's
    error(("ui.ForEach: a function(element) returning a row expected after the data, got %s"):format(type(row)), 2)
  end                                                                                           -- word on a table
  if type(data) ~= "table" and type(data) ~= "userdata" then
    error(("ui.ForEach: a list expected (a table, a model's list, or a Binding to one), got %s"):format(type(data)), 2)
  end
  if getmetatable(data) == "lunette.Binding" then
    local items = data:get()
    if type(items) ~= "table" and getmetatable(items) ~= "lunette.Tracked" then
      error(("ui.ForEach: the binding must hold a list, it holds %s"):format(type(items)), 2)
    end
    local rows = {}
    for i = 1, #items do
      local id, own = elementId(items[i], i)
      rows[i] = { id = id, index = i, own = own }
    end
    return plainForEach(rows, function(r)
      return row(r.own and elementBinding(data, r.id, r.index, elementId) or data[r.index], r.index)
    end, ...)
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
-- at the tap) or a value: a :navigationDestination(for T, fn) anywhere in
-- the stack's screens turns a value of type T into fn(value)'s screen
-- (navigationDestination(for:destination:), issue 19), else the stack's
-- destination function does. A stack without a path binding keeps its own,
-- in its state. With screens pushed, the stack shows its top screen's
-- navigationTitle (title=), as its navigation bar does.
local navigationPath = ui.Entry("lunette.navigationPath", false)
-- A pushed screen's content sees its dismiss, and isPresented = true (both
-- read-only to scripts), and the stack shows its top screen's title: the
-- runtime's private ways to do so, taken once.
local presented, attribute, reloads = ui._presented, ui._attribute, ui._reloads
ui._presented, ui._attribute, ui._reloads = nil, nil, nil

-- What the views of a stack's screens declare reaches the stack as
-- preferences: their :navigationDestination entries ({ typeKey, fn }) and
-- their navigationTitle (the first in tree order).
ui.PreferenceKey("lunette.navigationDestinations", {}, function(acc, more)
  local out = {}
  for i = 1, #acc do out[#out + 1] = acc[i] end
  for i = 1, #more do out[#out + 1] = more[i] end
  return out
end)
ui.PreferenceKey("lunette.navigationTitle", "", function(acc, more)
  if acc ~= "" then return acc end
  return tostring(more)
end)

local function isView(v) return getmetatable(v) == "lunette.View" or getmetatable(v) == "lunette.ViewType" end

-- The type a path element is matched by: a model's class or a host object's
-- type (its metatable's name), else its Lua type ("string", "table").
local function valueKey(v)
  local mt = getmetatable(v)
  if mt == "lunette.Tracked" then return "table" end   -- a table the path's state holds
  if type(mt) == "string" then return mt end
  return type(v)
end

-- Per stack (its self): what each of its screens' views declared, kept out
-- of state (functions are new each render), and what its last render
-- showed: the key of its top pushed screen (`top`), whether its path held
-- values a destination turns into screens (`valued`), and whether one
-- waited for destinations not heard yet (`waiting`). The stack renders
-- again (state `version`) only when what it shows changes: a title of its
-- top screen, destinations while values are on the path, or the first
-- destinations a waiting screen needs. Any other declaration is heard and
-- kept for when it matters, with no render (S34: a list whose root title
-- changes with what it lists renders the stack once, not twice).
local registries = setmetatable({}, { __mode = "k" })
local function registry(self)
  local r = registries[self]
  if not r then
    r = { dests = {}, keys = {}, titles = {}, heardOf = setmetatable({}, { __mode = "k" }),
          given = setmetatable({}, { __mode = "k" }), reloads = reloads() }
    registries[self] = r
  end
  return r
end

-- What was heard of view value v (its title, destinations and their key),
-- wherever it stands. [v] -> { title, dests, key }
local function heardOf(r, v)
  local h = r.heardOf[v]
  if not h then h = {}; r.heardOf[v] = h end
  return h
end

-- A view value is watched once by each stack it is in, under the screen
-- key it has there now (the stack's `given[v]`, moved with it when the
-- path shifts: withPath).
local function watch(v, self)
  v:onPreferenceChange("lunette.navigationDestinations", function(list)
    local r, keys = registry(self), {}
    local screen = r.given[v]
    for i = 1, #list do keys[i] = list[i][1] end
    local old, key, again = r.dests[screen], concat(keys, "\0"), r.waiting
    local h = heardOf(r, v)
    r.dests[screen], h.dests, h.key = list, list, key
    r.heard = true
    if r.keys[screen] ~= key then r.keys[screen] = key; again = again or r.valued end
    -- After a reload, the new code's destinations (the same types, other
    -- functions) make the screens of values on the path anew, once: a
    -- closure made again by a render is no new code (it would render the
    -- stack with every render of its content, or without end).
    if r.valued and not again and r.reloads ~= reloads() then
      r.reloads = reloads()
      for i = 1, #list do
        if not (old and old[i] and rawequal(old[i][2], list[i][2])) then again = true; break end
      end
    end
    r.waiting = false
    if again then self.version = self.version + 1 end
  end)
  v:onPreferenceChange("lunette.navigationTitle", function(title)
    local r = registry(self)
    local screen = r.given[v]
    heardOf(r, v).title = title
    if r.titles[screen] == title then return end
    r.titles[screen] = title
    local top = r.top
    if top and (screen == top or screen:sub(1, #top + 1) == top .. ".") then self.version = self.version + 1 end
  end)
end

-- The screen a destination made for element `index` of the path, which
-- must be a view: else an error naming where the destination was given.
local function destined(view, where, index, key)
  if isView(view) then return view end
  error(("%sthe destination for element %d of the path (a %s) returned a %s, expected a view")
        :format(where or "", index, key, valueKey(view)), 0)
end

local function screenFor(self, element, index)
  if isView(element) then return element end
  local key, r = valueKey(element), registry(self)
  r.valued = true
  do
    for _, list in pairs(r.dests) do
      for i = 1, #list do
        if list[i][1] == key then return destined(list[i][2](element), list[i][3], index, key) end
      end
    end
  end
  local destination = self.destination
  if destination then return destined(destination(element), self.where, index, key) end
  if not r.heard then                             -- its screens' destinations are not known yet (the first update)
    r.waiting = true
    return ui.EmptyView()
  end
  error(("element %d of the path is a %s, and the stack has no destination for values " ..
         "(:navigationDestination(%q, function(value) return SomeView { value = value } end) inside the stack, " ..
         "or ui.NavigationStack(path, { ... }, function(value) … end))")
        :format(index, key, key), 0)
end

-- Gives a content view the stack's path once, and watches what it
-- declares: a view value keeps what its modifiers add, and the stack may
-- render again with the same content. A view that moved to another place
-- (the path shifted: { a, b } became { b }) takes what was heard of it
-- along: its handlers fire again only when a value changes.
-- The path is given to a view value once, by the first stack that shows
-- it (a value shown by two stacks is one value: its links push onto that
-- stack's path — noted, not mended).
local pathGiven = setmetatable({}, { __mode = "k" })
local function withPath(v, path, self, screen)
  if getmetatable(v) == "lunette.ViewType" then v = v() end
  if getmetatable(v) == "lunette.View" then
    local r = registry(self)
    local was = r.given[v]
    if not pathGiven[v] then pathGiven[v] = true; v:environment(navigationPath, path) end
    if not was then
      r.given[v] = screen
      watch(v, self)
    elseif was ~= screen then
      local h = heardOf(r, v)
      r.given[v] = screen
      r.titles[screen], r.dests[screen], r.keys[screen] = h.title, h.dests, h.key
    end
    return v
  end
  if type(v) == "table" and getmetatable(v) == nil then
    local list = {}
    for i = 1, #v do list[i] = withPath(v[i], path, self, screen .. "." .. i) end
    return list
  end
  return v
end

local Stack = ui.View("NavigationStack", { state = { own = {}, version = 0 }, body = function(self)
  local path = self.path or self["$own"]
  local _ = self.version                                  -- what the screens declared changed: render again
  local screens, content, r = {}, self.content, registry(self)
  r.valued = false
  for i = 1, #content do screens[i] = withPath(content[i], path, self, "c" .. i) end
  local list = path:get() or {}                   -- a path not set yet: no screen pushed
  for i = 1, #list do
    local depth = i
    local function pop()
      local kept = {}
      for j = 1, depth - 1 do kept[j] = path:get()[j] end
      path:set(kept)
    end
    screens[#screens + 1] = presented(ui.Group { withPath(screenFor(self, list[i], i), path, self, "p" .. i) }, pop)
  end
  r.top = #list > 0 and "p" .. #list or nil
  if #list > 0 then                                       -- the top screen's title, as the bar shows it
    local titles, top = r.titles, "p" .. #list
    local title = titles[top]
    if title == nil then
      for key, t in pairs(titles) do if key:sub(1, #top + 1) == top .. "." and t ~= "" then title = t end end
    end
    if title and title ~= "" then attribute("title", title) end
  end
  return screens
end })

function ui.NavigationStack(path, content, destination, ...)
  noExtra("ui.NavigationStack", getmetatable(path) == "lunette.Binding" and 3 or 2, path, content, destination, ...)
  if getmetatable(path) ~= "lunette.Binding" then path, content, destination = nil, path, content end
  if path then                                    -- NavigationStack(path:): a list of values (a NavigationPath)
    local held = path:get()
    if held ~= nil and type(held) ~= "table" and getmetatable(held) ~= "lunette.Tracked" then
      error(("ui.NavigationStack: its path's binding holds a %s; a path is a list of values ({})"):format(type(held)), 2)
    end
  end
  if type(content) ~= "table" or getmetatable(content) ~= nil then
    error(("ui.NavigationStack: a list of views expected%s, got %s")
          :format(path and " after the path" or "", getmetatable(content) or type(content)), 2)
  end
  for key in pairs(content) do                    -- its screens only: an option here would do nothing (D10)
    if mathtype(key) ~= "integer" then
      error(("ui.NavigationStack takes no options among its views, got '%s' (its path is a binding given "
             .. "first, ui.NavigationStack(self[\"$path\"], { … }); a screen's title is :navigationTitle(…) "
             .. "on its content)"):format(tostring(key)), 2)
    end
  end
  if destination ~= nil and type(destination) ~= "function" then
    error(("ui.NavigationStack: the destination must be a function(value) returning a view, got %s")
          :format(type(destination)), 2)
  end
  local where = destination and select(2, pcall(error, "", 4))   -- the script's line (under C's entry)
  return Stack { path = path, content = content, destination = destination, where = where }
end

local Link = ui.View("NavigationLink", { environment = { path = navigationPath }, body = function(self)
  if self.off then return ui.Button(self.label, function() end):disabled(true) end   -- a nil value
  return ui.Button(self.label, function()
    local path = self.path
    if not path then
      error(("NavigationLink '%s' is not inside a NavigationStack"):format(tostring(self.label)), 0)
    end
    local list, destination = {}, self.destination
    for i = 1, #(path:get() or {}) do list[i] = path:get()[i] end
    if type(destination) == "function" then destination = destination() end
    list[#list + 1] = destination
    path:set(list)
  end)
end })

-- ui.NavigationLink(label, destination): label a string, or a view
-- (NavigationLink(destination:label:), NavigationLink(value:label:)): a tap
-- on any node of the label follows the link. An explicit nil value
-- disables the link, as NavigationLink(_:value:) does with nil; a missing
-- destination (one argument) is an error.
function ui.NavigationLink(label, ...)
  local destination = ...
  noExtra("ui.NavigationLink", 2, label, ...)
  if type(label) ~= "string" and not isView(label) then
    error(("ui.NavigationLink: a label expected (a string, or a view such as ui.Label(\"Dune\", \"book\")), got %s")
          :format(type(label)), 2)
  end
  if select("#", ...) == 0 then
    error("ui.NavigationLink: a destination expected (a view, a function returning one, or a value for a " ..
          ":navigationDestination; nil disables the link)", 2)
  end
  return Link { label = label, destination = destination, off = destination == nil or nil }
end
