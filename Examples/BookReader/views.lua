-- The book reader of "Managing model data in your app", as Lua views over
-- the Swift models Library, Book and Author (Sources/BookModels).
local ui = require("lunette")

-- struct BookView: View { var book: Book ... }
local BookView = ui.View("BookView", function(self)
  local book = self.book
  return ui.List {
    ui.Text(book.title),
    ui.HStack {
      ui.Text(book.isAvailable and "Available for checkout" or "Waiting for return"),
      ui.Spacer(),
      ui.Button(book.isAvailable and "Check out" or "Return", function()
        book.isAvailable = not book.isAvailable
      end),
    },
  }
end)

-- struct LibraryView: View { @Environment(Library.self) private var library ... }
local LibraryView = ui.View("LibraryView", {
  environment = { library = ui.types.Library },
  body = function(self)
    local library = self.library
    return ui.NavigationStack {
      ui.List(library.books, function(book)
        return BookView { book = book }
      end):navigationTitle("Books available: " .. library.availableBooksCount),
    }
  end,
})

return { LibraryView = LibraryView, BookView = BookView }
