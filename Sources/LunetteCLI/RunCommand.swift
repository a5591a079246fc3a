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

    @Option(name: .customLong("for"), help: "Stop after this many seconds even if timers are still running.")
    var seconds: Double?

    @Argument(parsing: .remaining, help: "Arguments for the script (the global `arg`, as lua5.4 sets it).")
    var arguments: [String] = []

    func run() throws {
        let runtime = try Runtimes.make(for: file)
        do {
            try Runtimes.setArguments(runtime, script: file, arguments)
            try runtime.run(file: file)
        } catch let error as LunetteError {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        runtime.flush()
        var shown = render(runtime)
        print(shown, terminator: "")
        let started = Date()
        // Timers and sleeping tasks keep the script alive; each update is printed.
        while runtime.hasPendingWork {
            if let limit = seconds, Date().timeIntervalSince(started) >= limit { break }
            if let wait = runtime.secondsUntilNextDue, wait > 0 {
                Thread.sleep(forTimeInterval: min(wait, seconds.map { max(0, $0 - Date().timeIntervalSince(started)) } ?? wait))
            }
            runtime.runDueWork()
            let now = render(runtime)
            if now != shown {
                print(String(format: "-- %.2fs", Date().timeIntervalSince(started)))
                print(now, terminator: "")
                shown = now
            }
        }
        var failed = false
        for app in runtime.apps {
            for error in app.errors {
                printError("error: \(error)")
                failed = true
            }
            for warning in runtime.warnings(of: app) { printError("warning: \(warning)") }
        }
        for error in runtime.effectErrors { printError("error: \(error)") }
        if failed || !runtime.effectErrors.isEmpty { throw ExitCode(1) }
    }

    /// Every mounted app, as text or JSON.
    private func render(_ runtime: LunetteRuntime) -> String {
        runtime.apps.map { json ? runtime.json(of: $0) + "\n" : runtime.text(of: $0) }.joined()
    }
}
