import Foundation
import Lunette

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
