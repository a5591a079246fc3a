import ArgumentParser

/// `lunette repl [FILE]`: explore view scripts interactively.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Interactive Lua with the runtime loaded; reports what re-renders after each line.",
        discussion: "With input piped in, it runs the same way, so sessions can be scripted.")

    @Argument(help: "A script to run first (its views are mounted; :reload runs it again).")
    var file: String?

    @OptionGroup var limits: ScriptLimits

    func run() throws {
        try Repl(file: file, limits: limits).run()
    }
}
