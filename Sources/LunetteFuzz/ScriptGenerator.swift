/// Random view scripts against the whole Lua API: models, views with every
/// section, built-ins, modifiers, lists, sheets, effects, bindings — and the
/// values a careless or hostile script makes: wrong types, deep and cyclic
/// tables, metatables that raise, altered view values, metamethods called on
/// wrong selves, loops, memory bombs. Every statement is wrapped in pcall, so
/// one script exercises many paths. The same seed makes the same script.
struct ScriptGenerator {
    private var rng: SplitMix
    private let seed: UInt64

    init(seed: UInt64) {
        rng = SplitMix(seed: seed)
        self.seed = seed
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    private mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) / 1000 < p }
    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }

    /// A whole script; it returns a view (or nil).
    mutating func script() -> String {
        var lines = [prelude, "math.randomseed(\(seed))"]     // the script's own randomness is the seed's too
        for i in 0..<int(1...4) { lines.append(model(i)) }
        for i in 0..<int(1...4) { lines.append(view(i)) }
        for _ in 0..<int(3...12) { lines.append("pcall(function() \(statement()) end)") }
        lines.append("return \(viewExpression(depth: 0))")
        return lines.joined(separator: "\n")
    }

    private let prelude = """
        local ui = require("lunette")
        local M, V, objects, views = {}, {}, {}, {}
        local function deep(n, cyclic) local t = {} local d = t for i = 1, n do d.x = {} d = d.x end if cyclic then d.x = t end return t end
        local evil = setmetatable({}, { __index = function() error("evil index") end, __newindex = function() error("evil newindex") end,
          __eq = function() error("evil eq") end, __tostring = function() error("evil tostring") end,
          __len = function() error("evil len") end, __call = function() error("evil call") end,
          __concat = function() error("evil concat") end, __lt = function() error("evil lt") end })
        local subject = ui.Subject()
        pcall(ui.TransactionKey, "fz", false)
        pcall(ui.PreferenceKey, "fzp", 0, function(a, b) return a + b end)
        """

    private mutating func value(depth: Int = 0) -> String {
        var options = ["1", "0", "-1", "3.5", "0/0", "math.huge", "2^63", "\"s\"", "\"\"", "\"a\\0b\"", "true", "false",
                       "nil", "{}", "{1, 2, 3}", "{ a = 1, b = { c = 2 } }", "evil", "deep(\(pick([3, 40, 250, 1000])))",
                       "deep(\(int(1...5)), true)", "function() end", "function() error('boom') end", "subject",
                       "ui.Binding.constant(\(pick(["1", "true", "'x'"])))", "coroutine.create(print)",
                       "ui.Text('v')", "ui", "ui.Animation.default", "string.rep('x', \(pick([10, 100000])))"]
        if depth < 2 {
            options += ["objects[\(int(1...3))]", "views[\(int(1...3))]", "M[\(int(1...3))]", "V[\(int(1...3))]",
                        "{ \(value(depth: depth + 1)), \(value(depth: depth + 1)) }",
                        "setmetatable({}, { __index = \(value(depth: depth + 1)) })"]
        }
        return pick(options)
    }

    private mutating func property() -> String {
        pick(["1", "\"x\"", "true", "{ 1, 2 }", "{ a = { b = 1 } }", "deep(\(pick([5, 300])))", "deep(2, true)",
              "function() return {} end", "function(self) error('factory') end",
              "ui.computed(function(self) return self.a end)", "ui.computed(function(self) error('computed') end)",
              "ui.computed(function(self) return self.c end)", "ui.ignored(1)", "ui.Published(1)", "evil"])
    }

    private mutating func model(_ i: Int) -> String {
        let kind = pick(["Observable", "Observable", "ObservableObject"])
        let props = ["a", "b", "c"].map { "\($0) = \(property())" }.joined(separator: ", ")
        return """
            pcall(function() M[\(i + 1)] = ui.\(kind)("M\(i)", { \(props) }) end)
            pcall(function() objects[\(i + 1)] = M[\(i + 1)](\(chance(0.3) ? "{ a = \(value()) }" : "")) end)
            """
    }

    private mutating func view(_ i: Int) -> String {
        var sections: [String] = []
        if chance(0.5) { sections.append("state = { n = \(pick(["0", "{}", "deep(3)", "deep(2, true)", "function(self) return self.x end"])) }") }
        if chance(0.3) { sections.append("binding = { \"b\" }") }
        if chance(0.3) { sections.append("environment = { e = \(pick(["\"key\"", "M[1]", "ui.optional(M[2])", "\"dismiss\""])) }") }
        if chance(0.2) { sections.append("observedObject = { \"o\" }") }
        if chance(0.2) { sections.append("stateObject = { so = function() return objects[1] end }") }
        if chance(0.2) { sections.append("bindable = { \"o\" }") }
        if chance(0.3) {
            sections.append("appStorage = { s = \(pick(["0", "'x'", "{ a = 1 }", "evil", "function() end", "deep(3)"])), " +
                            "k = ui.AppStorage(\(pick(["'fz.k'", "''", "1", "evil", "'k\\0'", "'k\\255'", "string.rep('k', 5000)"])), \(pick(["0", "{}", "print", storedValue()]))) }")
        }
        let body = "function(self) \(bodyStatements()) return \(viewExpression(depth: 1)) end"
        sections.append("body = \(body)")
        return "pcall(function() V[\(i + 1)] = ui.View(\(pick(["\"V\(i)\"", "\"V\(i)\"", "42", "nil"])), { \(sections.joined(separator: ", ")) }) end)"
    }

    private mutating func bodyStatements() -> String {
        var out: [String] = []
        for _ in 0..<int(0...3) {
            out.append(pick([
                "local _ = self.n", "self.n = (tonumber(self.n) or 0) + 1", "local _ = self.x", "local _ = self['$n']",
                "local _ = objects[1] and objects[1].a", "if objects[1] then objects[1].b = \(value()) end",
                "local _ = self.e", "local _ = self.b", "self.b = \(value())", "local _ = #self",
                "for k, v in pairs(objects[1] or {}) do end", "local _ = tostring(self)",
                "if math.random() < 0.05 then while true do end end", "if math.random() < 0.2 then error(\(value())) end",
                "coroutine.wrap(function() local _ = self.n end)()", "xpcall(function() error('x') end, function(e) return e end)",
                "local _ = ui.Bindable(objects[1])", "ui.flush()", "ui.mount(ui.Text('inner'))",
                "local _ = self.s", "local _ = self.k", "self.s = \(value())", "local _ = self['$s']",
                "self.s = \(storedValue())", "self.k = \(storedValue())",
            ]))
        }
        return out.joined(separator: " ")
    }

    private mutating func viewExpression(depth: Int) -> String {
        if depth > 4 { return pick(["ui.Text('leaf')", "ui.Spacer()", "nil"]) }
        var options = ["ui.Text(\(pick(["'t'", "1", "self and tostring(self.n)", "nil", "{}"])))",
                       "ui.Image('star')", "ui.Spacer()", "ui.EmptyView()",
                       "ui.Button('b', function() \(action()) end)",
                       "ui.Toggle('t', \(pick(["ui.Binding.constant(true)", "self and self['$n']", "5"])))",
                       "ui.TextField('f', ui.Binding(function() return 'x' end, function(v) \(action()) end))",
                       "V[\(int(1...4))] and V[\(int(1...4))] { b = ui.Binding.constant(1), o = objects[1], x = \(value()) }",
                       "V[\(int(1...4))]", "\(value())"]
        let child1 = viewExpression(depth: depth + 1), child2 = viewExpression(depth: depth + 1)
        options += ["ui.VStack { \(child1), \(child2) }", "ui.HStack { \(child1), nil, \(child2) }",
                    "ui.Group { { \(child1) }, \(child2) }", "ui.NavigationStack { \(child1) }",
                    "ui.NavigationStack(\(pick(["ui.Binding.constant({ 1, 2 })", "self and self['$n']", "ui.Binding.constant({ ui.Text('p') })"])), { \(child1) }, \(pick(["nil", "function(v) return \(child2) end", "function() error('dest') end", "5"])))",
                    "ui.NavigationLink('l', \(value()))",
                    "ui.List(\(pick(["{1, 2, 3}", "objects", "evil", "deep(3)", "{ evil }"])), function(x) return \(child1) end)",
                    "ui.ForEach(\(pick(["{ 'a', 'b' }", "objects", "{ { id = 1 }, { id = 1 } }"])), function(x) return \(child1) end)"]
        var expression = pick(options)
        for _ in 0..<int(0...2) { expression = "(\(expression))\(modifier())" }
        if chance(0.05) { expression = "(function() local v = \(expression) rawset(v, '\(pick(["kind", "mods", "type", "env", "inputs", "binding"]))', \(value())) return v end)()" }
        return expression
    }

    private mutating func modifier() -> String {
        pick([":padding()", ":padding(\(value()))", ":font(\(value()))", ":navigationTitle('n')", ":opacity(0.5)",
              ":environment('key', \(value()))", ":environment(\(value()))", ":environmentObject(objects[3])",
              ":id(\(value()))", ":onAppear(function() \(action()) end)", ":onDisappear(function() \(action()) end)",
              ":task(function() \(action()) ui.sleep(\(pick(["0.1", "1", "-1"]))) \(action()) end)",
              ":onChange(\(value()), function(a, b) \(action()) end, { initial = \(pick(["true", "false"])) })",
              ":onReceive(\(pick(["subject", "ui.Timer.publish(0.5):autoconnect()", "5"])), function(v) \(action()) end)",
              ":animation(ui.Animation.easeInOut(0.3), \(value()))",
              ":sheet(ui.Binding.constant(true), function() return ui.Text('sheet') end)", ":unknownModifier()",
              ":sheet({ item = ui.Binding.constant(\(value())) }, function(i) return ui.Text(tostring(i)) end)",
              ":alert('a', ui.Binding.constant(\(pick(["true", "false"]))), \(pick(["nil", "{ ui.Button('ok', function() \(action()) end) }", "{ ui.Text('x') }", "evil"])))",
              ":transaction(function(t) \(pick(["t.animation = nil", "t.fz = \(value())", "local _ = t.nope", "t.animation = \(value())", "local _ = tostring(t)"])) end)",
              ":preference('fzp', \(pick(["1", "'x'", "nil"])))", ":onPreferenceChange('fzp', function(v) \(action()) end)",
              ":\(pick(["foregroundStyle", "background", "font", "navigationTitle"]))(\(hostileText()))",
              ":\(pick(["padding", "opacity", "scaleEffect"]))(\(pick(["-1e308", "1e308", "0/0", "math.huge", "-0.0", "math.mininteger"])))",
              ":frame(\(pick(["{ width = \(hostileText()) }", "{ width = 1e308, height = -1 }", "evil", "deep(250)"])))",
              ":onReceive(ui.Timer.publish(\(timerInterval())):autoconnect(), function(v) \(action()) end)"])
    }

    /// An interval a careless script gives a timer: tiny, huge, or not a number (R20).
    private mutating func timerInterval() -> String {
        pick(["1e-9", "1e-300", "0.001", "5e-324", "1e300", "math.huge", "0/0", "-1", "0"])
    }

    /// Text that would be markup or CSS if it reached a page unescaped (R23).
    private mutating func hostileText() -> String {
        pick(["'red; position:fixed; inset:0'", "'url(http://127.0.0.2:9/beacon)'", "'</style><script>alert(1)</script>'",
              "'<img src=x onerror=alert(1)>'", "'\\0\\255\\254'", "'expression(alert(1))'", "string.rep('x', 100000)"])
    }

    /// A value a script writes to app storage: bytes, NaN, integer keys, the integers' ends (R24).
    private mutating func storedValue() -> String {
        pick(["'a\\0b'", "'\\255\\254'", "0/0", "-0.0", "math.maxinteger", "math.mininteger", "{ [1] = 'a', [3] = 'c' }",
              "{ [1] = 'a', ['1'] = 'b' }", "deep(\(pick([3, 250])))", "deep(2, true)", "{ f = print }", "nil", "2^63"])
    }

    private mutating func action() -> String {
        pick(["", "error('action')", "if objects[1] then objects[1].a = \(value()) end", "subject:send(\(value()))",
              "while true do end", "ui.withAnimation(ui.Animation.default, function() if objects[2] then objects[2].b = 1 end end)",
              "local t = {} for i = 1, 1e7 do t[i] = i end", "ui.configure { timeBudget = \(value()) }",
              "pcall(setmetatable, {}, { __gc = function() while true do end end })",
              "local x <close> = setmetatable({}, { __close = function() \(pick(["", "error('close')", "while true do end"])) end })",
              "local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) coroutine.close(co)",
              "ui.withTransaction('fz', \(value()), function() if objects[1] then objects[1].a = 2 end end)"])
    }

    private mutating func statement() -> String {
        pick([
            "local f = ui.Text('x').padding; f(\(value()))",
            "for _, name in ipairs { 'Text', 'VStack', 'List', 'Toggle', 'Button', 'View', 'Binding', 'Bindable', 'id', 'mount', 'configure', 'effect' } do pcall(ui[name], \(value()), \(value())) end",
            "local m = getmetatable(\(value())); if type(m) == 'table' then m.__index = nil end",
            "ui.mount(\(viewExpression(depth: 2)))",
            "local e = ui.effect(function() \(action()) end); if math.random() < 0.5 then e:cancel() end",
            "if objects[1] then objects[1].a = \(value()) end",
            "local b = ui.Binding.constant({}); for i = 1, \(pick([10, 300])) do b = b.x end; b:get()",
            "ui.withAnimation(\(value()), function() \(action()) end)",
            "local o = objects[\(int(1...3))]; if o then for k, v in pairs(o) do local _ = tostring(v) end end",
            "collectgarbage()", "ui.flush()",
            "ui.withTransaction(\(value()), \(value()), function() \(action()) end)",
            "ui.TransactionKey(\(value()), \(value()))", "local _ = ui.AppStorage(\(value()), \(value()))",
            // A view that contains itself: deep across bodies, each body shallow (R18).
            "local R; R = ui.View('Rec', function(self) local n = self.n or 0; local v = n < \(pick([3, 40, 400])) and R { n = n + 1 } or ui.Text('b'); for _ = 1, \(pick([1, 30, 150])) do v = ui.VStack { v } end return v end); local a = ui.mount(R {}); local _ = a:find('b'), a:json(); a:unmount()",
            "local t = ui.Timer.publish(\(timerInterval())):sink(function() \(action()) end); if math.random() < 0.3 then t:cancel() end",
        ])
    }
}

/// A small, fast, seedable random number generator.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
