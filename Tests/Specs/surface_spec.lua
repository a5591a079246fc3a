-- What the runtime defines, checked against what documents it (issue 17,
-- "each extension point declared once"): every ui.* name, every view
-- kind, modifier, node method and section the runtime has must appear in
-- types/lunette.lua (the editor's annotations) and in the README's
-- reference, and every kind must be drawn by the preview page — so they
-- cannot drift apart again. The lists come from the runtime itself.
local ui = require("lunette")

-- This spec reads the repository's files: it finds them from its own path.
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local root = (here ~= "" and here or "./") .. "../../"
local function read(path)
  local f = assert(io.open(root .. path, "r"), "cannot open " .. root .. path)
  local text = f:read("a")
  f:close()
  return text
end

local function sorted_keys(t, keep)
  local names = {}
  for k, v in pairs(t) do
    if type(k) == "string" and (not keep or keep(k, v)) then names[#names + 1] = k end
  end
  table.sort(names)
  return names
end

-- The runtime's own lists.
local function ui_names() return sorted_keys(ui, function(k) return not k:match("^_") end) end
-- A metatable's __index is its table of methods, or a C closure over it.
local function methods(value)
  local index = debug.getmetatable(value).__index
  return sorted_keys(type(index) == "table" and index or select(2, debug.getupvalue(index, 1)))
end
local function modifiers() return methods(ui.Text("x")) end
local function node_methods()
  local app = ui.mount(ui.Button("b", function() end))
  local names = methods(app:find("b"))
  app:unmount()
  return names
end
local function sections()
  local ok, err = pcall(ui.View, "SurfaceProbe", { notASection = 1, body = function() return ui.Text("x") end })
  assert(not ok)
  local list = tostring(err):match("%(sections: ([^)]*)%)")
  local names = {}
  for name in list:gmatch("[%a_]+") do names[#names + 1] = name end
  return names
end

local function missing(names, text, patterns)
  local absent = {}
  for _, name in ipairs(names) do
    local found = false
    for _, pattern in ipairs(patterns) do
      if text:find(pattern:format(name), 1, true) then found = true; break end
    end
    if not found then absent[#absent + 1] = name end
  end
  return table.concat(absent, ", ")
end

describe("the surface, declared once", function()
  local types, readme

  before_each(function()
    types = types or read("types/lunette.lua")
    readme = readme or read("README.md")
  end)

  it("every ui.* name is annotated in types/lunette.lua and named in the README", function()
    local names = ui_names()
    assert.is_true(#names > 30)
    assert.equal("", missing(names, types, { "function ui.%s(", "---@field %s ", "ui.%s = " }))
    assert.equal("", missing(names, readme, { "ui.%s" }))
  end)

  it("every modifier is annotated in types/lunette.lua and named in the README", function()
    local names = modifiers()
    assert.is_true(#names > 20)
    assert.equal("", missing(names, types, { "function View:%s(" }))
    assert.equal("", missing(names, readme, { ":%s(", ":%s`", "`%s`" }))
  end)

  it("every node method is annotated in types/lunette.lua and named in the README", function()
    local names = node_methods()
    assert.is_true(#names > 10)
    assert.equal("", missing(names, types, { "function Node:%s(" }))
    assert.equal("", missing(names, readme, { ":%s(", "`%s`", "node:%s" }))
  end)

  it("every app method is annotated in types/lunette.lua and named in the README", function()
    local app = ui.mount(ui.Text("x"))
    local names = methods(app)
    app:unmount()
    assert.is_true(#names >= 8)
    assert.equal("", missing(names, types, { "function App:%s(" }))
    assert.equal("", missing(names, readme, { "app:%s" }))
  end)

  it("every section of a view definition is annotated in types/lunette.lua and named in the README", function()
    local names = sections()
    assert.is_true(#names >= 10)
    assert.equal("", missing(names, types, { "---@field %s? ", "---@field %s " }))
    assert.equal("", missing(names, readme, { "%s = " }))
  end)

  it("every view kind a script can make is drawn by the preview page", function()
    local page = read("Sources/LunettePreview/Resources/preview.html")
    local kinds = {}
    for _, name in ipairs(ui_names()) do                -- what each constructor makes from one string
      local ok, made = pcall(ui[name], "x")
      if not ok and tostring(made):find("takes 0 arguments", 1, true) then ok, made = pcall(ui[name]) end
      if ok then
        pcall(function()
          local app = ui.mount(made)
          kinds[app:tree():match("^(%a+)")] = true
          app:unmount()
        end)
      end
    end
    local names = sorted_keys(kinds)
    assert.is_true(#names >= 5, table.concat(names, ", "))
    assert.equal("", missing(names, page, { 't === "%s"' }))
  end)
end)
