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
