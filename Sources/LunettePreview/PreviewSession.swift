import Foundation
import Lunette

/// The preview's side on the runtime's thread: it takes what pages asked
/// (taps, edits, inspections), runs it on the runtime, and sends pages what
/// changed. The runtime belongs to one thread, so the server (other
/// threads) only queues requests here; `pump` runs them, on the runtime's
/// thread, when the host calls it.
public final class PreviewSession: @unchecked Sendable {
    let runtime: LunetteRuntime
    private let requests = RequestQueue()
    let clients: Clients
    /// The apps of the last frame sent, as JSON: a page patches the nodes that differ.
    private var lastFrame = ""
    private var timeline: [[String: Any]] = []
    private var sentTimeline = 0
    private var clockPaused = false
    /// The message shown over the last good frame, if the script failed.
    private var overlay: String?

    init(runtime: LunetteRuntime, clients: Clients) {
        self.runtime = runtime
        self.clients = clients
        runtime.recordProblems()                      // a body's or an event's error reaches the timeline as it appears
    }

    /// A page's request (any thread); false if it was refused: too many
    /// requests wait for the runtime's thread (`RequestQueue`).
    @discardableResult
    func enqueue(_ request: PageRequest) -> Bool { requests.push(request) }

    /// Waits up to `timeout` seconds for a request, then handles every
    /// waiting one; what they changed goes to pages once, after all of them
    /// (a page that sent n requests, typing fast, costs one publish, not n).
    /// Returns whether any was handled.
    @discardableResult
    public func pump(waiting timeout: Double = 0) -> Bool {
        let batch = requests.take(waiting: timeout)
        for request in batch {
            switch request {
            case .hello(let page):                  // a new page: what the others have, to it alone
                publish()
                welcome(page)
            case .text(let text, _):
                handle(text)
            }
        }
        if needsFrame { needsFrame = false; publish() }
        if unsentAcknowledgment {                   // nothing drawn said it: the pages hear it alone
            unsentAcknowledgment = false
            clients.broadcast(Self.encode(["type": "ack", "acked": acknowledged] as [String: Any]))
        }
        return !batch.isEmpty
    }

    /// A request of the batch changed (or may have changed) what pages show.
    private var needsFrame = false

    /// Sends pages what changed (after the host flushed or time ran): the
    /// subtrees of the runs traced, as a patch — a view's, a List's, a row's
    /// list's — when each is drawn where it still stands, and what ran new
    /// (a view, a row) lies inside them; so a frame costs what changed, not
    /// every view shown. Else every app whole (a mount, a reload, tracing
    /// turned off, too many runs: nothing says which parts moved).
    public func publish(note: String? = nil) {
        let (traced, ran, tracedWhole) = runtime.takeTrace()
        let rerendered = ran.filter(\.isView).map(\.label)   // what flashes on the page: views
        for line in traced { record(line.hasPrefix("• ") ? "event" : "render", line) }
        for error in runtime.takeProblems().errors { record("error", error) }   // (warnings: below, once each)
        for app in runtime.apps {
            // an event's error is in both: said once, as an error (above)
            for warning in runtime.warnings(of: app) where !loggedWarnings.contains(warning) && !app.eventErrors.contains(warning) {
                loggedWarnings.insert(warning)
                record("warning", warning)
            }
        }
        if tracedWhole, isQuiet(traced: traced, note: note) {   // (tracing toggled: what ran is not known)
            sendTimeline()
            return
        }
        if !traced.isEmpty { record("flush", "\(rerendered.count) view(s) re-rendered") }
        if note == nil, tracedWhole, !ran.isEmpty, framedApps == runtime.apps.map(\.idNumber),
           let patch = patchDrawings(ran, timing: Set(rerendered)) {
            sendPatch(patch, rerendered: rerendered)
        } else {                                      // (what ran is not known whole: every app)
            sendFrame(rerendered: rerendered, note: note)
        }
        sendTimeline()
    }

    /// The apps of the last whole frame.
    private var framedApps: [Int32] = []
    /// Where the pages drew each unit: its label → its node's id (a row
    /// drawn transparently: its list's), from the last frame and the
    /// patches since.
    private var drawnAt: [String: String] = [:]
    /// Where the pages drew each List's content and row, by unit (`Drawing.hosted`).
    private var hostedAt: [Int32: String] = [:]

    /// Sends every app whole, if anything changed since the last whole frame.
    private func sendFrame(rerendered: [String], note: String?) {
        let drawing = PreviewTree.json(of: runtime, timing: Set(rerendered))
        let appsJSON = Self.encode(drawing.json)      // encoded once: compared, then sent
        framedApps = runtime.apps.map(\.idNumber)
        drawnAt = drawing.drawn
        hostedAt = drawing.hosted
        guard appsJSON != lastFrame || !rerendered.isEmpty || note != nil else { return }
        lastFrame = appsJSON
        unsentAcknowledgment = false
        clients.broadcast(frameMessage(appsJSON, rerendered: rerendered, costs: drawing.costs, note: note), kind: .frame)
        for page in clients.pagesBehind() { sendWholeFrame(to: page) }
    }

    /// Sends the subtrees drawn for a patch.
    private func sendPatch(_ drawings: [PreviewTree.Drawing], rerendered: [String]) {
        var costs: [String: Double] = [:]
        for drawing in drawings {
            costs.merge(drawing.costs) { a, _ in a }
            drawnAt.merge(drawing.drawn) { _, new in new }
            hostedAt.merge(drawing.hosted) { _, new in new }
        }
        lastFrame = ""                                 // the whole frame is no longer the pages' state
        unsentAcknowledgment = false
        clients.broadcast(Self.encode(["type": "patch", "nodes": drawings.map(\.json), "rerendered": rerendered,
                                       "costs": costs, "acked": acknowledged] as [String: Any]), kind: .patch)
        for page in clients.pagesBehind() { sendWholeFrame(to: page) }
    }

    /// The most subtrees one patch sends: past them, every app whole costs less
    /// than finding each (a tap that re-runs thousands of views).
    static let maxPatchRoots = 64

    /// The subtrees a patch sends for the runs traced, drawn as they are
    /// now, none inside another; nil when a run that was drawn is not where
    /// the pages drew it, a run the pages never drew (a new view, a new
    /// row) is not inside one of them, or there are too many. A
    /// NavigationStack whose bar shows a screen's changed title runs itself
    /// (its title is a preference it keeps), so it is a root of its own then.
    private func patchDrawings(_ ran: [TracedRun], timing timed: Set<String>) -> [PreviewTree.Drawing]? {
        guard ran.count <= Self.maxPatchRoots * 4 else { return nil }
        var roots: [String: RenderNode] = [:], undrawn: [TracedRun] = []
        for run in ran {
            guard !run.isNew, let id = run.isView ? drawnAt[run.label] : hostedAt[run.unit] else { undrawn.append(run); continue }
            guard let node = PreviewTree.node(id, in: runtime),
                  run.isView ? node.viewLabel == run.label : PreviewTree.hosts(node, run.unit) else { return nil }
            roots[id] = node
            if roots.count > Self.maxPatchRoots { return nil }
        }
        var drawings: [PreviewTree.Drawing] = [], last: String?
        for id in roots.keys.sorted() {               // an id sorts right after the ids it is inside
            if let last, id.hasPrefix(last + ".") { continue }
            drawings.append(PreviewTree.subtree(roots[id]!, id: id, of: runtime, timing: timed))
            last = id
        }
        for run in undrawn where !drawings.contains(where: { run.isView ? $0.drawn[run.label] != nil : $0.hosted[run.unit] != nil }) {
            return nil
        }
        return drawings.isEmpty ? nil : drawings
    }

    private var loggedWarnings = Set<String>()
    /// Whether a request ran since the last frame (it may have changed a tree).
    private var requested = true
    private var lastAppIDs: [Int32] = []
    private var quietPublishes = 0

    /// Whether nothing can have changed since the last frame: no view ran
    /// (with tracing on, every run is a trace line), no request, no note, the
    /// same apps. Then the trees are not walked, so an idle preview of n views
    /// costs nothing per tick instead of O(n). Every 100th quiet call walks
    /// anyway, in case a script turned tracing off.
    private func isQuiet(traced: [String], note: String?) -> Bool {
        let appIDs = runtime.apps.map(\.idNumber)
        defer { lastAppIDs = appIDs; requested = false }
        if traced.isEmpty && note == nil && !requested && appIDs == lastAppIDs && quietPublishes < 100 {
            quietPublishes += 1
            return true
        }
        quietPublishes = 0
        return false
    }

    /// The script failed (a syntax or runtime error): shown over the last good frame.
    public func showError(_ message: String) {
        overlay = message
        record("error", message)
        send(["type": "error", "message": message])
        sendTimeline()
    }

    /// The script ran again cleanly: the overlay goes.
    public func clearError() {
        guard overlay != nil else { return }
        overlay = nil
        send(["type": "error", "message": NSNull()])
    }

    /// Whether the page paused the clock (a host then stops running due work).
    public var isClockPaused: Bool { clockPaused }

    // MARK: requests

    /// A Picker option as the page sent it: its text and its kind
    /// ("string", "number" or "boolean"), as the option list describes it.
    private static func option(_ request: [String: Any]) throws -> LuaValue {
        let text: String = try field(request, "value", "a string")
        switch try field(request, "kind", "a string") as String {
        case "number":
            guard let number = Int(text).map(LuaValue.int) ?? Double(text).map(LuaValue.double) else {
                throw PreviewError("select: the option \(Self.quoted(shortened(text))) is no number")
            }
            return number
        case "boolean":
            guard text == "true" || text == "false" else { throw PreviewError("select: the option is no boolean") }
            return .bool(text == "true")
        case "string": return .string(text)
        case let kind: throw PreviewError("select: an option's kind is string, number or boolean, not \(Self.quoted(shortened(kind)))")
        }
    }

    /// `text` in quotes, as a message names what a page sent.
    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// The field `name` of a request, of the type the page's script sends
    /// (`what` says it); a missing or mistyped one refuses the request
    /// rather than act on a value made up for it.
    private static func field<T>(_ request: [String: Any], _ name: String, _ what: String) throws -> T {
        if let value = request[name] as? T, !isBoolean(request[name]) || T.self == Bool.self { return value }
        let type = request["type"] as? String ?? "a request"
        throw PreviewError("\(type): its \"\(name)\" is \(what)\(request[name] == nil ? ", and is missing" : "")")
    }

    /// Whether a JSON value is true or false (they arrive as NSNumbers too:
    /// `true` set a Slider to 1).
    private static func isBoolean(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return value is Bool }
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }

    /// An integer field (JSON numbers arrive as NSNumber: 2.5, 1e300 and a
    /// boolean are no integers; one past 2^53 is read exactly or refused).
    private static func integer(_ request: [String: Any], _ name: String) throws -> Int {
        let number: NSNumber = try field(request, name, "an integer")
        let type = String(cString: number.objCType)
        let exact: Int? = type == "d" || type == "f" ? Int(exactly: number.doubleValue)
            : NSNumber(value: number.int64Value) == number ? Int(number.int64Value) : nil
        guard let int = exact else {
            throw PreviewError("\(request["type"] as? String ?? "a request"): its \"\(name)\" is an integer")
        }
        return int
    }

    /// Carries out a page's request: a JSON object with a "type" (the
    /// page's script sends them). One the preview cannot read is refused,
    /// and the pages are told, as for one it cannot carry out.
    private func handle(_ text: String?) {
        guard let text, let data = text.data(using: .utf8),
              let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let type = request["type"] as? String else {
            let what = text == nil ? "a binary message" : "\(text!.utf8.count) bytes that are no JSON object with a \"type\""
            refuse("a request the preview cannot read (\(what)): a page sends JSON text")
            return
        }
        let nodeID = request["node"] as? String ?? ""
        // A request that may change a tree: the next publish looks (an
        // inspection, the graph, pausing the clock change none).
        if !["inspect", "graph", "clock"].contains(type) || request["action"] as? String == "step" { requested = true }
        noteAcknowledged(request)
        do {
            switch type {
            case "resync":                          // a page could not apply a patch: every app whole
                lastFrame = ""
                framedApps = []
                needsFrame = true
            case "select", "setValue", "step", "tap", "submit", "toggle", "setText", "scroll", "pop", "delete", "move", "refresh",
                 "focus":
                // A request on a node that went under it (a click racing a
                // frame) is dropped: it is no error of the script's.
                guard let node = try target(of: request) else {
                    record("event", "\(type) on a node no longer drawn: not carried out")
                    needsFrame = true
                    return
                }
                try act(type, on: node, request)
                needsFrame = true
            case "inspect":
                guard let path = PreviewTree.path(nodeID, in: runtime), let node = path.last else {
                    send(["type": "inspection", "node": nodeID, "gone": true])   // the selection went: not an error
                    return
                }
                send(inspection(of: node, id: nodeID, along: path))
            case "setState":
                let view: String = try Self.field(request, "view", "a view's label")
                let name: String = try Self.field(request, "name", "a state's name")
                let value: String = try Self.field(request, "value", "Lua text")
                // State a SecureField binds is hidden in inspection: the timeline does not show what was typed.
                // Decided before the write and after it, failing closed: shown only if both inspections show it.
                let hidden = request["hidden"] as? Bool == true || isHidden(name, of: view)
                do { try runtime.setState(of: view, name, to: value) } catch where hidden {
                    throw PreviewError(Self.hiding(value, in: "\(error)"))     // an error may quote the value
                }
                let shown = !hidden && !isHidden(name, of: view)
                record("event", "set \(view).\(name) = \(shown ? value : "(hidden: a SecureField's text)")")
                needsFrame = true
            case "graph":
                send(graph(of: request["view"] == nil ? nil : try Self.field(request, "view", "a view's label") as String))
            case "clock":
                switch try Self.field(request, "action", "pause, resume or step") as String {
                case "pause": clockPaused = true
                case "resume": clockPaused = false
                case "step":
                    let seconds: NSNumber = try Self.field(request, "seconds", "a number")
                    if runtime.advanceClock(by: seconds.doubleValue) == false { runtime.runDueWork() }
                    needsFrame = true
                case let action: throw PreviewError("clock: its \"action\" is pause, resume or step, not \(Self.quoted(Self.shortened(action)))")
                }
                send(["type": "clock", "paused": clockPaused])
            default:
                throw PreviewError("unknown request '\(type)'")
            }
        } catch {
            refuse("\(error)")
        }
    }

    /// A request that failed or was refused: said in the timeline and to the pages.
    private func refuse(_ message: String) {
        record("error", message)
        send(["type": "failure", "message": Self.shortened(message)])
        needsFrame = true
    }

    /// Sends a page that just connected the last frame, the whole timeline
    /// and the error shown over the frame, if any — to it alone: the pages
    /// already open have them.
    private func welcome(_ page: UUID) {
        sendWholeFrame(to: page)
        if !timeline.isEmpty { clients.send(Self.encode(["type": "timeline", "entries": newestEntries()]), to: page) }
        if let overlay { clients.send(Self.encode(["type": "error", "message": overlay]), to: page) }
    }

    /// Sends one page every app whole: a new page, or one that fell behind on patches.
    private func sendWholeFrame(to page: UUID) {
        if lastFrame.isEmpty {                         // patched since the last whole frame: drawn anew
            let drawing = PreviewTree.json(of: runtime)
            lastFrame = Self.encode(drawing.json)
            framedApps = runtime.apps.map(\.idNumber)
            drawnAt = drawing.drawn
        }
        clients.send(frameMessage(lastFrame), to: page, kind: .frame)
    }

    /// A frame's message: the apps (JSON encoded once, as compared), what re-rendered, the acks.
    private func frameMessage(_ appsJSON: String, rerendered: [String] = [], costs: [String: Double] = [:],
                              note: String? = nil) -> String {
        let fields: [String: Any] = ["type": "frame", "rerendered": rerendered, "costs": costs, "note": note ?? NSNull(),
                                     "acked": acknowledged]
        return "{\"apps\":" + appsJSON + "," + Self.encode(fields).dropFirst()
    }

    /// Carries out a page's action on `node`, as a script or a test would.
    private func act(_ type: String, on node: RenderNode, _ request: [String: Any]) throws {
        if type != "scroll" {     // a view's node has its type as its text: said once
            let label = node.kind == .component ? nil : node.text
            record("event", "\(type) \(node.typeName) \(label.map { "\"\($0)\"" } ?? "")")
        }
        switch type {
        case "select": try runtime.select(node, Self.option(request))
        case "setValue": try runtime.setValue(node, (Self.field(request, "value", "a number") as NSNumber).doubleValue)
        case "step":
            let by = try Self.integer(request, "by")
            guard by == 1 || by == -1 else { throw PreviewError("step: its \"by\" is 1 or -1, a step up or down, not \(by)") }
            try runtime.step(node, by: by)
        case "tap": try runtime.tap(node)
        case "submit":
            do {
                try runtime.tap(node, submit: true)
            } catch let error as LunetteError where "\(error)".contains("has no :onSubmit on it or around it") {
                // Return in a field nothing submits (a number field's commit, a plain field):
                // as in SwiftUI, nothing runs, and it is no error of the script's.
                record("event", "submit: no onSubmit on it or around it, nothing runs")
            }
        case "toggle": try runtime.toggle(node)
        case "setText":
            let text: String = try Self.field(request, "text", "a string")
            do {
                try runtime.setText(node, text)
            } catch let error as LunetteError where "\(error)".contains("the text typed is no number") {
                // A field bound to a number while its text is being edited ("", "-", "1e"):
                // as TextField(value:format:), the number stays until the text reads as one.
                record("event", "setText \(Self.quoted(Self.shortened(text))): no number yet, the value stays")
            }
        case "scroll": try runtime.scroll(node, to: Self.integer(request, "row"))
        case "delete": try runtime.delete(node)
        case "move": try runtime.move(node, to: Self.integer(request, "to"))
        case "refresh": try runtime.refresh(node)
        case "focus": try runtime.focus(node)
        default: try NavigationPop(runtime: runtime).pop(node)
        }
    }

    /// The node a request meant. A page names it by its id (its place in the
    /// frame the page drew) and by what it was (type, label, the view it was
    /// drawn in); the tree may have moved since. The node at the id if it is
    /// still that node; else the one node of that type and label in that
    /// view; else nil (gone, or ambiguous: acting on a guess could tap the
    /// wrong row).
    private func target(of request: [String: Any]) throws -> RenderNode? {
        let id = request["node"] as? String ?? ""
        guard PreviewTree.isWellFormed(id) else {            // a moved node is found by what it was; a made-up id is refused
            throw PreviewError("\(request["type"] as? String ?? "a request"): its \"node\" is an id the page was sent, "
                               + "not \(Self.quoted(Self.shortened(id)))")
        }
        let found = PreviewTree.node(id, in: runtime)
        guard let expected = request["expect"] as? [String: Any] else { return found }
        if let label = expected["label"], !(label is String) {
            throw PreviewError("\(request["type"] as? String ?? "a request"): its expected label is text, not \(type(of: label))")
        }
        let identity = PreviewTree.Identity(type: expected["type"] as? String, text: expected["text"] as? String,
                                            label: expected["label"] as? String)
        if let found, identity.matches(found) { return found }
        // A field's prompt may follow what is typed into it ("Username (3)"): at its own place,
        // of its own type, it is the field the person is typing in (every keystroke was refused).
        if let found, found.kind == .textField || found.kind == .secureField, found.typeName == identity.type { return found }
        guard let label = expected["view"] as? String, let view = PreviewTree.view(label, in: runtime) else { return nil }
        let candidates = PreviewTree.descendants(of: view, including: true).filter(identity.matches)
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The last request of each page handled, by the page's own count: a
    /// frame carries them, so a page can tell a frame drawn before its
    /// latest keystroke (whose field value is stale) from one drawn after.
    private var acknowledged: [String: Int] = [:]
    /// Whether a request was handled since a frame or patch last carried
    /// `acknowledged`: a page waiting for its answer (the text typed after a
    /// Return) is told even when the request changed nothing drawn.
    private var unsentAcknowledgment = false

    private func noteAcknowledged(_ request: [String: Any]) {
        guard let client = request["client"] as? String, client.utf8.count <= 64, let seq = request["seq"] as? Int else { return }
        if acknowledged[client] == nil && acknowledged.count >= 64 { acknowledged.removeAll() }   // pages come and go
        acknowledged[client] = seq
        unsentAcknowledgment = true
    }

    /// What the inspector shows of `node`, found at the end of `path` (the
    /// nodes from its app's top): a node that is no view shows the view it
    /// belongs to, the nearest enclosing one — found along the path once (it
    /// was found again from the top for each level, and an id of 40,000
    /// characters held the runtime's thread for half a minute).
    private func inspection(of node: RenderNode, id: String, along path: [RenderNode]) -> [String: Any] {
        var out: [String: Any] = ["type": "inspection", "node": id, "nodeType": node.typeName]
        out["modifiers"] = node.modifiers.map { "\($0.name)(\($0.value))" }
        out["attributes"] = node.attributes.map { "\($0.name) = \($0.value)" }
        if let view = path.reversed().lazy.compactMap({ self.runtime.inspect($0) }).first {
            out["view"] = view.label
            out["renders"] = view.renders
            out["dependencies"] = view.dependencies
            out["state"] = view.state.split(separator: "\n").map(String.init)
            out["inputs"] = view.inputs.split(separator: "\n").map(String.init)
            out["lastRender"] = view.lastRender ?? NSNull()
            out["milliseconds"] = view.lastRenderSeconds * 1000
        }
        return out
    }

    /// The dependency graph of one view (or of every view) as JSON and as a Mermaid diagram.
    private func graph(of view: String?) -> [String: Any] {
        var views: [(label: String, node: RenderNode)] = []   // found from its node: by label, a pass over the trees each
        func visit(_ nodes: [RenderNode]) {
            for node in nodes {
                if let label = node.viewLabel, view == nil || view == "" || label == view { views.append((label, node)) }
                visit(node.children)
            }
        }
        for app in runtime.apps { visit(app.nodes) }
        var edges: [[String: String]] = []
        var mermaid = "graph LR\n"
        var ids: [String: String] = [:]                  // one Mermaid id a label ("A-B#1" and "A_B#1" were one)
        func mermaidID(_ label: String) -> String {
            if let id = ids[label] { return id }
            let id = "n\(ids.count)"
            ids[label] = id
            return id
        }
        for (label, node) in views {
            for dependency in runtime.dependencies(of: node) ?? [] {
                edges.append(["view": label, "reads": dependency])
                mermaid += "  \(mermaidID(dependency))[\"\(Self.mermaidText(dependency))\"] --> "
                    + "\(mermaidID(label))[\"\(Self.mermaidText(label))\"]\n"
            }
        }
        return ["type": "graph", "json": Self.encode(["views": views.map(\.label), "edges": edges]), "mermaid": mermaid]
    }

    /// A label as Mermaid text in quotes: its quotes, #, and line breaks as
    /// Mermaid's entity codes (a script's label could end the quotes).
    private static func mermaidText(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"", "#", "\n", "\r", "<", ">": out += "#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: sending

    /// Keeps the last 2000 entries, trimmed in batches (a flush of 10,000
    /// views records 10,000 lines: one removal per line would be quadratic).
    /// Whether inspection hides state `name` of `view` (a SecureField's
    /// text); true when it cannot tell (the inspection failed, or has no
    /// such line), so what was typed is never shown by mistake.
    private func isHidden(_ name: String, of view: String) -> Bool {
        guard let state = (try? runtime.state(of: view)) ?? nil,
              let line = state.split(separator: "\n").first(where: { $0.hasPrefix("\(name) = ") }) else { return true }
        return line.hasSuffix("(hidden: a SecureField's text)")
    }

    /// `text` with `value` (and a Lua string's contents) in it hidden.
    static func hiding(_ value: String, in text: String) -> String {
        var text = text
        let inner = value.count > 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : ""
        for secret in [value, inner] where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "(hidden: a SecureField's text)")
        }
        return text
    }

    /// The bytes of text one timeline entry or failure keeps: a request's
    /// text is the page's, of any size (a megabyte each kept 4 GB within
    /// the timeline's 4,000 entries, and a new page was sent more than its
    /// outbox takes).
    static let longestEntry = 2000

    /// `text`, cut at a scalar within `longestEntry` bytes, saying how long
    /// it was (a cut by characters walked a megabyte-long one whole).
    static func shortened(_ text: String) -> String {
        let bytes = text.utf8.count
        guard bytes > longestEntry else { return text }
        var cut = text.utf8.index(text.utf8.startIndex, offsetBy: longestEntry)
        while cut > text.utf8.startIndex, UTF8.isContinuation(text.utf8[cut]) { text.utf8.formIndex(before: &cut) }
        return "\(String(text.utf8[..<cut])!)… (\(bytes) bytes)"
    }

    private func record(_ kind: String, _ text: String) {
        timeline.append(["kind": kind, "text": Self.shortened(text), "at": Date().timeIntervalSince1970])
        if timeline.count > 4000 {
            let dropped = timeline.count - 2000
            timeline.removeFirst(dropped)
            sentTimeline = max(0, sentTimeline - dropped)
        }
    }

    /// The newest timeline entries whose texts fit in a quarter of a page's
    /// outbox (a new page is sent them in one message: past its outbox it
    /// was closed at once).
    private func newestEntries() -> [[String: Any]] {
        var bytes = 0, first = timeline.count
        while first > 0 {
            bytes += Self.encode(timeline[first - 1]).utf8.count + 1   // as the outbox counts: encoded
            if bytes > Outbox.maxPendingBytes / 4 { break }
            first -= 1
        }
        return Array(timeline[first...])
    }

    private func sendTimeline() {
        guard sentTimeline < timeline.count else { return }
        send(["type": "timeline", "entries": Array(timeline[sentTimeline...])])
        sentTimeline = timeline.count
    }

    private func send(_ message: [String: Any]) {
        // A frame is every app whole: a page behind by several needs only the last.
        clients.broadcast(Self.encode(message))
    }

    static func encode(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A request the preview could not carry out.
struct PreviewError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a page asked: its text (nil: a binary message, refused), or, from
/// the server itself, that a page opened.
enum PageRequest {
    case hello(UUID)
    case text(String?, from: UUID)
}

/// Requests from pages, queued by server threads for the runtime's thread,
/// bounded: while the runtime is busy (a long body, a paused script) pages
/// cannot make the process hold more than `maxWaiting` requests and
/// `maxWaitingBytes` of them. A request past the bound is refused, and the
/// page that sent it is closed (`PageRequests`): it shows "disconnected"
/// rather than act on a state that lost its input.
final class RequestQueue: @unchecked Sendable {
    /// Requests that may wait for the runtime's thread.
    static let maxWaiting = 4096
    /// Bytes of requests that may wait for the runtime's thread.
    static let maxWaitingBytes = 16 << 20
    /// A page's share of those: one page that sends too much is the one
    /// closed, not the page that sends next.
    static let maxWaitingOfPage = maxWaiting / 4
    static let maxWaitingBytesOfPage = maxWaitingBytes / 4

    private let condition = NSCondition()
    private var waiting: [PageRequest] = []
    private var waitingBytes = 0
    private var pages: [UUID: (count: Int, bytes: Int)] = [:]

    /// Queues `request`; false (nothing queued) past the bound.
    func push(_ request: PageRequest) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if case let .text(text, page) = request {
            let bytes = text?.utf8.count ?? 0
            let share = pages[page] ?? (0, 0)
            guard waiting.count < Self.maxWaiting, bytes <= Self.maxWaitingBytes - waitingBytes,
                  share.count < Self.maxWaitingOfPage, bytes <= Self.maxWaitingBytesOfPage - share.bytes else { return false }
            pages[page] = (share.count + 1, share.bytes + bytes)
            waitingBytes += bytes
        }
        waiting.append(request)                         // a page's hello: one a connection
        condition.signal()
        return true
    }

    /// Every waiting request, after waiting up to `timeout` seconds for one.
    func take(waiting timeout: Double) -> [PageRequest] {
        condition.lock()
        defer { condition.unlock() }
        if waiting.isEmpty && timeout > 0 { _ = condition.wait(until: Date().addingTimeInterval(timeout)) }
        let batch = waiting
        waiting = []
        waitingBytes = 0
        pages = [:]
        return batch
    }
}
