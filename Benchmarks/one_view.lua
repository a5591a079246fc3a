-- P9: the whole process of `lunette run` on a one-view script.
local ui = require("lunette")
return ui.View("Hello", function() return ui.Text("Hello, world") end)()
