import ArgumentParser
import Foundation
import Lunette

/// `lunette run FILE`: runs a view script and prints what it rendered.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a Lua view script and print the rendered tree.",
        discussion: "The script returns its root view, or mounts views itself with ui.mount.")

    @Argument(help: "The Lua script to run.")
    var file: String

    @Flag(name: .long, help: "Print trees as JSON.")
    var json = false

    @Flag(name: .long, help: "Run the script again when it or a module next to it changes, keeping view state.")
    var watch = false

    @Option(name: .customLong("for"), parsing: .unconditional, help: "Stop after this many seconds even if timers are still running.")
    var seconds: Double?

    func validate() throws {
        if let seconds, !(seconds >= 0 && seconds.isFinite) {
            throw ValidationError("--for must be a number of seconds, 0 or more, got \(seconds)")
        }
    }

    @OptionGroup var limits: ScriptLimits

    @OptionGroup var storage: StorageOption

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script (the global `arg`, as lua5.4 sets it): everything after the script, options included.")
    var arguments: [String] = []

    func run() throws {
        let runtime = try Runtimes.make(for: file, limits: limits, storage: storage.store)
        EndOnSignal.install(keeping: runtime.storageWait, loop: true)
        runtime.onOpenURL { url in print("open URL: \(url)") }   // openURL's default action: the command line prints it
        do {
            try Runtimes.setArguments(runtime, script: file, arguments)
            try runtime.run(file: file)
        } catch let error as LunetteError {
            // What it mounted before it failed, and its views' errors: often the
            // cause (a view whose body raised has no button for the next line to tap).
            runtime.flush()
            print(render(runtime), terminator: "")
            _ = reportProblems(runtime)
            printError("error: \(error)")
            // --watch waits for the fix, as after a later save's error; a file it cannot read has none to wait for
            if case .unreadable = error { throw ExitCode(1) }
            if !watch { throw ExitCode(1) }
        }
        runtime.flush()
        var shown = render(runtime)
        print(shown, terminator: "")
        fflush(stdout)
        let started = Date()
        let sources = Watcher(script: file)
        // Timers and sleeping tasks keep the script alive (and --watch keeps it
        // alive until interrupted); each update is printed.
        while (runtime.hasPendingWork || watch) && EndOnSignal.requested == 0 {
            let elapsed = Date().timeIntervalSince(started)
            if let limit = seconds, elapsed >= limit { break }
            var wait = runtime.secondsUntilNextDue ?? .infinity
            if watch { wait = min(wait, 0.2) }
            if let limit = seconds { wait = min(wait, max(0, limit - elapsed)) }
            if wait > 0 { EndOnSignal.sleep(wait) }     // Ctrl-C wakes it
            if EndOnSignal.requested != 0 { break }
            if watch, sources.changed() {
                separate(since: started, reloaded: true)
                do {
                    try runtime.reload(file: file)
                } catch {
                    printError("error: \(error)")
                }
                shown = ""
            }
            runtime.runDueWork()
            let now = render(runtime)
            if now != shown {
                if !shown.isEmpty { separate(since: started, reloaded: false) }
                print(now, terminator: "")
                fflush(stdout)
                shown = now
            }
        }
        let failed = reportProblems(runtime)          // it waits for the store: Ctrl-C loses no write
        try EndOnSignal.exitIfRequested()
        if failed { throw ExitCode(1) }
    }

    /// Prints the apps' errors and warnings, the effects' and the store's
    /// errors (standard error); whether there was an error.
    private func reportProblems(_ runtime: LunetteRuntime) -> Bool {
        var failed = false
        for app in runtime.apps {
            for error in app.errors + app.eventErrors {
                printError("error: \(error)")
                failed = true
            }
            for warning in runtime.warnings(of: app) where !app.eventErrors.contains(warning) {
                printError("warning: \(warning)")
            }
        }
        runtime.waitForStorage()                      // writes run on the store's queue: let them land
        for error in runtime.effectErrors + runtime.storageErrors { printError("error: \(error)") }
        return failed || !runtime.effectErrors.isEmpty || !runtime.storageErrors.isEmpty
    }

    /// The line before an update's trees: "-- 1.25s" (and why, for a
    /// reload); with --json a JSON object of its own, `{"elapsed":1.25}`
    /// (`"reloaded":"file"`), so the output stays one JSON value a line.
    private func separate(since started: Date, reloaded: Bool) {
        let elapsed = Date().timeIntervalSince(started)
        guard json else {
            print(String(format: "-- %.2fs", elapsed) + (reloaded ? ": \(file) changed, running it again" : ""))
            return
        }
        var fields: [String: Any] = ["elapsed": (elapsed * 100).rounded() / 100]
        if reloaded { fields["reloaded"] = file }
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        print(String(decoding: data, as: UTF8.self))
    }

    /// Every mounted app, as text or JSON.
    private func render(_ runtime: LunetteRuntime) -> String {
        runtime.apps.map { json ? runtime.json(of: $0) + "\n" : runtime.text(of: $0) }.joined()
    }
}

/// Notices changes to a script and the Lua files beside it (modules it may require).
final class Watcher {
    private let directory: String
    private var stamps: [String: Date]

    init(script: String) {
        directory = URL(fileURLWithPath: script).deletingLastPathComponent().path
        stamps = [:]
        stamps = scan()
    }

    /// True once per change since the last call.
    func changed() -> Bool {
        let now = scan()
        defer { stamps = now }
        return now != stamps
    }

    private func scan() -> [String: Date] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var result: [String: Date] = [:]
        for name in names where name.hasSuffix(".lua") {
            let path = (directory as NSString).appendingPathComponent(name)
            if let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
                result[path] = date
            }
        }
        return result
    }
}
