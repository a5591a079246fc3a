-- A declared section of plain inputs (issue 19, session 7): a view's
-- memberwise initializer, as Swift synthesizes one for a struct — a stored
-- property without a default is a required argument, one with a default may
-- be left out, and an argument the struct does not have does not compile
-- (SE-0242, https://github.com/swiftlang/swift-evolution/blob/main/proposals/0242-default-values-memberwise.md;
-- https://docs.swift.org/swift-book/documentation/the-swift-programming-language/initialization/#Memberwise-Initializers-for-Structure-Types).
local ui = require("lunette")

-- fn raises an error naming this file's line and saying `text`.
local function fails_here(fn, text)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  err = tostring(err)
  assert.truthy(err:match("inputs_spec%.lua:%d+: "), err)
  assert.truthy(err:find(text, 1, true), err)
end

describe("inputs = { … }", function()
  local Row = ui.View("InputRow", {
    inputs = { "title", count = 0, tags = { "new" }, note = ui.none },
    body = function(self)
      return ui.Text(("%s %d %s %s"):format(self.title, self.count, table.concat(self.tags, "+"), tostring(self.note)))
    end,
  })

  it("takes the listed names as required and the others with their defaults (ui.none: nil)", function()
    local app = ui.mount(ui.VStack { Row { title = "a" }, Row { title = "b", count = 2, tags = { "x", "y" }, note = "n" } })
    assert.truthy(app:find("a 0 new nil"), app:tree())
    assert.truthy(app:find("b 2 x+y n"))
    app:unmount()
  end)

  it("gives each view its own copy of a table default", function()
    local Tagger = ui.View("InputTagger", { inputs = { tags = {} }, body = function(self)
      table.insert(self.tags, "seen")                     -- changes its own table only
      return ui.Text("tags " .. #self.tags)
    end })
    local app = ui.mount(ui.VStack { Tagger {}, Tagger {} })
    assert.equal(2, #app:findAll("tags 1"), app:tree())
    app:unmount()
  end)

  it("refuses a missing required input and a name it does not declare, naming the view, the input and the line", function()
    fails_here(function() return Row {} end,
      "InputRow: missing input 'title': inputs = { \"title\" } declares an input the caller passes (InputRow { title = … })")
    fails_here(function() return Row { title = "t", cout = 1 } end,
      "InputRow: unknown input \"cout\" (did you mean 'count'?); the view declares its inputs")
    fails_here(function() return Row { title = "t", [1] = "x" } end, "InputRow: unknown input 1")
  end)

  it("counts binding, bindable and observedObject names as inputs too; inputs are read-only", function()
    local Edit = ui.View("InputEdit", { inputs = { label = "Name" }, binding = { "text" }, body = function(self)
      return ui.TextField(self.label, self["$text"])
    end })
    local app = ui.mount(Edit { text = ui.Binding.constant("x") })
    assert.truthy(app:find("Name"))
    app:unmount()
    local Writer = ui.View("InputWriter", { inputs = { n = 1 }, body = function(self)
      self.n = 2
      return ui.Text("n")
    end })
    local bad = ui.mount(Writer {})
    assert.has_error_node(bad, "InputWriter: cannot assign to 'n' (inputs are read-only")
    bad:unmount()
  end)

  it("refuses a section that lists something other than names and defaults", function()
    assert.error_matches(function() ui.View("InputBad", { inputs = { 3 }, body = function() end }) end,
      'inputs lists names ("book", required) and name = default (count = 0), got 3', 1, true)
  end)
end)
