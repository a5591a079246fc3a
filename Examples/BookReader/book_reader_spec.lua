-- What a reader of the book reader sees: the Swift Library through Lua views.
local ui = require("lunette")
local views = require("views")

describe("BookReader", function()
  local library, app

  before_each(function()
    library = ui.types.Library()
    app = ui.mount(views.LibraryView():environment(library))
  end)

  it("shows how many books are available", function()
    assert.truthy(app:tree():find('navigationTitle("Books available: 3")', 1, true))
  end)

  it("checks out a book with its button", function()
    app:find("Check out"):tap()
    assert.truthy(app:tree():find('navigationTitle("Books available: 2")', 1, true))
    assert.equal(false, library.books[1].isAvailable)
    assert.truthy(app:find("Return"))
    assert.truthy(app:find("Waiting for return"))
  end)

  it("returns a checked-out book", function()
    app:find("Check out"):tap()
    app:find("Return"):tap()
    assert.is_nil(app:find("Return"))
    assert.truthy(app:tree():find("Books available: 3", 1, true))
  end)

  it("re-renders only the book whose title changed", function()
    local before = app:renders("BookView")
    library.books[2].title = "Dune"
    ui.flush()
    assert.equal(before + 1, app:renders("BookView"))
    assert.equal(1, app:renders("LibraryView"))
    assert.truthy(app:find("Dune"))
  end)

  it("edits a book in a sheet and closes it", function()
    assert.is_nil(app:find { type = "Sheet" })
    app:findAll("Edit")[2]:tap()
    assert.truthy(app:find { type = "BookEditView" })
    app:find { type = "TextField", text = "Title" }:setText("Dune")
    app:find("Book is available"):toggle()
    assert.equal("Dune", library.books[2].title)
    assert.equal(false, library.books[2].isAvailable)
    assert.truthy(app:find("Dune"))                     -- the list shows it too
    app:find("Close"):tap()
    assert.is_nil(app:find { type = "Sheet" })
    assert.truthy(app:tree():find("Books available: 2", 1, true))
  end)

  it("submitting the title field dismisses the sheet", function()
    app:findAll("Edit")[1]:tap()
    local field = app:find { type = "TextField", text = "Title" }
    field:setText("Emma")
    field:submit()
    assert.is_nil(app:find { type = "BookEditView" })
    assert.equal("Emma", library.books[1].title)
  end)

  it("lists a book added to the library", function()
    table.insert(library.books, ui.types.Book())
    ui.flush()
    assert.equal(4, #app:findAll("Check out"))
    assert.truthy(app:tree():find("Books available: 4", 1, true))
  end)
end)
