-- SEMANTICS S01-S10: Observation ("Managing model data in your app").
local ui = require("lunette")

local Author = ui.Observable("Author", { name = "Unknown Author" })
local Book = ui.Observable("Book", {
  title = "Sample Book Title",
  author = function() return Author() end,
  isAvailable = true,
})

local function has(app, text) return app:find(text) ~= nil end

describe("Observation", function()
  it("S01 a view depends only on the properties its body reads", function()
    local TitleView = ui.View("TitleView", function(self) return ui.Text(self.book.title) end)
    local book = Book()
    local app = ui.mount(TitleView { book = book })
    book.isAvailable = false
    book.author = Author { name = "Frank Herbert" }
    ui.flush()
    assert.equal(1, app:renders("TitleView"))
    book.title = "Dune"
    ui.flush()
    assert.equal(2, app:renders("TitleView"))
    assert.truthy(has(app, "Dune"))
  end)

  it("S02 reads through a global object are tracked the same way", function()
    globalBook = Book()
    local GlobalView = ui.View("GlobalView", function() return ui.Text(globalBook.title) end)
    local app = ui.mount(GlobalView())
    globalBook.isAvailable = false
    ui.flush()
    assert.equal(1, app:renders("GlobalView"))
    globalBook.title = "Global"
    ui.flush()
    assert.equal(2, app:renders("GlobalView"))
    assert.truthy(has(app, "Global"))
    globalBook = nil
  end)

  it("S03 a computed property is tracked through what it reads", function()
    local runs = 0
    local Library = ui.Observable("Library", {
      books = function() return { Book(), Book(), Book() } end,
      availableBooksCount = ui.computed(function(self)
        runs = runs + 1
        local n = 0
        for _, book in ipairs(self.books) do
          if book.isAvailable then n = n + 1 end
        end
        return n
      end),
    })
    local library = Library()
    local CountView = ui.View("CountView", function(self)
      return ui.Text("Books available: " .. self.library.availableBooksCount)
    end)
    local app = ui.mount(CountView { library = library })
    assert.truthy(has(app, "Books available: 3"))
    library.books[2].isAvailable = false
    ui.flush()
    assert.truthy(has(app, "Books available: 2"))
    table.insert(library.books, Book())
    ui.flush()
    assert.truthy(has(app, "Books available: 3"))
    -- a change that leaves the count as it was re-runs the computed, not the view
    local renders = app:renders("CountView")
    library.books[1].title = "Dune"
    library.books[2].isAvailable = true
    library.books[3].isAvailable = false
    ui.flush()
    assert.equal(renders, app:renders("CountView"))
    -- memoised: reading it again without a change does not run it
    local before = runs
    assert.equal(3, library.availableBooksCount)
    assert.equal(before, runs)
  end)

  it("S04 a view that reads a collection re-renders on insert, delete, move and replace", function()
    local Shelf = ui.Observable("Shelf", { books = function() return { Book { title = "A" }, Book { title = "B" } } end })
    local shelf = Shelf()
    local ShelfView = ui.View("ShelfView", function(self)
      local titles = {}
      for _, book in ipairs(self.shelf.books) do titles[#titles + 1] = book.title end
      return ui.Text(table.concat(titles, ","))
    end)
    local app = ui.mount(ShelfView { shelf = shelf })
    assert.truthy(has(app, "A,B"))
    table.insert(shelf.books, Book { title = "C" })        -- insert
    ui.flush()
    assert.truthy(has(app, "A,B,C"))
    table.remove(shelf.books, 1)                           -- delete
    ui.flush()
    assert.truthy(has(app, "B,C"))
    local books = shelf.books
    books[1], books[2] = books[2], books[1]                -- move
    ui.flush()
    assert.truthy(has(app, "C,B"))
    shelf.books[2] = Book { title = "D" }                  -- replace
    ui.flush()
    assert.truthy(has(app, "C,D"))
    table.sort(shelf.books, function(a, b) return a.title > b.title end)
    ui.flush()
    assert.truthy(has(app, "D,C"))
    assert.equal(6, app:renders("ShelfView"))
  end)

  it("S05 List rows run in their own scope: a title change re-renders that row only", function()
    local Shelf = ui.Observable("Shelf", { books = function() return { Book(), Book(), Book() } end })
    local shelf = Shelf()
    local rows = {}
    local LibraryView = ui.View("LibraryView", function(self)
      return ui.List(self.shelf.books, function(book)
        rows[book] = (rows[book] or 0) + 1
        return ui.Text(book.title)
      end)
    end)
    local app = ui.mount(LibraryView { shelf = shelf })
    local second = shelf.books[2]
    second.title = "Changed"
    ui.flush()
    assert.equal(1, app:renders("LibraryView"))
    assert.equal(2, rows[second])
    assert.equal(1, rows[shelf.books[1]])
    assert.equal(1, rows[shelf.books[3]])
    assert.truthy(has(app, "Changed"))
  end)

  it("S06 a view that only passes an object through never re-renders when it changes", function()
    local BookView = ui.View("BookView", function(self) return ui.Text(self.book.title) end)
    local LibraryItemView = ui.View("LibraryItemView", function(self) return BookView { book = self.book } end)
    local LibraryView = ui.View("LibraryView", function(self) return LibraryItemView { book = self.book } end)
    local book = Book()
    local app = ui.mount(LibraryView { book = book })
    book.title = "Dune"
    book.isAvailable = false
    ui.flush()
    assert.equal(1, app:renders("LibraryView"))
    assert.equal(1, app:renders("LibraryItemView"))
    assert.equal(2, app:renders("BookView"))
  end)

  it("S07 a view whose input is replaced by another object re-renders, even if it reads nothing", function()
    local Holder = ui.Observable("Holder", { book = function() return Book() end })
    local holder = Holder()
    local Opaque = ui.View("Opaque", function() return ui.Text("nothing read") end)
    local Parent = ui.View("Parent", function(self) return Opaque { book = self.holder.book } end)
    local app = ui.mount(Parent { holder = holder })
    holder.book.title = "Dune"          -- the same object: Opaque does not run
    ui.flush()
    assert.equal(1, app:renders("Opaque"))
    holder.book = Book()                -- another object: Opaque runs
    ui.flush()
    assert.equal(2, app:renders("Parent"))
    assert.equal(2, app:renders("Opaque"))
  end)

  it("S08 dependencies through another object are tracked (book.author.name)", function()
    local ItemView = ui.View("ItemView", function(self)
      return ui.VStack {
        ui.Text(self.book.title),
        ui.Text("Written by: " .. self.book.author.name):font("caption"),
      }
    end)
    local book = Book()
    local app = ui.mount(ItemView { book = book })
    book.author.name = "Frank Herbert"
    ui.flush()
    assert.equal(2, app:renders("ItemView"))
    assert.truthy(has(app, "Written by: Frank Herbert"))
    local old = book.author
    book.author = Author { name = "Ursula K. Le Guin" }
    ui.flush()
    assert.truthy(has(app, "Written by: Ursula K. Le Guin"))
    old.name = "Nobody"                 -- no longer read
    ui.flush()
    assert.equal(3, app:renders("ItemView"))
  end)

  it("S09 a view with no dependencies never re-renders when data changes", function()
    local book = Book()
    local Static = ui.View("Static", function() return ui.Text("Hello") end)
    local Reader = ui.View("Reader", function(self)
      return ui.VStack { ui.Text(self.book.title), Static() }
    end)
    local app = ui.mount(Reader { book = book })
    for i = 1, 5 do
      book.title = "Title " .. i
      ui.flush()
    end
    assert.equal(6, app:renders("Reader"))
    assert.equal(1, app:renders("Static"))
  end)

  it("S10 a change made by an action re-renders the views that read it", function()
    local BookView = ui.View("BookView", function(self)
      local book = self.book
      return ui.HStack {
        ui.Text(book.isAvailable and "Available for checkout" or "Waiting for return"),
        ui.Button(book.isAvailable and "Check out" or "Return", function()
          book.isAvailable = not book.isAvailable
        end),
      }
    end)
    local book = Book()
    local app = ui.mount(BookView { book = book })
    app:find("Check out"):tap()
    assert.equal(false, book.isAvailable)
    assert.truthy(has(app, "Waiting for return"))
    assert.truthy(has(app, "Return"))
    assert.equal(2, app:renders("BookView"))
  end)
end)
