import Foundation
import Lunette
import LunetteStorage

// The host's own models: an Inbox of Messages.
let inbox = Inbox()
let day = 86_400.0
inbox.receive(Message(subject: "Welcome", sender: "Ada", date: Date(timeIntervalSince1970: 20_000 * day)))
inbox.receive(Message(subject: "Lunch?", sender: "Grace", date: Date(timeIntervalSince1970: 20_001 * day)))

// A runtime for the user's scripts: sandboxed (the default), each entry into
// Lua bounded by a time budget, its memory capped, app storage in SQLite.
// It belongs to this thread (the main actor's): call it from here only.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("InboxHost-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let storePath = directory.appendingPathComponent("app-storage.sqlite").path
let options = LunetteRuntime.Options(sandboxed: true, memoryLimit: 64 << 20, timeBudget: 0.5,
                                     appStorage: try SQLiteAppStorage(path: storePath))
let runtime = try LunetteRuntime(options: options)
try runtime.register(Message.self)
try runtime.register(Inbox.self)
try runtime.setGlobal("inbox", to: inbox)                 // an object: shared with Lua
try runtime.setGlobal("hostName", to: "InboxHost")        // a plain value: copied

// What rendered anew after each flush: a host redraws only these views.
var redrawn: Set<String> = []
runtime.onTreeChange { change in redrawn.formUnion(change.views) }     // on the runtime's thread, after a flush
@MainActor func report(_ step: String) {
    print("\(step): redrawn \(redrawn.sorted().joined(separator: ", "))")
    redrawn = []
}

// The user's script.
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../inbox.lua").standardized.path
guard let app = try runtime.run(file: script) else { fatalError("inbox.lua returned no view") }
report("mounted")
print(runtime.text(of: app), terminator: "")

// A tap, as the user would: the Archive button of the row with id "Welcome".
let welcome = app.find(id: .string("Welcome"))!
try runtime.tap(welcome.find(text: "Archive", type: "Button")!)
report("archived Welcome")

// The network changes the models on another thread; the runtime's thread
// flushes when told (onModelChange runs on the changing thread: it only wakes us).
let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
runtime.onModelChange { changed.yield() }
Thread.detachNewThread { [inbox] in
    inbox.messages[1].isRead = true
    inbox.receive(Message(subject: "Build passed", sender: "CI", date: Date(timeIntervalSince1970: 20_002 * day)))
}
for await _ in changes {
    runtime.flush()
    if app.find(id: .string("Build passed")) != nil, app.findAll(text: "unread").count == 1 { break }
}
report("from the network")
print(runtime.text(of: app), terminator: "")

// Methods of each shape, from Lua: a thrown error is a Lua error naming the method.
print(try runtime.evaluate("""
    local scheduled = inbox:schedule("Standup", "Bot", 30, "inbox")
    local reply = inbox:reply("Lunch?", "Me", "Yes!")
    return inbox:total(), inbox:count("archive"), scheduled.subject, reply.subject, hostName
    """))
do {
    _ = try runtime.evaluate("inbox:move('Nope', 'spam')")
} catch {
    print("refused: \(error)")
}
runtime.flush()
report("scheduled and replied")

// App storage: a stored value, kept in the SQLite file.
try runtime.tap(app.find(text: "Greet", type: "Button")!)
print(app.find(type: "Header")!.find(type: "Text")!.text!)
runtime.waitForStorage()                                  // the store writes on a queue of its own

// A hostile script leaves the host up: stopped by its budget, or by the memory cap.
for hostile in ["while true do end", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100000) .. i end"] {
    do {
        try runtime.run(source: hostile, name: "=hostile")
    } catch {
        print("stopped: \(error)")
    }
}

// Unmount: the views go, their onDisappear runs, the runtime stays.
runtime.unmount(app)
print("apps mounted: \(runtime.apps.count), storage errors: \(runtime.storageErrors.count)")
try? FileManager.default.removeItem(at: directory)
