-- The reading list: `lunette run Examples/ReadingList/ReadingList.lua [TITLE]`.
-- With a title, it opens that book first (its link is followed), and the
-- app storage remembers it: the next run shows "Last opened: TITLE".
local ui = require("lunette")
local views = require("views")

local root = views.ReadingList():environment(views.library())
local title = arg and arg[1]
if not title then return root end
local app = ui.mount(root)
local link = app:find(title)
if not link then error(("no book titled %q in the reading list"):format(title), 0) end
link:tapLink()
