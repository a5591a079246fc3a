-- lunette run Examples/Player/Player.lua
local views = require("views")
return views.EpisodeView()
