-- Snapshots (issue 20): assert.matches_snapshot(app[, name]) keeps the tree
-- text in __snapshots__/snapshot_spec.snap (written on the first run, read
-- by both runners; `lunette test --update-snapshots` or
-- LUNETTE_UPDATE_SNAPSHOTS=1 busted rewrites it). A stale one fails with a
-- diff: Tests/LunetteTests/RunnerParityTests.swift.
local ui = require("lunette")

local Todo = ui.Observable("Todo", { title = "", done = false })
local TodoList = ui.View("TodoList", {
  state = { todos = function() return { Todo({ title = "Walk the dog" }) } end, draft = "" },
  body = function(self)
    return ui.NavigationStack {
      ui.List {
        ui.ForEach(self.todos, function(todo)
          return ui.Toggle(todo.title, ui.Binding(function() return todo.done end, function(v) todo.done = v end))
        end),
        ui.TextField("New todo", self["$draft"]):onSubmit(function()
          self.todos[#self.todos + 1] = Todo({ title = self.draft })
          self.todos = self.todos
          self.draft = ""
        end),
      }:navigationTitle("Todos (" .. #self.todos .. ")"),
    }
  end,
})

describe("Snapshots", function()
  it("keep the tree of a todo list, before and after adding one", function()
    local app = ui.mount(TodoList())
    assert.matches_snapshot(app)
    local field = app:find { type = "TextField" }
    field:setText("Buy milk")
    field:submit()
    assert.matches_snapshot(app, "after adding")
  end)

  it("keep a node's tree or a string", function()
    local app = ui.mount(TodoList())
    assert.matches_snapshot(app:find { type = "Toggle" })
    assert.matches_snapshot("plain text\nover two lines", "a string")
  end)
end)

-- The file format, through a store in memory (lunette.snapshots is what both
-- runners use). A hostile read found: a tree line beginning "=== " opened
-- an entry of its own; bytes that are not UTF-8 could not be written by
-- `lunette test` and were replaced by U+FFFD when it rewrote busted's; a
-- CR LF checkout, or a table as a name, passed without checking anything;
-- two tests of one name took each other's text run after run; a change in
-- a large tree was cut off behind its first lines.
describe("The snapshot file", function()
  local snapshots = require("lunette.snapshots")
  local function store(content)
    local s = { file = content }
    s.read = function() return s.file end
    s.write = function(text) s.file = text end
    return s
  end

  it("keeps any text as it was, lines like its own headers and bytes that are not UTF-8 included", function()
    local texts = {
      ["t 1"] = "header\n=== inj victim 1\nFORGED\n==~ x\n== section ==\n==\n====\n\\ a backslash\nfooter\n",
      ["t 2"] = "bytes \255\254 end, a \\ and \\xFF as text\n",
      ["t \255 3"] = "plain\n",
    }
    local s = store(nil)
    for _, key in ipairs { "t 1", "t 2", "t \255 3" } do assert.is_true(snapshots.check(s, key, texts[key])) end
    assert.truthy(utf8.len(s.file), "the file is UTF-8")
    local entries, order = snapshots.parse(s.file)
    assert.same({ "t 1", "t 2", "t \255 3" }, order)
    for key, text in pairs(texts) do assert.equal(text, entries[key]) end
    local again = store(s.file)                     -- read back: each matches, nothing is rewritten
    for key, text in pairs(texts) do assert.is_true(snapshots.check(again, key, text)) end
    assert.equal(s.file, again.file)
  end)

  it("refuses a file with CR LF line ends, a name that is no string or integer, and one name checked twice", function()
    assert.has_error(function() snapshots.parse("-- x\r\n=== t 1\r\nText\r\n") end,
      "the snapshot file's lines end in CR LF (a checkout converted it?): keep it LF (.gitattributes: *.snap -text)")
    assert.error_matches(function() snapshots.key("t", {}, 0) end, "a snapshot's name is a string or an integer, got table")
    local s = store(nil)
    assert.is_true(snapshots.check(s, "same 1", "a\n"))
    local ok, message = snapshots.check(s, "same 1", "b\n")
    assert.is_false(ok)
    assert.matches('two snapshots of this run are named "same 1"', message, 1, true)
  end)

  it("shows the change of a large tree, with a few lines around it", function()
    local rows = {}
    for i = 1, 20000 do rows[i] = "row " .. i end
    local before = table.concat(rows, "\n") .. "\n"
    rows[12345] = "row 12345 changed"
    local diff = snapshots.diff(before, table.concat(rows, "\n") .. "\n")
    assert.equal(table.concat({ "  … (12341 lines the same)", "  row 12342", "  row 12343", "  row 12344",
      "- row 12345", "+ row 12345 changed", "  row 12346", "  row 12347", "  row 12348",
      "  … (7652 lines the same)" }, "\n"), diff)
  end)

  it("shows the changes of a large tree changed at both ends, not every line removed and added", function()
    local rows = {}
    for i = 1, 20000 do rows[i] = "row " .. i end
    local before = table.concat(rows, "\n") .. "\n"
    rows[1], rows[10000], rows[20000] = "first changed", "middle changed", "last changed"
    table.insert(rows, 15000, "inserted")
    local diff = snapshots.diff(before, table.concat(rows, "\n") .. "\n")
    assert.equal(table.concat({ "- row 1", "+ first changed", "  row 2", "  row 3", "  row 4",
      "  … (9992 lines the same)", "  row 9997", "  row 9998", "  row 9999",
      "- row 10000", "+ middle changed", "  row 10001", "  row 10002", "  row 10003",
      "  … (4993 lines the same)", "  row 14997", "  row 14998", "  row 14999",
      "+ inserted", "  row 15000", "  row 15001", "  row 15002",
      "  … (4994 lines the same)", "  row 19997", "  row 19998", "  row 19999",
      "- row 20000", "+ last changed" }, "\n"), diff)
  end)

  it("keeps a person's lines before the first entry, and refuses two entries with one name, naming the file", function()
    local s = store("-- Lunette snapshots (assert.matches_snapshot); `lunette test --update-snapshots` rewrites them\n"
      .. "-- kept for issue 42: do not delete\n=== old 1\nText \"old\"\n")
    s.name = function() return "__snapshots__/x.snap" end
    assert.is_true(snapshots.check(s, "new 1", "Text \"new\"\n"))
    assert.truthy(s.file:find("-- kept for issue 42: do not delete\n=== old 1\n", 1, true), s.file)
    local twice = store("=== same 1\na\n=== same 1\nb\n")
    twice.name = function() return "__snapshots__/y.snap" end
    local ok, message = snapshots.check(twice, "other 1", "c\n")
    assert.is_false(ok)
    assert.equal('__snapshots__/y.snap: the file has two entries named "same 1": keep one (delete the other)', message)
    local crlf = store("=== t 1\r\nText\r\n")
    crlf.name = function() return "__snapshots__/z.snap" end
    ok, message = snapshots.check(crlf, "t 1", "Text\n")
    assert.matches("^__snapshots__/z.snap: the snapshot file's lines end in CR LF", message)
  end)

  it("finds an entry an earlier Lunette kept under the old key of a name with ':', and moves it", function()
    local key, legacy = snapshots.key("Counter: basics", nil, 1)
    assert.equal("Counter\\: basics 1", key)
    assert.equal("Counter: basics 1", legacy)
    local s = store("=== Counter: basics 1\nText \"1\"\n")
    local ok, message = snapshots.check(s, key, "Text \"2\"\n", false, legacy)
    assert.is_false(ok)                             -- a changed tree fails: it was written anew and passed
    assert.matches("does not match its snapshot", message)
    assert.truthy(s.file:find("=== Counter\\: basics 1\n", 1, true), s.file)
    assert.is_nil(s.file:find("=== Counter: basics 1\n", 1, true), s.file)
  end)

  it("shows a large insertion in a large tree as the lines added", function()
    local rows = {}
    for i = 1, 20000 do rows[i] = "row " .. i end
    local before = table.concat(rows, "\n") .. "\n"
    rows[1], rows[20000] = "first changed", "last changed"
    for k = 1, 100 do table.insert(rows, 10000, "new " .. k) end
    local diff = snapshots.diff(before, table.concat(rows, "\n") .. "\n")
    local added, removed = 0, 0
    for line in diff:gmatch("[^\n]+") do
      if line:find("^%+ ") then added = added + 1 elseif line:find("^%- ") then removed = removed + 1 end
    end
    assert.same({ 102, 2 }, { added, removed })
  end)

  it("gives two different snapshots two keys: a line break and \\n, a test ending ':' and a named one", function()
    assert.are_not.equal(snapshots.key("a\nb", nil, 1), snapshots.key("a\\nb", nil, 1))
    assert.are_not.equal(snapshots.key("k:", nil, 1), snapshots.key("k", 1, 0))
    assert.are_not.equal(snapshots.key("k: 1", nil, 1), snapshots.key("k", "1 1", 0))
    assert.equal("plain name 1", snapshots.key("plain name", nil, 1))   -- the usual keys are as they were
    assert.equal("plain name: after", snapshots.key("plain name", "after", 0))
  end)
end)
