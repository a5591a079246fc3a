"""Typing in the preview beyond a plain ASCII field: text that arrives without
a one-character keydown (an astral character, a paste, an input method),
fields whose binding transforms what was typed, and number fields.

Each case is what a helper found using the preview in session 24 (its
findings are in notes/issue-17.md, "Session 24"); each failed before its
fix. Run: cd Tests/Browser && python3 -m unittest test_preview_typing
"""
import re
import time
import unittest

from playwright.sync_api import expect

from test_preview import previewing
from test_preview_use import THREE_FIELDS, timeline_errors

# Bindings whose setter transforms the text (a SwiftUI classic): uppercase,
# digits only, and the usual length limit written as an onChange.
CONTROLLED = """
local ui = require("lunette")
return ui.View("Controlled", { state = { upper = "", digits = "", code = "" }, body = function(self)
  return ui.VStack {
    ui.TextField("Upper", ui.Binding(function() return self.upper end, function(v) self.upper = v:upper() end)),
    ui.TextField("Digits", ui.Binding(function() return self.digits end, function(v) self.digits = v:gsub("%D", "") end)),
    ui.TextField("Code", self["$code"]):onChange(self.code, function(old, new)
      if #new > 5 then self.code = new:sub(1, 5) end
    end),
    ui.Text("upper:" .. self.upper), ui.Text("digits:" .. self.digits), ui.Text("code:" .. self.code),
  }
end })()
"""

# THREE_FIELDS with three text fields (its B is a SecureField).
THREE_TEXT_FIELDS = THREE_FIELDS.replace('ui.SecureField("B"', 'ui.TextField("B"')

SUBMITS = """
local ui = require("lunette")
return ui.View("Search", { state = { query = "", submits = 0 }, body = function(self)
  return ui.VStack {
    ui.TextField("Query", self["$query"]):onSubmit(function() self.submits = self.submits + 1 end),
    ui.Text("query:" .. self.query), ui.Text("submits:" .. self.submits),
  }
end })()
"""

AMOUNT = """
local ui = require("lunette")
return ui.View("Amount", { state = { amount = 0, note = "" }, body = function(self)
  return ui.VStack {
    ui.TextField("Amount", self["$amount"]), ui.TextField("Note", self["$note"]),
    ui.Text("amount:" .. tostring(self.amount)),
  }
end })()
"""

TALLY = """
local ui = require("lunette")
local function slow() local t = os.clock(); while os.clock() - t < 0.2 do end end
return ui.View("Tally", { state = { amount = 0, count = "", log = "" }, focusState = { "field" }, body = function(self)
  return ui.VStack {
    ui.TextField("Amount", self["$amount"]):focused(self["$field"], "amount"):onSubmit(function()
      slow(); self.log = self.log .. "[" .. self.amount .. "]"; self.amount = 0; self.field = "count"
    end),
    ui.TextField("Count", self["$count"]):focused(self["$field"], "count"),
    ui.Text("amount:" .. tostring(self.amount)), ui.Text("count:" .. self.count), ui.Text("log:" .. self.log),
  }
end })()
"""

CLAMPED = """
local ui = require("lunette")
return ui.View("Clamp", { state = { qty = 10 }, body = function(self)
  return ui.VStack {
    ui.TextField("Qty", ui.Binding(function() return self.qty end,
      function(v) self.qty = math.max(10, math.min(100, v)) end)),
    ui.Text("qty:" .. tostring(self.qty)),
  }
end })()
"""


def shown(page, text):
    return page.locator("#apps span", has_text=re.compile("^" + re.escape(text) + "$"))


def compose(page, steps, final):
    """Types through an input method (Chromium's DevTools protocol): each of
    steps is the composition's text so far, then final is committed."""
    cdp = page.context.new_cdp_session(page)
    for text in steps:
        cdp.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})
        time.sleep(0.15)
    cdp.send("Input.insertText", {"text": final})
    return cdp


class TypeAheadTests(unittest.TestCase):
    """Text typed while the page awaits the answer to a Return goes, in
    order, where that answer moves the focus (README: "as SwiftUI moves it
    before the next key"), however the text arrives."""

    def test_a_capital_a_pasted_text_and_an_input_methods_word_wait_too(self):
        # A hostile read: a lone Shift (before a capital), the Ctrl+V before a
        # paste, and a composition let the held keys go into A, and their
        # setText took the focus back there.
        for name, after_return, typed in [
                ("shift", lambda p: (p.keyboard.down("Shift"), p.keyboard.press("D"), p.keyboard.up("Shift"), p.keyboard.type("ef")), "Def"),
                ("paste", lambda p: (p.keyboard.press("Control+V"), p.keyboard.type("q")), "xyzq"),
                ("compose", lambda p: (compose(p, ["に", "にほ", "にほん"], "日本"), p.keyboard.type("q")), "日本q"),
                ("select all", lambda p: (p.keyboard.type("cd"), p.keyboard.press("Control+a"), p.keyboard.type("q")), "q"),
                ("empty paste", lambda p: (p.evaluate("navigator.clipboard.writeText('')"), p.keyboard.press("Control+V"),
                                           p.keyboard.type("q")), "q")]:
            with previewing(THREE_TEXT_FIELDS, "three.lua") as page:
                page.context.grant_permissions(["clipboard-read", "clipboard-write"])
                expect(page.locator("#apps input[placeholder=A]")).to_be_focused()
                page.evaluate("navigator.clipboard.writeText('xyz')")
                page.keyboard.type("ab")
                page.keyboard.press("Enter")
                after_return(page)
                expect(page.locator("span", has_text="log: [A:ab]")).to_be_visible(timeout=10000)
                expect(shown(page, "typed: ab / " + typed + " / ")).to_be_visible()
                expect(page.locator("#apps input[placeholder=B]")).to_be_focused()
                self.assertEqual(timeline_errors(page), [], name)

    def test_text_with_no_one_character_keydown_waits_for_the_answer_too(self):
        # Before: an emoji (two UTF-16 units) let the held keys go into the
        # field being left, and text inserted with no keydown (an input
        # method's commit, a paste) skipped the hold: it went into A, and its
        # setText took the focus back there.
        with previewing(THREE_FIELDS, "three.lua") as page:
            expect(page.locator("#apps input[placeholder=A]")).to_be_focused()
            page.keyboard.type("ab")
            page.keyboard.press("Enter")
            page.keyboard.insert_text("日本")
            page.keyboard.type("x👍")
            expect(page.locator("span", has_text="log: [A:ab]")).to_be_visible(timeout=10000)
            expect(page.locator("#apps input[placeholder=A]")).to_have_value("ab")
            expect(page.locator("#apps input[type=password]")).to_be_focused()
            expect(page.locator("#apps input[type=password]")).to_have_value("日本x👍")
            expect(shown(page, "typed: ab / 日本x👍 / ")).to_be_visible()
            self.assertEqual(timeline_errors(page), [])


class CompositionTests(unittest.TestCase):
    """An input method's composition is the person's, not yet text: the
    page sends the text it commits, and a field's value is not written under
    it (MDN, "Element: keydown event": ignore events while isComposing)."""

    def test_a_composition_into_a_transforming_field_commits_what_was_chosen(self):
        # Before: every step of the composition was sent as setText; the
        # answer ("K") was written into the field mid-composition, which
        # ended it: the model held "KかNかんJ漢字".
        with previewing(CONTROLLED, "controlled.lua") as page:
            page.locator("#apps input[placeholder=Upper]").click()
            compose(page, ["k", "か", "かn", "かん", "かんj", "かんじ"], "漢字")
            expect(shown(page, "upper:漢字")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Upper]")).to_have_value("漢字")

    def test_the_return_that_ends_a_composition_does_not_submit(self):
        with previewing(SUBMITS, "search.lua") as page:
            page.locator("#apps input[placeholder=Query]").click()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Input.imeSetComposition", {"text": "にほん", "selectionStart": 3, "selectionEnd": 3})
            cdp.send("Input.imeSetComposition", {"text": "日本", "selectionStart": 2, "selectionEnd": 2})
            cdp.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": "Enter", "code": "Enter",
                                                "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13})
            cdp.send("Input.insertText", {"text": "日本"})
            cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
            expect(shown(page, "query:日本")).to_be_visible()
            time.sleep(0.5)
            expect(shown(page, "submits:0")).to_be_visible()
            page.keyboard.press("Enter")                  # a Return of its own submits
            expect(shown(page, "submits:1")).to_be_visible()


class ControlledFieldTests(unittest.TestCase):
    """A field shows its binding's value: what the script refused or changed
    is not left on screen (what Return would submit is what is shown)."""

    def test_a_field_shows_what_the_script_kept_when_it_refuses_keys(self):
        # Before: the model held "abcde" and the field showed "abcdefgh"
        # (an unchanged value is answered with an acknowledgement only).
        with previewing(CONTROLLED, "controlled.lua") as page:
            page.locator("#apps input[placeholder=Code]").click()
            page.keyboard.type("abcdefgh")
            expect(shown(page, "code:abcde")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Code]")).to_have_value("abcde")
            page.locator("#apps input[placeholder=Digits]").click()
            page.keyboard.type("1x2", delay=60)
            expect(shown(page, "digits:12")).to_be_visible()
            expect(page.locator("#apps input[placeholder=Digits]")).to_have_value("12")

    def test_the_caret_stays_after_what_was_typed_when_the_script_drops_characters(self):
        # Before: the caret kept its offset from the start, so pasting
        # "5-5" into "12|34" left it after "553" rather than after the paste.
        with previewing(CONTROLLED, "controlled.lua") as page:
            field = page.locator("#apps input[placeholder=Digits]")
            field.click()
            page.keyboard.type("1234")
            expect(shown(page, "digits:1234")).to_be_visible()
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            page.keyboard.insert_text("5-5")
            expect(shown(page, "digits:125534")).to_be_visible()
            expect(field).to_have_value("125534")
            self.assertEqual(field.evaluate("f => [f.selectionStart, f.selectionEnd]"), [4, 4])


class NumberFieldTests(unittest.TestCase):
    """A field bound to a number keeps the text being typed while it means
    the value (or means none yet), and shows the value's own text when the
    person leaves it — as TextField(value:format:) formats on commit."""

    def test_a_number_field_keeps_the_text_being_typed(self):
        # Before: "1e3" was rewritten to "1000.0" with the caret inside it,
        # so "1e35" typed at a person's pace ended as 10050.0.
        with previewing(AMOUNT, "amount.lua") as page:
            field = page.locator("#apps input[placeholder=Amount]")
            field.click()
            field.press("Control+a")
            field.press_sequentially("1e35", delay=150)
            time.sleep(0.3)
            expect(shown(page, "amount:0")).to_be_visible()       # not committed yet
            expect(field).to_have_value("1e35")
            page.locator("#apps input[placeholder=Note]").click()  # leaving it commits
            expect(shown(page, "amount:1e+35")).to_be_visible()
            expect(field).to_have_value("1e+35")
            self.assertEqual(timeline_errors(page), [])

    def test_a_number_field_whose_setter_clamps_takes_what_was_typed_on_return(self):
        # A hostile read: "50" typed into a field clamped to 10...100 ended
        # as 100 (the "5" was clamped to 10 and the "0" appended to it).
        # TextField(value:format:) "updates the value when the user commits
        # their edits, such as by pressing the Return key"
        # (https://developer.apple.com/documentation/swiftui/textfield).
        with previewing(CLAMPED, "clamp.lua") as page:
            field = page.locator("#apps input[placeholder=Qty]")
            field.click()
            field.press("Control+a")
            field.press_sequentially("50", delay=150)
            field.press("Enter")
            expect(shown(page, "qty:50")).to_be_visible()
            expect(field).to_have_value("50")
            field.press("Control+a")
            field.press_sequentially("5", delay=150)
            field.press("Enter")                                   # clamped: the field shows the value
            expect(shown(page, "qty:10")).to_be_visible()
            expect(field).to_have_value("10")
            self.assertEqual(timeline_errors(page), [])


    def test_return_commits_a_number_once_and_what_on_submit_sets_stands(self):
        # A hostile read: Chromium's change event for the Return sent the
        # text again after the submit, undoing the value and the focus
        # onSubmit had set, so the next key went into the old field.
        with previewing(TALLY, "tally.lua") as page:
            field = page.locator("#apps input[placeholder=Amount]")
            field.click()
            field.press("Control+a")
            page.keyboard.type("5")
            page.keyboard.press("Enter")
            page.keyboard.type("7")
            expect(shown(page, "log:[5]")).to_be_visible()
            expect(shown(page, "count:7")).to_be_visible()
            expect(shown(page, "amount:0")).to_be_visible()
            expect(field).to_have_value("0")
            expect(page.locator("#apps input[placeholder=Count]")).to_be_focused()
            self.assertEqual(timeline_errors(page), [])


class PageLoadTests(unittest.TestCase):
    def test_the_page_loads_with_no_console_error(self):
        # Before: the browser asked for /favicon.ico without the page's key
        # and logged the refusal (403) as an error on every load.
        with previewing(SUBMITS, "search.lua") as page:
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.reload()
            page.wait_for_selector("#apps .app")
            time.sleep(0.5)
            self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
