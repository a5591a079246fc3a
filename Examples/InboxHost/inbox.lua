-- A user's view of the host's Inbox (Sources/InboxHost; inbox_spec.lua tests it): the host sets the
-- global `inbox` and runs this file sandboxed, with a time budget and a
-- memory limit. Views read properties (tracked: Swift changes re-render
-- exactly the views that read them); actions call the Inbox's methods.
local ui = require("lunette")

local MessageRow = ui.View("MessageRow", function(self)
  local message = self.message
  return ui.HStack {
    ui.Text(message.subject),
    ui.Text(message.sender .. ", " .. os.date("!%Y-%m-%d", message.date)),
    ui.Text(message.isRead and "read" or "unread"),
    ui.Button("Archive", function() inbox:move(message.subject, "archive") end),
  }
end)

local Header = ui.View("Header", {
  appStorage = { greeting = ui.AppStorage("inbox.greeting", "Hello") },   -- kept in the host's SQLite file
  body = function(self)
    return ui.HStack {
      ui.Text(("%s: %d unread"):format(self.greeting, inbox.unreadCount)),
      ui.Button("Greet", function() self.greeting = "Hi" end),
    }
  end,
})

return ui.View("InboxView", function()
  local rows = {}
  for _, message in ipairs(inbox.messages) do
    if message.folder == "inbox" then rows[#rows + 1] = MessageRow { message = message }:id(message.subject) end
  end
  return ui.VStack {
    Header {},
    ui.VStack(rows),
    ui.Button("Mark all read", function() inbox:markAllRead("inbox") end),
    ui.Button("Archive read", function() inbox:archiveRead() end),
  }
end)()
