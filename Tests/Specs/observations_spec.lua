-- D04. ui.observations is SE-0475's Observations
-- (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0475-observed.md):
-- "The closure is not run immediately it is run asynchronously upon the
-- first call to the iterator's next method"; "upon the first willSet it will
-- enqueue ... a new execution of the closure" (a tracked change yields, equal
-- result or not); "multiple iterations of the same sequence from multiple
-- tasks will emit the same values ... without needing an extra buffer" (a
-- slow consumer gets the value current at its next iteration); "any thrown
-- error will mean that the Observations sequence is complete and loops that
-- are currently iterating will terminate with that given failure". A
-- cancelled task's loop ends as Swift's `for await` does: normally, with
-- the code after it running — the accepted text: "if the task is cancelled
-- then the iterator will return nil".
local ui = require("lunette")

local Book = ui.Observable("D04Book", { title = "a" })

-- Mounts a view whose task runs loop(); returns the app and a function that
-- hides the view (cancelling its task).
local function run(loop)
  local Watcher = ui.View("D04Watcher", function()
    return ui.Text("watching"):task(loop)
  end)
  local Host = ui.View("D04Host", { state = { show = true }, body = function(self)
    return ui.VStack { self.show and Watcher {} or nil, ui.Button("hide", function() self.show = false end) }
  end })
  local app = ui.mount(Host {})
  return app, function() app:find("hide"):tap() end
end

describe("D04 ui.observations", function()
  it("D04 the closure first runs at the first iteration, not when the sequence is made", function()
    local book, calls, seen = Book(), 0, {}
    local titles = ui.observations(function() calls = calls + 1; return book.title end)
    assert.equal(0, calls)
    local app = run(function() for title in titles do seen[#seen + 1] = title end end)
    assert.equal(0, calls)                            -- the task has not started yet (F07)
    ui.clock.advance(0)
    assert.equal(1, calls)
    assert.same({ "a" }, seen)
    app:unmount()
  end)

  it("D04 no buffer: a consumer slower than the changes gets the current value at its next iteration", function()
    local book, seen = Book(), {}
    local app = run(function()
      for title in ui.observations(function() return book.title end) do
        seen[#seen + 1] = title
        ui.sleep(1)
      end
    end)
    ui.clock.advance(0)
    for _, title in ipairs { "b", "c", "d" } do
      book.title = title
      ui.flush()
    end
    ui.clock.advance(1)
    assert.same({ "a", "d" }, seen)
    app:unmount()
  end)

  it("D04 a tracked change yields even when the closure's result is equal", function()
    local book, seen = Book(), {}
    local app = run(function()
      for length in ui.observations(function() return #book.title end) do seen[#seen + 1] = length end
    end)
    ui.clock.advance(0)
    book.title = "b"                                  -- tracked, and the length is still 1
    ui.flush()
    ui.clock.advance(0)
    assert.same({ 1, 1 }, seen)
    app:unmount()
  end)

  it("D04 several loops over one sequence each receive the values", function()
    local book, a, b = Book(), {}, {}
    local titles = ui.observations(function() return book.title end)
    local Two = ui.View("D04Two", function()
      return ui.VStack {
        ui.Text("a"):task(function() for t in titles do a[#a + 1] = t end end),
        ui.Text("b"):task(function() for t in titles do b[#b + 1] = t end end),
      }
    end)
    local app = ui.mount(Two {})
    ui.clock.advance(0)
    book.title = "x"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "a", "x" }, a)
    assert.same({ "a", "x" }, b)
    app:unmount()
  end)

  it("D04 an error raised by the closure ends the loop with that error, reported", function()
    local book, seen, after = Book(), {}, false
    local app = run(function()
      for title in ui.observations(function()
        if book.title == "boom" then error("no title to show") end
        return book.title
      end) do
        seen[#seen + 1] = title
      end
      after = true
    end)
    ui.clock.advance(0)
    book.title = "boom"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "a" }, seen)
    assert.is_false(after)                            -- the loop ended with the error
    assert.matches("observations_spec.lua:%d+: no title to show", table.concat(app:warnings(), "\n"))
    assert.reported(app, "no title to show")
    app:unmount()
  end)

  it("D04 cancelling the task ends the loop normally: the code after it runs, and the closure runs no more", function()
    local book, calls, seen, after = Book(), 0, {}, false
    local app, hide = run(function()
      for title in ui.observations(function() calls = calls + 1; return book.title end) do
        seen[#seen + 1] = title
      end
      after = true
    end)
    ui.clock.advance(0)
    hide()
    ui.clock.advance(0)
    assert.is_true(after)
    local before = calls
    book.title = "z"
    ui.flush()
    assert.equal(before, calls)
    assert.same({ "a" }, seen)
    assert.same({}, app:warnings())                   -- a cancellation is no failure
    app:unmount()
  end)

  -- SE-0475 (the accepted text): "any time it becomes terminal for any
  -- reason that sequence will remain terminal and continue returning nil.
  -- Termination by cancellation however is independent for each instance."
  it("D04 a sequence whose closure raised stays finished: a new loop over it ends at once, without running it", function()
    local book, calls, first, second, after = Book(), 0, {}, {}, false
    local titles = ui.observations(function()
      calls = calls + 1
      if book.title == "boom" then error("no title to show") end
      return book.title
    end)
    local app = run(function() for title in titles do first[#first + 1] = title end end)
    ui.clock.advance(0)
    book.title = "boom"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "a" }, first)
    assert.reported(app, "no title to show")
    local ran = calls
    book.title = "fine again"
    local app2 = run(function()
      for title in titles do second[#second + 1] = title end
      after = true
    end)
    ui.clock.advance(0)
    assert.same({}, second)                            -- no value
    assert.is_true(after)                              -- and no error: it ends normally
    assert.equal(ran, calls)                           -- the closure does not run again
    app2:unmount()
    app:unmount()
  end)

  it("D04 a loop ended by cancellation leaves the sequence going for the others", function()
    local book, kept, after = Book(), {}, false
    local titles = ui.observations(function() return book.title end)
    local app, hide = run(function() for _ in titles do end; after = true end)
    local other = ui.mount(ui.View("D04Other", function()
      return ui.Text("other"):task(function() for t in titles do kept[#kept + 1] = t end end)
    end) {})
    ui.clock.advance(0)
    hide()
    ui.clock.advance(0)
    assert.is_true(after)
    book.title = "b"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "a", "b" }, kept)
    other:unmount()
    app:unmount()
  end)
end)

-- SE-0475: Observations' element may be an Optional, and nil is then a value;
-- "Making the return value of that closure be a lifted Optional suffers the
-- potential conflation of a terminal value and a value that just happens to
-- be nil", hence `Observations.untilFinished`, whose closure returns
-- `.next(value)` or `.finished`
-- (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0475-observed.md).
-- Lua's for-in ends at a nil control value, so a nil value arrives as
-- ui.none, and ui.observations.untilFinished(fn) ends when fn returns
-- ui.observations.finished.
describe("D04 nil values and untilFinished", function()
  local Note = ui.Observable("D04Note", { subtitle = "first" })

  it("D04 a nil value is a value: it arrives as ui.none and the loop goes on", function()
    local note, seen = Note(), {}
    local app = run(function()
      for subtitle in ui.observations(function() return note.subtitle end) do
        seen[#seen + 1] = subtitle == ui.none and "none" or subtitle
      end
    end)
    ui.clock.advance(0)
    note.subtitle = nil
    ui.flush()
    ui.clock.advance(0)
    note.subtitle = "back"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "first", "none", "back" }, seen)
    app:unmount()
  end)

  it("D04 untilFinished: returning ui.observations.finished ends every loop normally; the sequence stays finished", function()
    local note, a, b, ends, calls = Note(), {}, {}, {}, 0
    local subtitles = ui.observations.untilFinished(function()
      calls = calls + 1
      if note.subtitle == "stop" then return ui.observations.finished end
      return note.subtitle
    end)
    local Two = ui.View("D04UntilTwo", function()
      return ui.VStack {
        ui.Text("a"):task(function() for s in subtitles do a[#a + 1] = s end; ends[#ends + 1] = "a" end),
        ui.Text("b"):task(function() for s in subtitles do b[#b + 1] = s end; ends[#ends + 1] = "b" end),
      }
    end)
    local app = ui.mount(Two {})
    ui.clock.advance(0)
    note.subtitle = nil
    ui.flush()
    ui.clock.advance(0)
    note.subtitle = "stop"
    ui.flush()
    ui.clock.advance(0)
    assert.same({ "first", ui.none }, a)
    assert.same({ "first", ui.none }, b)
    table.sort(ends)
    assert.same({ "a", "b" }, ends)
    assert.same({}, app:warnings())
    local ran, late, after = calls, {}, false
    local app2 = run(function() for s in subtitles do late[#late + 1] = s end; after = true end)
    ui.clock.advance(0)
    assert.same({}, late)
    assert.is_true(after)
    assert.equal(ran, calls)
    local ok, err = pcall(function() local _ = ui.observations.untilFinished(3) end)
    assert.is_false(ok)
    assert.matches("observations_spec.lua:%d+: ui.observations.untilFinished: a function expected, got number", err)
    ok, err = pcall(function() local _ = ui.observations("fn") end)
    assert.matches("observations_spec.lua:%d+: ui.observations: a function expected, got string", err)
    assert.equal("ui.observations.finished", tostring(ui.observations.finished))
    app2:unmount()
    app:unmount()
  end)
end)

-- SE-0475 (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0475-observed.md):
-- "upon the first call to next the value will be obtained by calling into
-- the isolation of the constructing closure to 'prime the pump' for
-- observation and obtain a first value", and "if the task is cancelled then
-- the iterator will return nil".
describe("D04 a loop's beginning", function()
  it("D04 a loop's first value is the closure's value when it begins, not one from before a write", function()
    local book, seen = Book(), {}
    local titles = ui.observations(function() return book.title end)
    local V = ui.View("ObsFirstAgain", function()
      return ui.Text("w"):task(function()
        for t in titles do seen[#seen + 1] = "first " .. t; break end  -- luacheck: ignore 512 (the first value)
        book.title = "b"
        for t in titles do seen[#seen + 1] = "second " .. t; break end  -- luacheck: ignore 512
      end)
    end)
    local writer = ui.View("ObsJoiner", function()
      return ui.Text("j"):task(function()
        ui.sleep(1)
        book.title = "c"                            -- a loop is going (below): this one joins it
        for t in titles do seen[#seen + 1] = "joined " .. t; break end  -- luacheck: ignore 512
      end)
    end)
    local keeper = ui.View("ObsKeeper", function()
      return ui.Text("k"):task(function() for _ in titles do end end)
    end)
    local app = ui.mount(ui.VStack { V(), keeper(), writer() })
    ui.clock.advance(0)
    ui.clock.advance(1)
    assert.same({ "first a", "second b", "joined c" }, seen)
    app:unmount()
  end)

  it("D04 a loop begun in a task already cancelled ends at once, normally", function()
    local book, after = Book(), false
    local Watcher = ui.View("ObsLate", function()
      return ui.Text("w"):task(function()
        pcall(ui.sleep, 5)                          -- the view goes while this waits
        for _ in ui.observations(function() return book.title end) do end
        after = true
      end)
    end)
    local Host = ui.View("ObsLateHost", { state = { show = true }, body = function(self)
      return ui.VStack { self.show and Watcher {} or nil, ui.Button("hide", function() self.show = false end) }
    end })
    local app = ui.mount(Host {})
    ui.clock.advance(0)
    app:find("hide"):tap()
    ui.clock.advance(0)
    assert.is_true(after)
    assert.same({}, app:warnings())
    app:unmount()
  end)
end)
