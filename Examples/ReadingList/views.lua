-- A reading list over the Swift Library (Sources/BookModels): today's
-- SwiftUI data flow in Lua — a NavigationStack with a path and
-- NavigationLinks, @AppStorage remembered across runs, and an alert.
local ui = require("lunette")

local M = {}

-- struct BookDetail: View { var book: Book; @AppStorage("reading.lastOpened") var lastOpened = "" ... }
M.BookDetail = ui.View("BookDetail", {
  appStorage = { lastOpened = ui.AppStorage("reading.lastOpened", "") },
  environment = { dismiss = "dismiss" },
  body = function(self)
    local book = self.book
    return ui.VStack {
      ui.Text(book.title):font("title"),
      ui.Text(book.isAvailable and "On the shelf" or "Checked out"),
      ui.Button(book.isAvailable and "Check out" or "Return", function() book.isAvailable = not book.isAvailable end),
      ui.Button("Back", function() self.dismiss() end),
    }:onAppear(function() self.lastOpened = book.title end)
  end,
})

-- struct ReadingList: View { @Environment(Library.self) var library; @State var path = [Book]() ... }
M.ReadingList = ui.View("ReadingList", {
  environment = { library = ui.types.Library },
  state = { path = {}, confirmingForget = false },
  appStorage = {
    lastOpened = ui.AppStorage("reading.lastOpened", ""),
    availableOnly = ui.AppStorage("reading.availableOnly", false),
  },
  body = function(self)
    local links = {}
    for _, book in ipairs(self.library.books) do
      if book.isAvailable or not self.availableOnly then
        links[#links + 1] = ui.NavigationLink(book.title, M.BookDetail { book = book })
      end
    end
    return ui.NavigationStack(self["$path"], {
      ui.Toggle("Available only", self["$availableOnly"]),
      ui.List(links),
      ui.Text(self.lastOpened == "" and "Nothing opened yet" or "Last opened: " .. self.lastOpened),
      ui.Button("Forget", function() self.confirmingForget = true end),
    }):navigationTitle(("Reading list (%d)"):format(#links))
      :alert("Forget the last book opened?", self["$confirmingForget"], {
        ui.Button("Forget it", function() self.lastOpened = "" end),
        ui.Button("Keep it", function() end),
      })
  end,
})

-- A library with three titled books, one checked out.
function M.library()
  local library = ui.types.Library()
  for i, title in ipairs { "Dune", "Emma", "Ulysses" } do library.books[i].title = title end
  library.books[3].isAvailable = false
  return library
end

return M
