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
        var failed = false
        for app in runtime.apps {
            print(json ? runtime.json(of: app) : runtime.text(of: app), terminator: json ? "\n" : "")
            for error in app.errors {
                printError("error: \(error)")
                failed = true
            }
            for warning in runtime.warnings(of: app) { printError("warning: \(warning)") }
        }
        if failed { throw ExitCode(1) }
    }
}
