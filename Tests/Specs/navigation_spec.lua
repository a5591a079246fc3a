-- Navigation and presentations (issue 12, T07): NavigationStack with a path,
-- NavigationLink, alert, and sheet(item:).
local ui = require("lunette")

local Detail = ui.View("NavDetail", { environment = { dismiss = "dismiss" }, body = function(self)
  return ui.VStack { ui.Text("detail " .. self.title), ui.Button("back from " .. self.title, function() self.dismiss() end) }
end })

local function library(seen)
  return ui.View("NavLibrary", { state = { path = {} }, body = function(self)
    seen.path = self.path
    return ui.NavigationStack(self["$path"], {
      ui.Text("depth " .. #self.path),
      ui.NavigationLink("Dune", Detail { title = "Dune" }),
      ui.NavigationLink("Emma", "Emma"),                    -- a value: the stack's destination makes the view
    }, function(title) return Detail { title = title } end)
  end })
end

-- dismiss: "An action that dismisses the current presentation." "You can use
-- this action to: Dismiss a modal presentation, like a sheet or a popover.
-- Pop the current view from a NavigationStack."
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/dismiss).
-- A pushed screen's dismiss pops it; a sheet's sets its binding false (nil
-- for sheet(item:)). It has no effect outside a presentation (see
-- "dismiss outside a presentation" below).
describe("Navigation", function()
  it("T07 a NavigationLink pushes its destination onto the stack's path; dismiss pops it", function()
    local seen = {}
    local app = ui.mount(library(seen) {})
    assert.is_nil(app:find("detail Dune"))
    app:find("Dune"):tapLink()
    assert.truthy(app:find("detail Dune"))
    assert.truthy(app:find("depth 1"))
    app:find("Emma"):tapLink()
    assert.truthy(app:find("detail Emma"))
    assert.equal("Emma", seen.path[2])                     -- the path holds the value pushed
    app:find("back from Emma"):tap()
    assert.is_nil(app:find("detail Emma"))
    assert.truthy(app:find("detail Dune"))
    app:find("Emma"):tapLink()
    app:find("back from Dune"):tap()                        -- popping a screen pops what is above it
    assert.truthy(app:find("depth 0"))
    assert.is_nil(app:find("detail Emma"))
    app:unmount()
  end)

  it("T07 writing the path pushes and pops, as NavigationStack(path:) does", function()
    local Nav = ui.View("NavWritten", { state = { path = {} }, body = function(self)
      return ui.VStack {
        ui.NavigationStack(self["$path"], { ui.Text("root") }, function(n) return ui.Text("screen " .. n) end),
        ui.Button("deep", function() self.path = { 1, 2, 3 } end),
        ui.Button("home", function() self.path = {} end),
      }
    end })
    local app = ui.mount(Nav {})
    app:find("deep"):tap()
    assert.truthy(app:find("screen 3"))
    assert.equal(3, #app:findAll{ type = "Text" } - 1)
    app:find("home"):tap()
    assert.is_nil(app:find("screen 1"))
    app:unmount()
  end)

  it("T07 a stack without a path keeps its own; a link outside any stack is an error naming it", function()
    local app = ui.mount(ui.NavigationStack { ui.NavigationLink("Go", ui.Text("gone there")) })
    app:find("Go"):tapLink()
    assert.truthy(app:find("gone there"))
    app:unmount()
    local lost = ui.mount(ui.VStack { ui.NavigationLink("Lost", ui.Text("x")) })
    assert.error_matches(function() lost:find("Lost"):tapLink() end, "NavigationLink 'Lost' is not inside a NavigationStack", 1, true)
    lost:unmount()
    local noDestination = ui.mount(ui.View("NavNoDestination", { state = { path = { 7 } }, body = function(self)
      return ui.NavigationStack(self["$path"], { ui.Text("root") })
    end }) {})
    assert.has_error_node(noDestination, "element 1 of the path is a number, and the stack has no destination")
    noDestination:unmount()
  end)
end)

-- alert(_:isPresented:actions:): "All actions in an alert dismiss the alert
-- after the action runs."; dismiss, for sheet(item:)'s content: "Dismiss a
-- modal presentation, like a sheet or a popover."
-- (https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:actions:)-1bkka,
--  https://developer.apple.com/documentation/swiftui/environmentvalues/dismiss).
describe("Presentations", function()
  it("T07 an alert shows its title and buttons while its binding is true; any button runs and dismisses it", function()
    local deleted = 0
    local V = ui.View("NavAlert", { state = { confirming = false }, body = function(self)
      return ui.Button("delete", function() self.confirming = true end)
        :alert("Delete the book?", self["$confirming"], {
          ui.Button("Delete", function() deleted = deleted + 1 end),
          ui.Button("Cancel", function() end),
        })
    end })
    local app = ui.mount(V {})
    assert.is_nil(app:find("Delete the book?"))
    app:find("delete"):tap()
    assert.truthy(app:find{ type = "Alert" })
    assert.equal("Delete the book?", app:find{ type = "Alert" }.text)
    app:find("Delete"):tap()
    assert.equal(1, deleted)
    assert.is_nil(app:find{ type = "Alert" })
    app:find("delete"):tap()
    app:find("Cancel"):tap()
    assert.equal(1, deleted)
    assert.is_nil(app:find{ type = "Alert" })
    assert.error_matches(function() ui.Text("x"):alert("t", ui.Binding.constant(true), { ui.Text("no") }) end,
      "action 1 must be a ui.Button, got Text", 1, true)
    app:unmount()
  end)

  it("T07 sheet(item:) presents content(item) while the binding holds one; dismiss sets it nil", function()
    local Editor = ui.View("NavEditor", { state = { draft = "" }, environment = { dismiss = "dismiss" }, body = function(self)
      return ui.VStack {
        ui.Text("editing " .. self.book .. " draft=" .. self.draft),
        ui.Button("type", function() self.draft = "x" end),
        ui.Button("done", function() self.dismiss() end),
      }
    end })
    local V = ui.View("NavItemSheet", { state = { selected = ui.none }, body = function(self)
      return ui.VStack {
        ui.Button("open Dune", function() self.selected = "Dune" end),
        ui.Button("open Emma", function() self.selected = "Emma" end),
        ui.Text("selected " .. tostring(self.selected)),
      }:sheet({ item = self["$selected"] }, function(book) return Editor { book = book } end)
    end })
    local app = ui.mount(V {})
    assert.is_nil(app:find{ type = "Sheet" })
    app:find("open Dune"):tap()
    app:find("type"):tap()
    assert.truthy(app:find("editing Dune draft=x"))
    app:find("open Emma"):tap()                              -- another item: another sheet, fresh state
    assert.truthy(app:find("editing Emma draft="))
    app:find("done"):tap()
    assert.is_nil(app:find{ type = "Sheet" })
    assert.truthy(app:find("selected nil"))
    app:unmount()
  end)
end)

-- sheet(isPresented:onDismiss:content:) and sheet(item:onDismiss:content:):
-- "onDismiss: The closure to execute when dismissing the sheet"
-- (https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)).
describe("D08 Sheets' onDismiss", function()
  it("runs once each time the sheet goes, for both forms; not while it stays", function()
    local log = {}
    local V = ui.View("Dismisser", { state = { show = false, sel = ui.none, n = 0 }, body = function(self)
      return ui.VStack {
        ui.Text("n " .. self.n),
        ui.Button("show", function() self.show = true end)
          :sheet(self["$show"], function()
            return ui.VStack { ui.Button("close", function() self.show = false end),
                               ui.Button("bump", function() self.n = self.n + 1 end) }
          end, { onDismiss = function() log[#log + 1] = "show" end }),
        ui.Button("pick", function() self.sel = "a" end)
          :sheet({ item = self["$sel"], onDismiss = function() log[#log + 1] = "item" end }, function(item)
            return ui.Button("done " .. item, function() self.sel = nil end)
          end),
      }
    end })
    local app = ui.mount(V {})
    app:find("show"):tap()
    app:find("bump"):tap()                        -- re-renders while shown: nothing dismissed
    assert.same({}, log)
    app:find("close"):tap()
    assert.same({ "show" }, log)
    app:find("pick"):tap()
    app:find("done a"):tap()
    assert.same({ "show", "item" }, log)
    app:unmount()
  end)

  -- sheet(item:onDismiss:content:): "If `item` changes, the system dismisses
  -- the sheet and replaces it with a new one using the same process."
  -- (https://developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:));
  -- fullScreenCover(item:onDismiss:content:) and popover(item:…) say the same
  -- (https://developer.apple.com/documentation/swiftui/view/fullscreencover(item:ondismiss:content:),
  --  https://developer.apple.com/documentation/swiftui/view/popover(item:attachmentanchor:arrowedge:content:)).
  it("D08 an item that changes to another dismisses the sheet (onDismiss once) and presents a fresh one", function()
    for _, how in ipairs({ "sheet", "fullScreenCover", "popover" }) do
      local log, appeared = {}, {}
      local Content = ui.View("D08ItemContent" .. how, { state = { taps = 0 }, body = function(self)
        local name = type(self.item) == "string" and self.item or self.item.id   -- a table comes tracked
        return ui.Button(name .. " taps " .. self.taps, function() self.taps = self.taps + 1 end)
          :onAppear(function() appeared[#appeared + 1] = name end)
      end })
      local V = ui.View("D08ItemSwap" .. how, { state = { sel = ui.none, n = 0 }, body = function(self)
        local function set(v) return function() self.sel = v end end
        local host = ui.Text("n " .. self.n)
        return ui.VStack {
          host[how](host, { item = self["$sel"], onDismiss = function() log[#log + 1] = "dismissed" end },
            function(item) return Content { item = item } end),
          ui.Button("to a", set("a")), ui.Button("to b", set("b")),
          ui.Button("to c", set({ id = "c" })), ui.Button("to c edited", set({ id = "c", note = "edited" })),
          ui.Button("clear", set(nil)), ui.Button("bump", function() self.n = self.n + 1 end),
        }
      end })
      local app = ui.mount(V {})
      app:find("to a"):tap()
      app:find("a taps 0"):tap()
      assert.truthy(app:find("a taps 1"), how)
      assert.same({}, log, how)
      app:find("to b"):tap()                             -- another item: the "a" sheet goes, a fresh "b" one comes
      assert.same({ "dismissed" }, log, how)
      assert.truthy(app:find("b taps 0"), how)           -- its state is new
      assert.same({ "a", "b" }, appeared, how)
      app:find("to b"):tap()                             -- the same item: nothing
      app:find("bump"):tap()                             -- a re-render with the same item: nothing
      assert.same({ "dismissed" }, log, how)
      app:find("to c"):tap()
      assert.same({ "dismissed", "dismissed" }, log, how)
      app:find("to c edited"):tap()                      -- the same id: the same item (Identifiable)
      assert.same({ "dismissed", "dismissed" }, log, how)
      assert.same({ "a", "b", "c" }, appeared, how)
      app:find("clear"):tap()
      assert.same({ "dismissed", "dismissed", "dismissed" }, log, how)
      assert.is_nil(app:find { type = "Sheet" }, how)
      app:unmount()
    end
  end)

  it("refuses an option it does not know, an onDismiss that is not a function, and a second sheet on one view", function()
    local b = ui.Binding.constant(false)
    assert.error_matches(function() ui.Text("x"):sheet(b, ui.Text("s"), { onDismis = print }) end,
      "unknown option 'onDismis' (did you mean 'onDismiss'?)", 1, true)
    assert.error_matches(function() ui.Text("x"):sheet(b, ui.Text("s"), { onDismiss = 1 }) end,
      "onDismiss must be a function", 1, true)
    assert.error_matches(function() ui.Text("x"):sheet(b, ui.Text("s")):sheet(b, ui.Text("t")) end,
      "view:sheet: this view presents a sheet already", 1, true)
  end)
end)

-- alert(_:isPresented:actions:message:) shows its message; Button(_:role:action:)
-- gives a button the role cancel or destructive
-- (https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:actions:message:)-8dvt8,
--  https://developer.apple.com/documentation/swiftui/buttonrole).
describe("D08 Alert messages and button roles", function()
  it("an alert shows its message; its buttons keep their roles; any button dismisses it", function()
    local deleted = false
    local V = ui.View("Deleter", { state = { ask = true }, body = function(self)
      return ui.Text("book"):alert("Delete the book?", self["$ask"], {
        ui.Button("Delete", function() deleted = true end, { role = "destructive" }),
        ui.Button("Cancel", function() end, { role = "cancel" }),
      }, "This cannot be undone.")
    end })
    local app = ui.mount(V {})
    local tree = app:tree()
    assert.matches('Alert "Delete the book?" message="This cannot be undone."', tree, 1, true)
    assert.matches('Button "Delete" role="destructive"', tree, 1, true)
    assert.matches('Button "Cancel" role="cancel"', tree, 1, true)
    app:find("Delete"):tap()
    assert.is_true(deleted)
    assert.is_nil(app:find { type = "Alert" })
    app:unmount()
  end)

  it("refuses a role it does not know, an option it does not know, and a second alert on one view", function()
    assert.error_matches(function() ui.Button("x", function() end, { role = "dangerous" }) end,
      'ui.Button: its role is "cancel" or "destructive", got "dangerous"', 1, true)
    -- before: "bad argument #3 to 'Button' (invalid option 'cancle')", naming neither the role nor the fix
    assert.error_matches(function() ui.Button("x", function() end, { role = "cancle" }) end,
      [[ui.Button: its role is "cancel" or "destructive", got "cancle" (did you mean 'cancel'?)]], 1, true)
    assert.error_matches(function() ui.Button("x", function() end, { rol = "cancel" }) end,
      "ui.Button: unknown option 'rol' (did you mean 'role'?)", 1, true)
    local b = ui.Binding.constant(false)
    assert.error_matches(function() ui.Text("x"):alert("a", b):alert("b", b) end,
      "view:alert: this view presents an alert already", 1, true)
  end)
end)

-- alert(_:isPresented:actions:): "If no actions are present, the system
-- includes a standard “OK” action. No default cancel action is provided."
-- (https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:actions:)-1bkka).
-- Lunette's OK has no role and, as every alert button, dismisses the alert.
describe("D08 An alert with no actions", function()
  it("D08 shows one OK button, with no role, that dismisses it; no actions and an empty list are the same", function()
    local V = ui.View("Notice", { state = { saved = false, cleared = false }, body = function(self)
      return ui.VStack {
        ui.Button("save", function() self.saved = true end):alert("Saved", self["$saved"]),
        ui.Button("clear", function() self.cleared = true end):alert("Cleared", self["$cleared"], {}, "Nothing is left."),
        ui.Text("saved " .. tostring(self.saved) .. " cleared " .. tostring(self.cleared)),
      }
    end })
    local app = ui.mount(V {})
    app:find("save"):tap()
    assert.equal('Alert "Saved"\n  Button "OK"\n', app:find { type = "Alert" }:tree())
    app:find("OK"):tap()
    assert.is_nil(app:find { type = "Alert" })
    assert.truthy(app:find("saved false cleared false"))
    app:find("clear"):tap()
    assert.equal('Alert "Cleared" message="Nothing is left."\n  Button "OK"\n', app:find { type = "Alert" }:tree())
    app:find("OK"):tap()
    assert.is_nil(app:find { type = "Alert" })
    assert.truthy(app:find("saved false cleared false"))
    app:unmount()
  end)

  it("D08 an alert with actions gets no OK and no Cancel added", function()
    local app = ui.mount(ui.Text("x"):alert("Leave?", ui.Binding.constant(true), { ui.Button("Leave", function() end) }))
    assert.equal('Alert "Leave?"\n  Button "Leave"\n', app:find { type = "Alert" }:tree())
    app:unmount()
  end)
end)

-- fullScreenCover(isPresented:onDismiss:content:) and popover(isPresented:…)
-- present as a sheet does, with the same forms (isPresented, item) and
-- onDismiss; confirmationDialog(_:isPresented:titleVisibility:actions:message:)
-- is an alert whose "dialogs include a standard dismiss action by default.
-- If you provide a button with a role of cancel, that button takes the
-- place of the default dismiss action."
-- https://developer.apple.com/documentation/swiftui/view/fullscreencover(ispresented:ondismiss:content:)
-- https://developer.apple.com/documentation/swiftui/view/popover(ispresented:attachmentanchor:arrowedge:content:)
-- https://developer.apple.com/documentation/swiftui/view/confirmationdialog(_:ispresented:titlevisibility:actions:message:)-9ibgk
describe("D08 Presentations: fullScreenCover, popover, confirmationDialog", function()
  it("D08 a fullScreenCover and a popover present as sheets: shown while true, onDismiss once, dismiss inside", function()
    local log = {}
    local Closer = ui.View("CoverCloser", { environment = { dismiss = "dismiss" }, body = function(self)
      return ui.Button("close", function() self.dismiss() end)
    end })
    local V = ui.View("Covering", { state = { cover = false, tip = ui.none }, body = function(self)
      return ui.VStack {
        ui.Button("cover", function() self.cover = true end)
          :fullScreenCover(self["$cover"], Closer {}, { onDismiss = function() log[#log + 1] = "cover" end }),
        ui.Button("tip", function() self.tip = "hint" end)
          :popover({ item = self["$tip"], onDismiss = function() log[#log + 1] = "tip" end }, function(tip)
            return ui.Button("tip: " .. tip, function() self.tip = nil end)
          end),
      }
    end })
    local app = ui.mount(V {})
    assert.is_nil(app:find { type = "Sheet" })
    app:find("cover"):tap()
    assert.matches('Sheet style="fullScreenCover"', app:tree(), 1, true)
    app:find("close"):tap()
    assert.is_nil(app:find { type = "Sheet" })
    app:find("tip"):tap()
    assert.matches('Sheet style="popover"', app:tree(), 1, true)
    app:find("tip: hint"):tap()
    assert.is_nil(app:find { type = "Sheet" })
    assert.same({ "cover", "tip" }, log)
    app:unmount()
  end)

  it("D08 a confirmationDialog shows its title, message and buttons with roles, and a standard Cancel", function()
    local discarded = 0
    local V = ui.View("Discarder", { state = { asking = false }, body = function(self)
      return ui.Button("discard", function() self.asking = true end)
        :confirmationDialog("Discard the draft?", self["$asking"], {
          ui.Button("Discard", function() discarded = discarded + 1 end, { role = "destructive" }),
        }, "It cannot be undone.")
    end })
    local app = ui.mount(V {})
    app:find("discard"):tap()
    local tree = app:tree()
    assert.matches('Alert "Discard the draft?" style="confirmationDialog" message="It cannot be undone."', tree, 1, true)
    assert.matches('Button "Discard" role="destructive"', tree, 1, true)
    assert.matches('Button "Cancel" role="cancel"', tree, 1, true)
    app:find("Cancel"):tap()
    assert.is_nil(app:find { type = "Alert" })
    assert.equal(0, discarded)
    app:find("discard"):tap()
    app:find("Discard"):tap()
    assert.equal(1, discarded)
    assert.is_nil(app:find { type = "Alert" })
    app:unmount()
  end)

  it("D08 a dialog's own cancel button takes the place of the standard one", function()
    local app = ui.mount(ui.Text("x"):confirmationDialog("Leave?", ui.Binding.constant(true), {
      ui.Button("Leave", function() end, { role = "destructive" }),
      ui.Button("Stay", function() end, { role = "cancel" }),
    }))
    assert.equal(2, #app:findAll { type = "Button" })
    assert.truthy(app:find("Stay"))
    assert.is_nil(app:find("Cancel"))
    app:unmount()
  end)

  it("D08 a second presentation on one view, a bad option, title or binding is an error naming the call and the value", function()
    local b = ui.Binding.constant(false)
    local ok, err = pcall(function() ui.Text("x"):sheet(b, ui.Text("s")):popover(b, ui.Text("p")) end)
    assert.is_false(ok)
    assert.matches("navigation_spec.lua:%d+: view:popover: this view presents a sheet already", err)
    ok, err = pcall(function() ui.Text("x"):fullScreenCover(b, ui.Text("s"), { onDismis = print }) end)
    assert.matches("view:fullScreenCover: unknown option 'onDismis' %(did you mean 'onDismiss'%?%)", err)
    ok, err = pcall(function() ui.Text("x"):confirmationDialog("Leave?", true, {}) end)
    assert.matches("navigation_spec.lua:%d+: view:confirmationDialog%(\"Leave%?\", …%): isPresented must be a Binding", err)
    ok, err = pcall(function() ui.Text("x"):alert("a", b):confirmationDialog("b", b, {}) end)
    assert.matches("view:confirmationDialog: this view presents an alert already", err)
    ok, err = pcall(function() ui.Text("x"):confirmationDialog(nil, b, {}) end)
    assert.matches("view:confirmationDialog: the title must be a string, got nil", err)
  end)
end)

-- dismiss: "The dismiss action has no effect on a view that isn’t currently
-- presented." And, for a dismiss read by the view that presents a sheet and
-- called from the sheet's content: "the sheet fails to dismiss because the
-- action applies to the environment where you declared it"
-- (https://developer.apple.com/documentation/swiftui/environmentvalues/dismiss).
describe("dismiss outside a presentation", function()
  it("does nothing in a view that is not presented: a mounted view, a stack's root", function()
    local Root = ui.View("NotPresented", { state = { n = 0 }, environment = { dismiss = "dismiss", shown = "isPresented" },
      body = function(self)
        return ui.VStack {
          ui.Text("n " .. self.n .. " presented " .. tostring(self.shown)),
          ui.Button("dismiss", function() self.dismiss(); self.n = self.n + 1 end),
        }
      end })
    local app = ui.mount(Root {})
    app:find("dismiss"):tap()
    assert.truthy(app:find("n 1 presented false"))               -- it ran, returned, and changed nothing
    app:unmount()

    local Stack = ui.View("DismissAtRoot", { state = { path = { "Dune" } }, body = function(self)
      return ui.NavigationStack(self["$path"], { Root {} }, function(title) return ui.Text("screen " .. title) end)
    end })
    local nav = ui.mount(Stack {})
    assert.truthy(nav:find("screen Dune"))
    nav:find("dismiss"):tap()                                     -- the root view is not presented: nothing is popped
    assert.truthy(nav:find("n 1 presented false"))
    assert.truthy(nav:find("screen Dune"))
    nav:unmount()
  end)

  it("does not dismiss a sheet when the view that presents it calls its own dismiss from the sheet's content", function()
    local Presenter = ui.View("DismissDeclaredOutside", { state = { shown = false }, environment = { dismiss = "dismiss" },
      body = function(self)
        return ui.Button("Show Sheet", function() self.shown = true end)
          :sheet(self["$shown"], ui.Button("Done", function() self.dismiss() end))   -- Fails to dismiss the sheet.
      end })
    local app = ui.mount(Presenter {})
    app:find("Show Sheet"):tap()
    assert.truthy(app:find { type = "Sheet" })
    app:find("Done"):tap()
    assert.truthy(app:find { type = "Sheet" })
    assert.truthy(app:find("Done"))
    app:unmount()
  end)
end)
