-- What a reader of the reading list sees (NavigationStack, NavigationLink,
-- app storage, alert). Each test starts from an empty store.
local ui = require("lunette")
local views = require("views")

describe("ReadingList", function()
  local library, app

  before_each(function()
    library = views.library()
    app = ui.mount(views.ReadingList():environment(library))
  end)

  it("lists the books and follows a link to one", function()
    assert.truthy(app:tree():find('navigationTitle("Reading list (3)")', 1, true))
    assert.truthy(app:find("Nothing opened yet"))
    app:find("Emma"):tapLink()
    assert.truthy(app:find("On the shelf"))
    assert.truthy(app:find("Last opened: Emma"))          -- the detail's onAppear wrote the stored key
    app:find("Back"):tap()
    assert.is_nil(app:find("On the shelf"))
    assert.truthy(app:find("Last opened: Emma"))
  end)

  it("checks a book out from its page", function()
    app:find("Dune"):tapLink()
    app:find("Check out"):tap()
    assert.equal(false, library.books[1].isAvailable)
    assert.truthy(app:find("Checked out"))
  end)

  it("hides the books that are out while 'Available only' is on", function()
    app:find("Available only"):toggle()
    assert.is_nil(app:find("Ulysses"))
    assert.truthy(app:tree():find('navigationTitle("Reading list (2)")', 1, true))
  end)

  it("forgets the last book opened after asking", function()
    app:find("Dune"):tapLink()
    app:find("Back"):tap()
    app:find("Forget"):tap()
    assert.truthy(app:find{ type = "Alert" })
    app:find("Keep it"):tap()
    assert.truthy(app:find("Last opened: Dune"))
    app:find("Forget"):tap()
    app:find("Forget it"):tap()
    assert.truthy(app:find("Nothing opened yet"))
    assert.is_nil(app:find{ type = "Alert" })
  end)
end)
