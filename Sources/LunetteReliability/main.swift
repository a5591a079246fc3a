import Foundation
import Lunette
import LunetteStorage

/// lunette-reliability: measures TARGETS.md's reliability figures (R2, R3,
/// R8, R14 ...) on this machine and prints them as a table. Medians of
/// several tries; the machine is shared, so these are reported, not asserted.
/// scripts/reliability builds and runs it (and the fuzzer's short run, R12).

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
}

func row(_ id: String, _ what: String, _ figure: String, _ target: String, _ ok: Bool) {
    print("| \(id) | \(what) | \(figure) | \(target) | \(ok ? "ok" : "MISSED") |")
}

print("| # | case | figure | target | |")
print("|---|---|---|---|---|")

// R2 / R15: how long past its budget each kind of runaway runs before it is stopped.
let budget = 0.2
let runaways: [(String, String)] = [
    ("loop in a body", "return ui.View('V', function() while true do end end)()"),
    ("loop inside pcall", "return ui.View('V', function() while true do pcall(function() while true do end end) end end)()"),
    ("loop in a coroutine", "return ui.View('V', function() coroutine.wrap(function() while true do end end)() end)()"),
    ("loop in an xpcall handler", "return ui.View('V', function() xpcall(error, function() while true do end end) while true do end end)()"),
    ("loop in an error's __tostring", "return ui.View('V', function() error(setmetatable({}, { __tostring = function() while true do end end })) end)()"),
    ("loop in a task", "return ui.Text('x'):task(function() while true do end end)"),
    ("loop at a script's top level", "while true do end"),
]
for (name, body) in runaways {
    var overshoots: [Double] = []
    for _ in 0..<5 {
        let runtime = try LunetteRuntime(options: .init(virtualClock: true, timeBudget: budget))
        let t = seconds {
            _ = try? runtime.run(source: "local ui = require('lunette')\n" + body, name: "@r2.lua")
            runtime.flush()
        }
        overshoots.append(max(0, t - budget))
    }
    let ms = median(overshoots) * 1000
    row("R2", "\(name): stopped after budget +", String(format: "%.0f ms", ms), "≤ 50 ms", ms <= 50)
}

// R3: memory bombs fail at the cap with "not enough memory"; the runtime stays usable.
for (name, bomb) in [("string.rep huge", "local s = string.rep('x', 2^30)"),
                     ("unbounded table", "local t = {} for i = 1, 1e12 do t[i] = i end")] {
    let runtime = try LunetteRuntime(options: .init(memoryLimit: 64 << 20, timeBudget: 10))
    var message = ""
    let t = seconds { do { try runtime.run(source: bomb) } catch { message = "\(error)" } }
    let usable = (try? runtime.evaluate("return 1 + 1")) == ["2"]
    let ok = message.contains("not enough memory") && usable
    row("R3", "\(name) at a 64 MiB cap", String(format: "%.2f s, %@", t, ok ? "'not enough memory', usable after" : message),
        "fails cleanly", ok)
}

// R8: 100k mount/unmount cycles: memory growth, Lua and process.
do {
    let runtime = try LunetteRuntime(options: .init(timeBudget: 60))
    func rss() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return (Int(status.split(separator: " ")[1]) ?? 0) * 4096
    }
    let script = """
        local ui = require('lunette')
        local Book = ui.Observable('Book', { title = 't' })
        local V = ui.View('V', { state = { n = 0 }, body = function(self) return ui.Text(self.book.title .. self.n) end })
        return function(n)
          for i = 1, n do
            local app = ui.mount(ui.VStack { V { book = Book() }, ui.Text('x') })
            app:unmount()
          end
          collectgarbage(); collectgarbage()
          return collectgarbage('count')
        end
        """
    _ = try runtime.evaluate("cycle = (function() \(script) end)()")
    _ = try runtime.evaluate("return cycle(10000)")
    let luaBefore = Double(try runtime.evaluate("return cycle(1)")[0]) ?? 0
    let rssBefore = rss()
    let luaAfter = Double(try runtime.evaluate("return cycle(100000)")[0]) ?? 0
    let rssAfter = rss()
    let growth = Double(rssAfter - rssBefore) / 1_048_576
    let luaGrowth = (luaAfter - luaBefore) / 1024
    row("R8", "100k mount/unmount: growth (process / Lua heap)",
        String(format: "%.2f MiB / %.2f MiB", growth, luaGrowth), "≤ 1 MiB", growth <= 1 && luaGrowth <= 1)
}

// R18: a view that contains itself, 400 bodies of 150-deep stacks (60,000 levels asked for).
do {
    let runtime = try LunetteRuntime(options: .init(timeBudget: 10))
    var text = "", json = ""
    let t = seconds {
        _ = try? runtime.run(source: """
            local ui = require('lunette')
            local D
            D = ui.View('Deep', function(self)
              local n = self.n or 0
              local v = n < 400 and D { n = n + 1 } or ui.Text('bottom')
              for _ = 1, 150 do v = ui.VStack { v } end
              return v
            end)
            return D {}
            """, name: "@r18.lua")
        runtime.flush()
        for app in runtime.apps { text = runtime.text(of: app); json = runtime.json(of: app) }
    }
    let deepest = text.split(separator: "\n").map { $0.prefix { $0 == " " }.count / 2 }.max() ?? 0
    let ok = text.contains("more than 1000 views deep") && !json.isEmpty && deepest < 1300
    row("R18", "a view containing itself, 60,000 levels asked: error node, text, JSON",
        String(format: "%.2f s, deepest %d levels", t, deepest), "bounded, no crash", ok)
}

// R19: one 64 MB string shown by 40 Texts at a 256 MiB cap: what the process grows by.
do {
    func rss() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return (Int(status.split(separator: " ")[1]) ?? 0) * 4096
    }
    let before = rss()
    var peak = before, tree = ""
    do {
        let runtime = try LunetteRuntime(options: .init(memoryLimit: 256 << 20, timeBudget: 10))
        _ = try? runtime.run(source: """
            local ui = require('lunette')
            local big = string.rep('x', 64 * 1024 * 1024)
            local rows = {}
            for i = 1, 40 do rows[i] = ui.Text(big) end
            return ui.View('Big', function() return ui.VStack(rows) end) {}
            """, name: "@r19.lua")
        runtime.flush()
        peak = max(peak, rss())
        tree = runtime.apps.map { runtime.text(of: $0) }.joined()
        peak = max(peak, rss())
    }
    let grown = Double(peak - before) / 1_048_576
    row("R19", "40 Texts of one 64 MB string at a 256 MiB cap: process growth",
        String(format: "%.0f MiB, %@", grown, tree.contains("not enough memory") ? "an error node" : "no error"),
        "≤ ~2× the cap", grown <= 512 && tree.contains("not enough memory"))
}

// R20: a timer every nanosecond, on the real clock (coalesced) and the virtual one (the budget).
do {
    let source = "local ui = require('lunette')\nfired = 0\nsub = ui.Timer.publish(1e-9):sink(function() fired = fired + 1 end)"
    let real = try LunetteRuntime(options: .init(timeBudget: budget))
    _ = try real.run(source: source, name: "@r20.lua")
    Thread.sleep(forTimeInterval: 0.1)
    let tReal = seconds { _ = real.runDueWork() }
    let fired = try real.evaluate("return fired")[0]
    let virtual = try LunetteRuntime(options: .init(virtualClock: true, timeBudget: budget))
    _ = try virtual.run(source: source, name: "@r20.lua")
    let tVirtual = seconds { virtual.advanceClock(by: 1) }
    row("R20", "a 1 ns timer: real clock (firings coalesced) / virtual clock (stopped by the budget)",
        String(format: "%.0f ms, %@ firing / budget + %.0f ms", tReal * 1000, fired, max(0, tVirtual - budget) * 1000),
        "≤ budget", tReal <= budget && fired == "1" && tVirtual <= budget + 0.1)
}

// R21: another process holds the store's write lock: how long a tap that writes 4 keys takes.
do {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("r21_\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let runtime = try LunetteRuntime(options: .init(timeBudget: 0.5, appStorage: try SQLiteAppStorage(path: path)))
    _ = try runtime.run(source: """
        local ui = require('lunette')
        app = ui.mount(ui.View('Four', { appStorage = { a = 0, b = 0, c = 0, d = 0 }, body = function(self)
          return ui.Button('write ' .. self.a .. self.b .. self.c .. self.d, function()
            self.a, self.b, self.c, self.d = 1, 2, 3, 4
          end)
        end })())
        """, name: "@r21.lua")
    let locker = Process()
    locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    locker.arguments = ["python3", "-c", "import sqlite3,sys,time\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nprint('locked',flush=True)\ntime.sleep(2)\nc.execute('COMMIT')", path]
    let out = Pipe()
    locker.standardOutput = out
    try locker.run()
    _ = out.fileHandleForReading.availableData
    let tap = seconds { _ = try? runtime.evaluate("app:findAll { type = 'Button' }[1]:tap()") }
    let kept = runtime.waitForStorage(timeout: 10)
    locker.waitUntilExit()
    row("R21", "a store locked by another process for 2 s: a tap writing 4 keys / the writes after",
        String(format: "%.0f ms / %@", tap * 1000, kept && runtime.storageErrors.isEmpty ? "kept" : "\(runtime.storageErrors)"),
        "≤ budget (500 ms)", tap <= 0.5 && kept)
}

// R22: a sandboxed script assigns package.path and requires files outside the host's paths.
do {
    let runtime = try LunetteRuntime(options: .init(sandboxed: true, modulePaths: [FileManager.default.temporaryDirectory.path]))
    let reached = try runtime.evaluate("""
        package.path = "/etc/?;/etc/?.conf;/proc/self/?"
        local n = 0
        for _, m in ipairs { "os-release", "passwd", "hostname", "environ", "adduser" } do
          local ok, err = pcall(require, m)
          if ok or tostring(err):find("/etc", 1, true) or tostring(err):find("/proc", 1, true) then n = n + 1 end
        end
        return n
        """)[0]
    row("R22", "package.path assigned to /etc and /proc: files read or named", reached, "0", reached == "0")
}

// R24: hostile values through app storage, written by one runtime and read by the next.
do {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("r24_\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let values = """
        local values = { ["a\\0b"] = "x\\0y", a = "a", ["k\\255"] = "\\255\\254", ["k\\254"] = 2.0, nan = 0/0, neg = -0.0,
          max = math.maxinteger, min = math.mininteger, sparse = { [1] = 1, [3] = 3, ["1"] = "s" }, t = true, f = false }
        local function name(k) return "v" .. k:gsub(".", function(c) return ("%02x"):format(c:byte()) end) end
        local function kind(v) return type(v) == "userdata" and "table" or type(v) end
        local function same(a, b)
          if kind(a) ~= kind(b) then return false end
          if type(a) == "number" then return (a ~= a and b ~= b) or (math.type(a) == math.type(b) and a == b and 1/a == 1/b) end
          if kind(a) ~= "table" then return a == b end
          for k, v in pairs(a) do if not same(v, b[k]) then return false end end
          for k in pairs(b) do if a[k] == nil then return false end end
          return true
        end
        local storage, ui = {}, require("lunette")
        for k in pairs(values) do storage[name(k)] = ui.AppStorage(k) end
        """
    let writer = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
    _ = try writer.evaluate(values + "\n" + """
        local V = ui.View("Write", { appStorage = storage, body = function(self) return ui.Button("go", function()
          for k, v in pairs(values) do self[name(k)] = v end end) end })
        local app = ui.mount(V {})
        app:find("go"):tap()
        """)
    writer.waitForStorage()
    let reader = try LunetteRuntime(options: .init(appStorage: try SQLiteAppStorage(path: path)))
    let exact = try reader.evaluate(values + "\n" + """
        local n, total = 0, 0
        ui.mount(ui.View("R", { appStorage = storage, body = function(self)
          for k, v in pairs(values) do total = total + 1; if same(v, self[name(k)]) then n = n + 1 end end
          return ui.Text("r")
        end })())
        return n .. "/" .. total
        """)[0]
    row("R24", "hostile values through app storage (NUL, bytes, NaN, -0.0, integer ends, key types)", exact + " exact",
        "all exact", exact.split(separator: "/").first == exact.split(separator: "/").last)
}

// R14: Ctrl-C in the REPL while a line loops inside pcall: back at the prompt.
if let lunette = CommandLine.arguments.dropFirst().first {
    var latencies: [Double] = []
    for line in ["while true do pcall(function() while true do end end) end",
                 "xpcall(error, function() while true do end end)",
                 "coroutine.wrap(function() while true do end end)()"] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lunette)
        process.arguments = ["repl"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data("x = 41\n\(line)\n".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        var seen = ""
        while !seen.contains("interrupted"), Date().timeIntervalSince(sent) < 5 {
            seen += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        latencies.append(Date().timeIntervalSince(sent))
        input.fileHandleForWriting.write(Data("print(x + 1)\n:quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
    let ms = median(latencies) * 1000
    row("R14", "Ctrl-C in the REPL (loop in pcall, xpcall handler, coroutine): back at the prompt", String(format: "%.0f ms", ms), "≤ 100 ms", ms <= 100)
}
