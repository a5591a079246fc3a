"""Browser tests of the preview as a person uses it (issue 20): typing at a
person's pace into a field while frames arrive, navigating a stack and back,
and clicks that race a frame.

Run as the other browser tests: `source scripts/browser-setup; python3 -m
unittest discover -s Tests/Browser -p "test_*.py" -v`.
"""
import json
import re
import time
import unittest

from playwright.sync_api import expect

from test_preview import previewing

TODO = """
local ui = require("lunette")
return ui.View("Todo", { state = { title = "" }, body = function(self)
  return ui.VStack {
    ui.TextField("New task", self["$title"]),
    ui.Text("echo: " .. self.title),
  }
end })()
"""

# A clock ticking in another view: frames keep arriving while a person types.
TICKING = """
local ui = require("lunette")
local Clock = ui.View("Clock", { state = { ticks = 0 }, body = function(self)
  return ui.Text("ticks " .. self.ticks):task(function()
    while true do ui.sleep(0.05); self.ticks = self.ticks + 1 end
  end)
end })
return ui.View("Form", { state = { title = "", volume = 0.5, flavor = "vanilla", count = 1 }, body = function(self)
  return ui.VStack {
    Clock {},
    ui.Stepper("Count", self["$count"], { 1, 5 }),
    ui.TextField("New task", self["$title"]),
    ui.Slider(self["$volume"], { 0, 1 }),
    ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
    ui.Text("echo: " .. self.title),
  }
end })()
"""

LIBRARY = """
local ui = require("lunette")
local Detail = ui.View("BookDetail", { body = function(self)
  return ui.VStack { ui.Text("by " .. self.author) }:navigationTitle(self.title)
end })
local authors = { Dune = "Herbert", Emma = "Austen" }
return ui.View("Library", { state = { path = {} }, body = function(self)
  return ui.NavigationStack(self["$path"], {
    ui.List({ "Dune", "Emma" }, function(t) return ui.NavigationLink(t, t) end):navigationTitle("Books"),
  }, function(t) return Detail { title = t, author = authors[t] } end)
end })()
"""

# A stack that keeps its own path, pushed by a link to a view (no values).
OWN_PATH = """
local ui = require("lunette")
local Detail = ui.View("BookDetail", { body = function(self)
  return ui.Text("about " .. self.title):navigationTitle(self.title)
end })
return ui.NavigationStack {
  ui.VStack { ui.NavigationLink("Dune", Detail { title = "Dune" }) }:navigationTitle("Books"),
}
"""

# A stack pushed two values deep; a title with a comma in it.
DEEP = """
local ui = require("lunette")
local Detail = ui.View("BookDetail", { body = function(self)
  return ui.VStack { ui.Text("about " .. self.title), ui.NavigationLink("More", self.title .. "+") }:navigationTitle(self.title)
end })
return ui.View("Library", { state = { path = {} }, body = function(self)
  return ui.NavigationStack(self["$path"], {
    ui.VStack { ui.NavigationLink("Emma, 2nd", "Emma, 2nd"), ui.Button("fail", function() error("no such book") end) },
  }, function(t) return Detail { title = t } end)
end })()
"""

# A view whose name holds a dot; titles holding a quote and a comma.
DOTTED = """
local ui = require("lunette")
local Detail = ui.View("Book.Detail", { body = function(self)
  return ui.VStack { ui.Text("about " .. self.title), ui.NavigationLink("More", self.title .. "+") }:navigationTitle(self.title)
end })
return ui.View("My.Library", { state = { path = {} }, body = function(self)
  return ui.NavigationStack(self["$path"], {
    ui.VStack { ui.NavigationLink("plain", "plain"), ui.NavigationLink("odd", 'a", "b'), ui.Text("depth " .. #self.path) },
  }, function(t) return Detail { title = t } end)
end })()
"""

ROWS = """
local ui = require("lunette")
return ui.View("Rows", { state = { rows = { "A", "B", "C" } }, body = function(self)
  local rows = self.rows
  local views = { ui.Text("rows " .. table.concat(rows, "")) }
  for i, r in ipairs(rows) do
    views[#views + 1] = ui.Button("remove " .. r, function()
      local kept = {}
      for _, other in ipairs(self.rows) do if other ~= r then kept[#kept + 1] = other end end
      self.rows = kept
    end)
  end
  return ui.VStack(views)
end })()
"""


def timeline_errors(page):
    return [t for t in page.locator("#timeline .error").all_inner_texts()]


class TypingTests(unittest.TestCase):
    """Item 1: a field keeps focus, caret and what was typed while frames arrive."""

    def type_into_todo(self, delay):
        with previewing(TODO, "todo.lua") as page:
            field = page.locator("input[placeholder='New task']")
            field.click()
            field.press_sequentially("Walk the dog", delay=delay)
            expect(page.locator("span", has_text=re.compile("^echo: Walk the dog$"))).to_be_visible()
            expect(field).to_have_value("Walk the dog")
            expect(field).to_be_focused()
            self.assertEqual(timeline_errors(page), [])

    def test_typing_at_a_persons_pace_keeps_every_character_and_the_focus(self):
        self.type_into_todo(150)

    def test_typing_fast_keeps_every_character_and_the_focus(self):
        self.type_into_todo(0)

    def test_the_caret_and_selection_stay_where_the_person_put_them(self):
        with previewing(TODO, "todo.lua") as page:
            field = page.locator("input[placeholder='New task']")
            field.click()
            field.press_sequentially("Walk dog", delay=60)
            expect(page.locator("span", has_text=re.compile("^echo: Walk dog$"))).to_be_visible()
            for _ in range(3):
                field.press("ArrowLeft")
            field.press_sequentially("the ", delay=150)   # typed in the middle, each key a frame
            expect(page.locator("span", has_text=re.compile("^echo: Walk the dog$"))).to_be_visible()
            expect(field).to_be_focused()
            self.assertEqual(field.evaluate("el => [el.selectionStart, el.selectionEnd]"), [9, 9])

    def test_controls_in_use_are_not_rebuilt_while_other_views_tick(self):
        with previewing(TICKING, "form.lua") as page:
            expect(page.locator("span", has_text=re.compile(r"^ticks [1-9]"))).to_be_visible()
            field = page.locator("input[placeholder='New task']")
            field.click()
            field.press_sequentially("Walk the dog", delay=40)
            expect(page.locator("span", has_text=re.compile("^echo: Walk the dog$"))).to_be_visible()
            expect(field).to_be_focused()
            # the same elements stay while frames arrive (a rebuilt one would lose these marks)
            page.evaluate("""() => { document.querySelector("input[type=range]").dataset.kept = "yes";
                                     document.querySelector("select").dataset.kept = "yes"; }""")
            page.locator("select").focus()
            ticks = page.locator("span", has_text=re.compile(r"^ticks ")).inner_text()
            expect(page.locator("span", has_text=re.compile(r"^ticks "))).not_to_have_text(ticks)
            expect(page.locator("select")).to_be_focused()
            self.assertEqual(page.evaluate("document.querySelector('input[type=range]').dataset.kept"), "yes")
            self.assertEqual(page.evaluate("document.querySelector('select').dataset.kept"), "yes")
            page.locator("select").select_option(label="chocolate")
            page.locator("input[type=range]").evaluate("el => { el.value = 0.25; el.dispatchEvent(new Event('change')) }")
            time.sleep(0.3)
            expect(page.locator("select")).to_have_value("1")
            expect(page.locator("input[type=range]")).to_have_value("0.25")
            self.assertEqual(page.evaluate("document.querySelector('select').dataset.kept"), "yes")
            # a slider held under the pointer is not moved by frames until it is let go
            slider = page.locator("input[type=range]")
            box = slider.bounding_box()
            page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
            page.mouse.down()
            page.mouse.move(box["x"] + box["width"] * 0.9, box["y"] + box["height"] / 2)
            time.sleep(0.3)                                # frames arrive from the clock meanwhile
            self.assertGreater(float(slider.input_value()), 0.7)
            self.assertEqual(slider.evaluate("el => el.dataset.dragging"), "yes")
            page.mouse.up()
            self.assertIsNone(slider.evaluate("el => el.dataset.dragging || null"))
            # a stepper's buttons stay, focused, while its label follows the value
            plus = page.locator("button", has_text="+")
            plus.evaluate("el => { el.dataset.kept = 'yes' }")
            plus.click()
            expect(page.locator(".Stepper")).to_contain_text("Count: 2")
            expect(plus).to_be_focused()
            self.assertEqual(plus.evaluate("el => el.dataset.kept"), "yes")


class NavigationTests(unittest.TestCase):
    """Item 2: a NavigationStack is drawn as a stack: the top screen alone,
    its title, a back control that pops."""

    def test_a_pushed_screen_replaces_the_list_with_its_title_and_back_pops_it(self):
        with previewing(LIBRARY, "library.lua") as page:
            expect(page.locator("button", has_text="Dune")).to_be_visible()
            expect(page.locator(".navtitle", has_text="Books")).to_be_visible()
            expect(page.get_by_role("button", name="Back")).to_have_count(0)
            page.locator("button", has_text="Dune").click()
            expect(page.locator("span", has_text="by Herbert")).to_be_visible()
            expect(page.locator(".navtitle:visible", has_text=re.compile("^Dune$"))).to_have_count(1)   # once, above the screen
            expect(page.locator("button", has_text="Emma")).to_be_hidden()    # the list is not drawn below
            expect(page.locator(".navtitle", has_text="Books")).to_be_hidden()
            back = page.get_by_role("button", name="Back")
            expect(back).to_be_visible()
            expect(back).to_contain_text("Books")                              # it names the screen it goes back to
            back.click()
            expect(page.locator("button", has_text="Emma")).to_be_visible()
            expect(page.locator("span", has_text="by Herbert")).to_have_count(0)
            expect(page.get_by_role("button", name="Back")).to_have_count(0)
            page.locator("button", has_text="Emma").click()
            expect(page.locator("span", has_text="by Austen")).to_be_visible()
            self.assertEqual(timeline_errors(page), [])

    def test_a_stack_keeping_its_own_path_of_views_pops_too(self):
        with previewing(OWN_PATH, "own.lua") as page:
            page.locator("button", has_text="Dune").click()
            expect(page.locator("span", has_text="about Dune")).to_be_visible()
            expect(page.locator("button", has_text="Dune")).to_be_hidden()
            page.get_by_role("button", name="Back").click()
            expect(page.locator("button", has_text="Dune")).to_be_visible()
            expect(page.locator("span", has_text="about Dune")).to_have_count(0)
            self.assertEqual(timeline_errors(page), [])


    def test_back_pops_one_screen_at_a_time(self):
        with previewing(DEEP, "deep.lua") as page:
            page.locator("button", has_text="Emma, 2nd").click()
            page.locator("button:visible", has_text="More").click()
            expect(page.locator("span", has_text=re.compile(r"^about Emma, 2nd\+$"))).to_be_visible()
            back = page.get_by_role("button", name="Back")
            expect(back).to_contain_text("Emma, 2nd")
            back.click()
            expect(page.locator("span", has_text=re.compile(r"^about Emma, 2nd$"))).to_be_visible()
            expect(page.locator("span", has_text=re.compile(r"^about Emma, 2nd\+$"))).to_have_count(0)
            page.get_by_role("button", name="Back").click()
            expect(page.locator("button", has_text="fail")).to_be_visible()
            self.assertEqual(timeline_errors(page), [])


    def test_a_dotted_view_name_pops_and_a_path_it_cannot_write_back_is_left_as_it_is(self):
        # A hostile read: the state's owner was found by splitting the view's
        # label at dots, and a path element holding `", "` was written back
        # as two elements.
        with previewing(DOTTED, "dotted.lua") as page:
            page.locator("button", has_text="plain").click()
            page.locator("button:visible", has_text="More").click()
            expect(page.locator("span", has_text=re.compile(r"^about plain\+$"))).to_be_visible()
            page.get_by_role("button", name="Back").click()
            expect(page.locator("span", has_text=re.compile(r"^about plain$"))).to_be_visible()
            page.get_by_role("button", name="Back").click()
            expect(page.locator("span", has_text="depth 0")).to_be_visible()
            self.assertEqual(timeline_errors(page), [])
            page.locator("button", has_text="odd").click()
            page.locator("button:visible", has_text="More").click()
            expect(page.locator("span", has_text='about a", "b+')).to_be_visible()
            page.get_by_role("button", name="Back").click()
            expect(page.locator("#timeline")).to_contain_text("back: the preview pops paths of strings")
            expect(page.locator("span", has_text='about a", "b+')).to_be_visible()   # left as it was, not split in two


MANY_ROWS = """
local ui = require("lunette")
local Row = ui.View("Row", { inputs = { "i" }, body = function(self) return ui.Text("row " .. self.i) end })
local Tick = ui.View("Tick", { state = { n = 0 }, body = function(self)
  return ui.Button("tick " .. self.n, function() self.n = self.n + 1 end)
end })
return ui.View("Many", { body = function()
  local kids = { Tick {} }
  for i = 1, 2000 do kids[#kids + 1] = Row { i = i } end
  return ui.VStack(kids)
end })()
"""


class PatchTests(unittest.TestCase):
    """A frame costs what changed: when the views that ran are views the
    page drew, the server sends their subtrees (a patch), not every view
    (a hostile read: 20,000 rows and a ticking text sent 3 MB a frame)."""

    def test_a_view_that_runs_among_many_is_sent_alone(self):
        with previewing(MANY_ROWS, "many.lua") as page:
            received = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(payload)))
            page.reload()
            expect(page.locator("span", has_text="row 2000")).to_be_visible()
            for n in range(1, 4):
                page.locator("button", has_text=f"tick {n - 1}").click()
                expect(page.locator("button", has_text=f"tick {n}")).to_be_visible()
            messages = [json.loads(m) for m in received if isinstance(m, str)]
            frames = [m for m in messages if m.get("type") == "frame"]
            patches = [m for m in messages if m.get("type") == "patch"]
            self.assertGreaterEqual(len(patches), 3, [m.get("type") for m in messages])
            big = max(len(json.dumps(f)) for f in frames)
            for p in patches:
                self.assertEqual([n["view"] for n in p["nodes"]], ["Tick#1"])
                self.assertLess(len(json.dumps(p)), big / 50)
            expect(page.locator("span", has_text=re.compile(r"^row 1$"))).to_have_count(1)   # the rest stands as it was
            expect(page.locator("span", has_text=re.compile(r"^row \d+$"))).to_have_count(2000)
            self.assertEqual(timeline_errors(page), [])


    def test_a_row_that_runs_alone_and_a_new_row_are_sent_with_their_list_not_every_view(self):
        # A row's run, or a view that runs with a new row, sent every app
        # whole (2,000 other views here); a row is drawn at its list's
        # place, and a new view inside a subtree sent goes with it.
        script = """
local ui = require("lunette")
local Item = ui.Observable("Item", { title = "" })
local items = { Item { title = "item 1" }, Item { title = "item 2" } }
local Top = ui.View("Top", { state = { n = 2 }, body = function(self)
  local shown = {}
  for i = 1, self.n do shown[i] = items[i] end
  return ui.VStack {
    ui.Button("rename", function() items[1].title = items[1].title .. "!" end),
    ui.Button("add", function() items[self.n + 1] = Item { title = "item " .. (self.n + 1) }; self.n = self.n + 1 end),
    ui.List(shown, function(item) return ui.Text(item.title) end),
  }
end })
local Big = ui.View("Big", function()
  local t = {}
  for i = 1, 2000 do t[i] = ui.Text("filler " .. i) end
  return ui.VStack(t)
end)
return ui.VStack { Top {}, Big {} }
"""
        with previewing(script, "rowpatch.lua") as page:
            received = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(payload)))
            page.reload()
            expect(page.locator("span", has_text="filler 2000")).to_be_visible()
            big = max(len(m) for m in received if isinstance(m, str))
            received.clear()
            page.locator("button", has_text="rename").click()
            expect(page.locator("span", has_text="item 1!")).to_be_visible()
            page.locator("button", has_text="add").click()
            expect(page.locator("span", has_text="item 3")).to_be_visible()
            page.locator("button", has_text="rename").click()
            expect(page.locator("span", has_text="item 1!!")).to_be_visible()
            page.wait_for_timeout(300)
            messages = [json.loads(m) for m in received if isinstance(m, str)]
            kinds = [m.get("type") for m in messages]
            self.assertEqual(kinds.count("frame"), 0, kinds)
            patches = [m for m in messages if m.get("type") == "patch"]
            self.assertGreaterEqual(len(patches), 3, kinds)
            for p in patches:
                self.assertLess(len(json.dumps(p)), big / 20)
            expect(page.locator("span", has_text=re.compile(r"^filler \d+$"))).to_have_count(2000)
            expect(page.locator("span", has_text=re.compile(r"^item \d"))).to_have_count(3)
            self.assertEqual(timeline_errors(page), [])

    def test_a_list_that_loses_rows_while_another_view_runs_reaches_the_page(self):
        # A hostile read: a List's own runs were not traced, so when one
        # lost rows in the flush another row ran, the patch sent only that
        # row's list and the rows removed stayed on the page.
        script = """
local ui = require("lunette")
local Item = ui.Observable("Item", { title = "" })
local M = ui.Observable("M", { a = function() return { "a1", "a2", "a3" } end,
                               b = function() return { Item { title = "b1" }, Item { title = "b2" } } end })
local m = M()
local a, b = m.a, m.b          -- read outside any body: only each List's own unit reads them
return ui.View("V", function()
  return ui.VStack {
    ui.Button("popA+renameB", function() table.remove(a); b[1].title = b[1].title .. "!" end),
    ui.List(a, function(t) return ui.Text(t) end),
    ui.List(b, function(it) return ui.Text(it.title) end),
  }
end)()
"""
        with previewing(script, "lists.lua") as page:
            expect(page.locator("span", has_text="a3")).to_be_visible()
            page.locator("button", has_text="popA+renameB").click()
            expect(page.locator("span", has_text="b1!")).to_be_visible()
            expect(page.locator("span", has_text="a3")).to_have_count(0)
            expect(page.locator("span", has_text=re.compile(r"^a\d$"))).to_have_count(2)

    def test_a_sections_header_stays_above_its_rows_when_they_are_patched(self):
        # A hostile read: a patched container put its rows before what it
        # draws before them (a Section's header, a row's controls).
        script = """
local ui = require("lunette")
return ui.View("Sectioned", { state = { n = 1 }, body = function(self)
  local rows = {}
  for i = 1, self.n do rows[i] = "row " .. i end
  return ui.Form {
    ui.Button("more", function() self.n = self.n + 1 end),
    ui.Section("Header", { ui.ForEach(rows, function(r) return ui.Text(r) end) }),
  }
end })()
"""
        with previewing(script, "sections.lua") as page:
            for n in range(2, 4):
                page.locator("button", has_text="more").click()
                expect(page.locator("span", has_text=f"row {n}")).to_be_visible()
            self.assertEqual(page.evaluate("document.querySelector('fieldset').firstElementChild.tagName"), "LEGEND")

    def test_a_row_whose_label_is_a_views_too_reaches_the_page(self):
        # A hostile read: a List row of view X is labelled "X row#1", and so
        # is a view named "X row": the patch sent that view, never the row.
        script = """
local ui = require("lunette")
local XR = ui.View("X row", { body = function() return ui.Text("I am the X row view") end })
local X = ui.View("X", { state = { n = 0 }, body = function(self)
  return ui.VStack { ui.Button("more", function() self.n = self.n + 1 end),
    ui.List({ "only" }, function(t) return ui.Text(t .. " " .. self.n) end) }
end })
return ui.VStack { X {}, XR {} }
"""
        with previewing(script, "rows.lua") as page:
            for n in range(1, 4):
                page.locator("button", has_text="more").click()
                expect(page.locator("span", has_text=f"only {n}")).to_be_visible()

    def test_a_view_whose_name_reads_as_another_views_trace_reaches_the_page(self):
        # A hostile read: runs were read back from the trace's text, where
        # "Box#1  (z#1" (a view named "Box#1  (z") read as "Box#1".
        script = """
local ui = require("lunette")
local Box = ui.View("Box", function() return ui.Text("plain box") end)
local Odd = ui.View("Box#1  (z", { state = { n = 0 }, body = function(self)
  return ui.Button("odd count " .. self.n, function() self.n = self.n + 1 end)
end })
return ui.VStack { Box {}, Odd {} }
"""
        with previewing(script, "odd.lua") as page:
            for n in range(1, 3):
                page.locator("button", has_text=f"odd count {n - 1}").click()
                expect(page.locator("button", has_text=f"odd count {n}")).to_be_visible()

    def test_an_inspected_node_does_not_turn_patches_into_frames(self):
        # A hostile read: after each patch the page inspects its selection
        # again, which made the next publish send every app whole.
        with previewing(MANY_ROWS, "many.lua") as page:
            received = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(payload)))
            page.reload()
            expect(page.locator("span", has_text="row 2000")).to_be_visible()
            page.locator("[data-view='Row#1']").click(position={"x": 1, "y": 1})   # selected: inspected after each change
            expect(page.locator("#inspector")).to_contain_text("Row#1")
            received.clear()
            for n in range(1, 4):
                page.locator("button", has_text=f"tick {n - 1}").click()
                expect(page.locator("button", has_text=f"tick {n}")).to_be_visible()
            page.wait_for_timeout(300)
            kinds = [json.loads(m).get("type") for m in received if isinstance(m, str)]
            self.assertEqual(kinds.count("frame"), 0, kinds)
            self.assertGreaterEqual(kinds.count("patch"), 3, kinds)

    def test_with_tracing_turned_off_a_change_still_reaches_the_page(self):
        # No run is traced: the server cannot say which views ran, and
        # sends every app whole when something changed.
        script = """
local ui = require("lunette")
return ui.View("Quiet", { state = { n = 0 }, body = function(self)
  return ui.VStack { ui.Text("count " .. self.n), ui.Button("add", function() ui.trace(false); self.n = self.n + 1 end) }
end })()
"""
        with previewing(script, "quiet.lua") as page:
            for n in range(1, 3):
                page.locator("button", has_text="add").click()
                expect(page.locator("span", has_text=f"count {n}")).to_be_visible()


class StaleNodeTests(unittest.TestCase):
    """Item 6: a page acting on a node from an older frame acts on the node it
    meant or on none, and the timeline shows no stray errors."""

    def test_a_click_racing_a_frame_acts_on_the_node_it_meant_or_none(self):
        with previewing(ROWS, "rows.lua") as page:
            expect(page.locator("span", has_text="rows ABC")).to_be_visible()
            # two clicks on "remove A" before the first one's frame arrives: the
            # second names a place where "remove B" now is
            page.locator("button", has_text="remove A").evaluate("el => { el.click(); el.click(); }")
            expect(page.locator("span", has_text="rows BC")).to_be_visible()
            time.sleep(0.5)
            expect(page.locator("span", has_text=re.compile("^rows BC$"))).to_be_visible()
            page.locator("button", has_text="remove C").evaluate("el => { el.click(); el.click(); }")
            expect(page.locator("span", has_text=re.compile("^rows B$"))).to_be_visible()
            time.sleep(0.5)
            self.assertEqual(timeline_errors(page), [])

    def test_a_selected_node_that_goes_leaves_no_error(self):
        with previewing(ROWS, "rows.lua") as page:
            page.locator("button", has_text="remove C").click(modifiers=["Alt"])   # Alt-click inspects
            expect(page.locator("#inspector")).to_contain_text("Button")
            page.locator("button", has_text="remove C").click()
            expect(page.locator("span", has_text=re.compile("^rows AB$"))).to_be_visible()
            page.locator("button", has_text="remove B").click()                  # another frame
            expect(page.locator("span", has_text=re.compile("^rows A$"))).to_be_visible()
            time.sleep(0.3)
            self.assertEqual(timeline_errors(page), [])     # was: "that node is no longer rendered", per frame
            expect(page.locator("#inspector")).to_contain_text("no longer rendered")


BREAKS = """
local ui = require("lunette")
return ui.View("Breaks", { state = { n = 0 }, body = function(self)
  if self.n == 2 then local t = nil; return t.x end
  return ui.Button("inc " .. self.n, function() self.n = self.n + 1 end)
end })()
"""


class TimelineErrorTests(unittest.TestCase):
    def test_a_body_that_raises_is_an_error_in_the_timeline(self):
        # a fresh user's report: the Error node replaced the view, and the
        # timeline said only that it re-rendered
        with previewing(BREAKS, "breaks.lua") as page:
            page.locator("button", has_text="inc 0").click()
            page.locator("button", has_text="inc 1").click()
            expect(page.locator("#timeline .error").first).to_contain_text("breaks.lua:4: attempt to index a nil value")
            time.sleep(0.5)
            self.assertEqual(len(timeline_errors(page)), 1, timeline_errors(page))

    def test_a_real_error_is_shown_once(self):
        with previewing(DEEP, "deep.lua") as page:
            page.locator("button", has_text="fail").click()
            expect(page.locator("#timeline .error").first).to_contain_text("no such book")
            time.sleep(0.5)
            self.assertEqual(len(timeline_errors(page)), 1, timeline_errors(page))



DELETABLE = """
local ui = require("lunette")
return ui.View("Deletable", { state = { items = { "a", "b", "c" } }, body = function(self)
  return ui.VStack {
    ui.Text("items " .. table.concat(self.items, "")),
    ui.Button("rotate", function() local it = self.items; table.insert(it, 1, table.remove(it)) end),
    ui.List { ui.ForEach(self.items, function(x) return ui.Text("row " .. x) end)
      :onDelete(function(idx) for i = #idx, 1, -1 do table.remove(self.items, idx[i]) end end) },
  }
end })()
"""


class RowRaceTests(unittest.TestCase):
    """A fresh user's report: a Delete that raced a frame deleted the row the
    frame moved into its place (a Row has no text of its own, so any Row
    passed for the one clicked); the page names a row by its first text now."""

    def test_a_delete_racing_a_frame_deletes_the_row_shown_or_none(self):
        with previewing(DELETABLE, "deletable.lua") as page:
            expect(page.locator("span", has_text="items abc")).to_be_visible()
            # rotate, and before that frame arrives, delete the row the page still shows as "row a"
            page.evaluate("""() => {
              const rotate = [...document.querySelectorAll('#apps button')].find(b => b.textContent === 'rotate');
              const row = [...document.querySelectorAll('#apps .Row')].find(r => r.textContent.includes('row a'));
              rotate.click(); row.querySelector('.synthesizedDelete').click(); }""")
            time.sleep(0.8)
            shown = page.locator("span", has_text=re.compile("^items ")).first.text_content()
            self.assertIn(shown, ["items cb", "items cab"], "the row shown was deleted, or none: " + shown)


LOGIN = """
local ui = require("lunette")
return ui.View("Login", { state = { user = "", pass = "" }, focusState = { "field" }, body = function(self)
  return ui.Form {
    ui.TextField("Username", self["$user"]):focused(self["$field"], "user"):onSubmit(function() self.field = "pass" end),
    ui.SecureField("Password", self["$pass"]):focused(self["$field"], "pass"),
    ui.Text("focus: " .. tostring(self.field)),
    ui.Picker("Flavor", ui.Binding.constant("mint"), { "vanilla", "chocolate" }),
    ui.Text("spaced  out"),
  }:onAppear(function() self.field = "user" end)
end })()
"""


SLOW_LOGIN = """
local ui = require("lunette")
return ui.View("Login", { state = { user = "", pass = "" }, focusState = { "field" }, body = function(self)
  return ui.Form {
    ui.TextField("Username", self["$user"]):focused(self["$field"], "user"):onSubmit(function()
      local t = os.clock()
      while os.clock() - t < 0.4 do end
      self.field = "pass"
    end),
    ui.SecureField("Password", self["$pass"]):focused(self["$field"], "pass"),
    ui.Text("focus: " .. tostring(self.field)),
    ui.Text("typed: " .. self.user .. " / " .. self.pass),
  }:onAppear(function() self.field = "user" end)
end })()
"""


THREE_FIELDS = """
local ui = require("lunette")
local function slow() local t = os.clock(); while os.clock() - t < 0.4 do end end
return ui.View("Three", { state = { a = "", b = "", c = "", log = "" }, focusState = { "field" }, body = function(self)
  return ui.Form {
    ui.TextField("A", self["$a"]):focused(self["$field"], "a")
      :onSubmit(function() slow(); self.log = self.log .. "[A:" .. self.a .. "]"; self.field = "b" end),
    ui.SecureField("B", self["$b"]):focused(self["$field"], "b")
      :onSubmit(function() slow(); self.log = self.log .. "[B:" .. self.b .. "]"; self.field = "c" end),
    ui.TextField("C", self["$c"]):focused(self["$field"], "c"),
    ui.Text("typed: " .. self.a .. " / " .. self.b .. " / " .. self.c),
    ui.Text("log: " .. self.log),
  }:onAppear(function() self.field = "a" end)
end })()
"""


PROMPTED = """
local ui = require("lunette")
return ui.View("Login", { state = { user = "", pass = "" }, focusState = { "field" }, body = function(self)
  return ui.VStack {
    ui.TextField(self.user == "" and "Username" or "Username (" .. #self.user .. ")", self["$user"])
      :focused(self["$field"], "user")
      :onSubmit(function() local t = os.clock(); while os.clock() - t < 0.4 do end; self.field = "pass" end),
    ui.SecureField("Password", self["$pass"]):focused(self["$field"], "pass"),
    ui.Text("focus: " .. tostring(self.field)),
    ui.Text("typed: " .. self.user .. " / " .. self.pass),
  }:onAppear(function() self.field = "user" end)
end })()
"""


DISMISSING = """
local ui = require("lunette")
return ui.View("Search", { state = { q = "", sent = "" }, focusState = { isFocused = false }, body = function(self)
  return ui.VStack {
    ui.TextField("Query", self["$q"]):focused(self["$isFocused"]):onSubmit(function() self.sent = self.q; self.isFocused = false end),
    ui.Text("focused: " .. tostring(self.isFocused) .. " sent: " .. self.sent),
  }
end })()
"""


NUMBER_FIELD = """
local ui = require("lunette")
return ui.View("Qty", { state = { qty = 12 }, body = function(self)
  return ui.VStack { ui.TextField("Quantity", self["$qty"]), ui.Text("qty " .. self.qty) }
end })()
"""


class FocusTests(unittest.TestCase):
    """A fresh user's report: the page ignored the tree's focus, so after
    Return moved the focus state to the password, typing still went into the
    username; a click into a field never wrote the focus state."""

    def test_the_page_follows_the_focus_state_and_a_click_writes_it(self):
        with previewing(LOGIN, "login.lua") as page:
            expect(page.locator("span", has_text="focus: user")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Username]")).to_be_focused()
            page.keyboard.type("ada")
            page.keyboard.press("Enter")
            expect(page.locator("span", has_text="focus: pass")).to_be_visible()
            expect(page.locator("#apps input[type=password]")).to_be_focused()
            page.keyboard.type("x")
            expect(page.locator("#apps input[placeholder=Username]")).to_have_value("ada")
            page.locator("#apps input[placeholder=Username]").click()
            expect(page.locator("span", has_text="focus: user")).to_be_visible()

    def test_keys_typed_before_the_answer_to_a_return_go_where_it_moves_the_focus(self):
        # SwiftUI runs onSubmit and moves the focus before the next key; the
        # page learns of the move a frame later (here 400 ms: the action is
        # slow), so what is typed meanwhile waits for that frame.
        with previewing(SLOW_LOGIN, "login.lua") as page:
            expect(page.locator("#apps input[placeholder=Username]")).to_be_focused()
            page.keyboard.type("ada")
            page.keyboard.press("Enter")
            page.keyboard.type("pw")
            expect(page.locator("span", has_text="focus: pass")).to_be_visible()
            expect(page.locator("span", has_text="typed: ada / pw")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Username]")).to_have_value("ada")
            expect(page.locator("#apps input[type=password]")).to_be_focused()

    def test_a_second_return_and_a_backspace_typed_during_the_wait_go_with_the_text(self):
        # A hostile read: a second Return before the first was answered
        # submitted the first field again, with what was typed for the next
        # one in it (a password shown in the clear); a Backspace let the held
        # text go to the field being left.
        with previewing(THREE_FIELDS, "three.lua") as page:
            expect(page.locator("#apps input[placeholder=A]")).to_be_focused()
            page.keyboard.type("ada")
            page.keyboard.press("Enter")
            page.keyboard.type("pX")
            page.keyboard.press("Backspace")
            page.keyboard.type("w")
            page.keyboard.press("Enter")
            page.keyboard.type("xy")
            expect(page.locator("span", has_text="typed: ada / pw / xy")).to_be_visible(timeout=10000)
            expect(page.locator("span", has_text="log: [A:ada][B:pw]")).to_be_visible()
            expect(page.locator("#apps input[placeholder=C]")).to_be_focused()

    def test_a_focus_state_the_script_sets_false_takes_the_caret_away(self):
        # An author's report: onSubmit set the Bool focus state false and the
        # caret stayed in the field, taking the next keys.
        with previewing(DISMISSING, "search.lua") as page:
            field = page.locator("#apps input[placeholder=Query]")
            field.click()
            expect(page.locator("span", has_text="focused: true")).to_be_visible()
            page.keyboard.type("cats")
            page.keyboard.press("Enter")
            expect(page.locator("span", has_text="focused: false sent: cats")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Query]")).not_to_be_focused()
            page.keyboard.type("!")
            time.sleep(0.3)
            expect(page.locator("#apps input[placeholder=Query]")).to_have_value("cats")

    def test_editing_a_number_field_through_text_that_is_no_number_yet_is_no_error(self):
        # An author's report: clearing a field bound to a number, then typing
        # "-3", put "the text typed is no number" in the timeline twice.
        with previewing(NUMBER_FIELD, "qty.lua") as page:
            field = page.locator("#apps input[type=text]")
            field.click()
            field.press("End")
            field.press("Backspace")
            field.press("Backspace")
            field.press_sequentially("-3", delay=80)
            field.press("Enter")                           # a number field's value is committed (session 24)
            expect(page.locator("span", has_text=re.compile("^qty -3$"))).to_be_visible()
            time.sleep(0.3)
            self.assertEqual(timeline_errors(page), [])

    def test_keys_held_after_a_return_go_where_they_were_typed_when_the_person_clicks_elsewhere(self):
        # A hostile read: text and a Return typed before the answer, then a
        # click into another field: they went into the clicked field and
        # submitted it.
        with previewing(THREE_FIELDS, "three.lua") as page:
            expect(page.locator("#apps input[placeholder=A]")).to_be_focused()
            page.keyboard.type("ab")
            page.keyboard.press("Enter")
            page.keyboard.type("xy")
            page.keyboard.press("Enter")
            page.locator("#apps input[placeholder=C]").click()
            expect(page.locator("span", has_text="log: [A:ab][A:abxy]")).to_be_visible(timeout=10000)
            expect(page.locator("span", has_text=re.compile(r"^typed: abxy / +/ $"))).to_be_visible()

    def test_a_field_whose_prompt_follows_its_text_keeps_every_key_and_its_return(self):
        # A hostile read: each keystroke was refused as aimed at a node no
        # longer drawn (the prompt had changed), and the type-ahead lost
        # track of the field drawn anew: the password went into the username.
        with previewing(PROMPTED, "prompted.lua") as page:
            expect(page.locator("#apps input[type=text]")).to_be_focused()
            page.keyboard.type("ada")
            page.keyboard.press("Enter")
            page.keyboard.type("pw")
            expect(page.locator("span", has_text="typed: ada / pw")).to_be_visible(timeout=10000)
            expect(page.locator("span", has_text="focus: pass")).to_be_visible()

    def test_keys_typed_after_a_return_that_changes_nothing_stay_in_the_field(self):
        with previewing(SLOW_LOGIN, "login.lua") as page:
            page.locator("#apps input[type=password]").click()
            expect(page.locator("span", has_text="focus: pass")).to_be_visible()
            page.keyboard.type("a")
            page.keyboard.press("Enter")                # its onSubmit: none; the answer changes nothing drawn
            page.keyboard.type("bc")
            expect(page.locator("span", has_text="typed:  / abc")).to_be_visible()
            expect(page.locator("#apps input[type=password]")).to_be_focused()

    def test_a_selection_no_option_has_shows_none_and_form_rows_stand_apart(self):
        with previewing(LOGIN, "login.lua") as page:
            expect(page.locator("span", has_text="focus: user")).to_be_visible()
            self.assertEqual(page.locator("#apps select").evaluate("s => s.selectedIndex"), -1)
            self.assertEqual(page.locator("span", has_text="spaced").evaluate("e => e.innerText"), "spaced  out")
            focus = page.locator("span", has_text="focus:").bounding_box()
            spaced = page.locator("span", has_text="spaced").bounding_box()
            self.assertGreater(spaced["y"], focus["y"], "each of a Form's rows on its own line")


TODOROWS = """
local ui = require("lunette")
local Item = ui.Observable("Item", { title = "" })
local TodoRow = ui.View("TodoRow", function(self) return ui.Text(self.item.title) end)
return ui.View("Todos", { state = { items = function() return { Item { title = "Buy milk" }, Item { title = "Call Ann" } } end,
    flavor = "vanilla" }, body = function(self)
  return ui.VStack {
    ui.List { ui.ForEach(self.items, function(item) return TodoRow { item = item } end)
      :onDelete(function(ix) for i = #ix, 1, -1 do table.remove(self.items, ix[i]) end end) },
    ui.Text("count " .. #self.items),
    ui.Picker("Flavor", self["$flavor"], { "vanilla", "chocolate" }),
    ui.Button("mint", function() self.flavor = "mint" end),
    ui.Button("boom", function() self.flavor = "x" end):onChange(self.flavor, function() error("changed boom") end),
  }
end })()
"""


class RowOfAViewTests(unittest.TestCase):
    """A hostile read: a row drawn by a view of the script's own could not be
    deleted at all (the server read the view's name as the row's first text,
    the page its Text); a Picker patched to a selection no option has kept
    showing the old option; an event's error was said twice."""

    def test_a_row_of_a_component_is_deleted_and_a_patched_picker_shows_none(self):
        with previewing(TODOROWS, "todorows.lua") as page:
            expect(page.locator("span", has_text="count 2")).to_be_visible()
            page.evaluate("""() => [...document.querySelectorAll('#apps .Row')]
                .find(r => r.innerText.includes('Call Ann')).querySelector('.synthesizedDelete').click()""")
            expect(page.locator("span", has_text="count 1")).to_be_visible()
            expect(page.locator("span", has_text="Buy milk")).to_be_visible()
            page.locator("button", has_text="mint").click()
            expect(page.locator("span", has_text="count 1")).to_be_visible()
            time.sleep(0.5)
            self.assertEqual(page.locator("#apps select").evaluate("s => s.selectedIndex"), -1)

    def test_an_events_error_is_said_once(self):
        with previewing(TODOROWS, "todorows.lua") as page:
            page.locator("button", has_text="boom").click()
            expect(page.locator("#timeline .error").first).to_contain_text("changed boom")
            time.sleep(0.5)
            said = [t for t in page.locator("#timeline div").all_inner_texts() if "changed boom" in t]
            self.assertEqual(len(said), 1, said)


if __name__ == "__main__":
    unittest.main()
