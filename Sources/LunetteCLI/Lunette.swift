import ArgumentParser

/// `lunette`: run Lua view scripts, explore them, test them.
@main
struct LunetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lunette",
        abstract: "SwiftUI's data flow for Lua view scripts.",
        version: "0.1.0",
        subcommands: [RunCommand.self, TestCommand.self, ReplCommand.self, PreviewCommand.self])
}
