-- The book reader of "Managing model data in your app", as Lua views over
-- the Swift models Library, Book and Author (Sources/BookModels).
local ui = require("lunette")

-- struct BookEditView: View { @Bindable var book: Book; @Environment(\.dismiss) var dismiss ... }
local BookEditView = ui.View("BookEditView", {
  bindable = { "book" },
  environment = { dismiss = "dismiss" },
  body = function(self)
    return ui.VStack {
      ui.HStack {
        ui.Text("Title"),
        ui.TextField("Title", self["$book"].title)
          :textFieldStyle("roundedBorder")
          :onSubmit(function() self.dismiss() end),
      },
      ui.Toggle("Book is available", self["$book"].isAvailable),
      ui.Button("Close", function() self.dismiss() end):buttonStyle("borderedProminent"),
    }:padding()
  end,
})

-- struct BookView: View { var book: Book; @State private var showEditor = false ... }
local BookView = ui.View("BookView", {
  state = { showEditor = false },
  body = function(self)
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
      ui.Button("Edit", function() self.showEditor = true end)
        :sheet(self["$showEditor"], function() return BookEditView { book = book } end),
    }
  end,
})

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

return { LibraryView = LibraryView, BookView = BookView, BookEditView = BookEditView }
