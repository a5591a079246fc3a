-- BookReaderApp: @State private var library = Library()
--                WindowGroup { LibraryView().environment(library) }
local ui = require("lunette")
local views = require("views")

local library = ui.types.Library()
return views.LibraryView():environment(library)
