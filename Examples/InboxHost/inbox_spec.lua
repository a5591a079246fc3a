-- The user's script (inbox.lua) under test, without the host: a Lua stand-in
-- for the Swift Inbox, with the same properties and methods. The same spec
-- runs under `lunette test` and busted; the host itself runs as scripts/test's
-- example-host step.
local ui = require("lunette")

local Message = ui.Observable("Message", { subject = "", sender = "", date = 0, folder = "inbox", isRead = false })
local Store = ui.Observable("InboxStore", { messages = function() return {} end, unreadCount = 0 })

local function standIn(messages)
  local store = Store { messages = messages }
  local fake = {}
  local function recount()
    local n = 0
    for _, m in ipairs(store.messages) do if m.folder == "inbox" and not m.isRead then n = n + 1 end end
    store.unreadCount = n
  end
  function fake:move(subject, folder)
    for _, m in ipairs(store.messages) do if m.subject == subject then m.folder = folder end end
    recount()
  end
  function fake:markAllRead(folder)
    for _, m in ipairs(store.messages) do if m.folder == folder then m.isRead = true end end
    recount()
  end
  function fake:archiveRead()
    for _, m in ipairs(store.messages) do if m.isRead and m.folder == "inbox" then m.folder = "archive" end end
    recount()
  end
  recount()
  return setmetatable(fake, { __index = store })
end

describe("inbox.lua", function()
  local app

  before_each(function()
    _G.inbox = standIn {       -- the global the script reads (busted insulates a spec's own globals)
      Message { subject = "Welcome", sender = "Ada", date = 20000 * 86400 },
      Message { subject = "Lunch?", sender = "Grace", date = 20001 * 86400, isRead = true },
    }
    app = ui.mount(require("inbox"))
  end)

  after_each(function() app:unmount() end)

  it("shows the unread count and a row for each message in the inbox", function()
    assert.truthy(app:find("Hello: 1 unread"))
    assert.truthy(app:find{ id = "Welcome" })
    assert.truthy(app:find("Ada, 2024-10-04"))
    assert.are.equal(2, #app:findAll{ type = "MessageRow" })
  end)

  it("archives a message from its row", function()
    app:find("Archive"):tap()
    assert.falsy(app:find{ id = "Welcome" })
    assert.truthy(app:find("Hello: 0 unread"))
  end)

  it("marks every message read, then archives the read ones", function()
    app:find("Mark all read"):tap()
    assert.truthy(app:find("Hello: 0 unread"))
    app:find("Archive read"):tap()
    assert.are.equal(0, #app:findAll{ type = "MessageRow" })
  end)
end)
