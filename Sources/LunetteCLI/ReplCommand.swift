import ArgumentParser
import Foundation

/// `lunette repl [FILE]`: explore view scripts interactively.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Interactive Lua with the runtime loaded; reports what re-renders after each line.",
        discussion: "With input piped in, it runs the same way, so sessions can be scripted.")

    @Argument(help: "A script to run first (its views are mounted; :reload runs it again).")
    var file: String?

    @OptionGroup var limits: ScriptLimits

    @OptionGroup var storage: StorageOption

    func run() throws {
        let repl = try Repl(file: file, limits: limits, storage: storage.store)
        EndOnSignal.install(keeping: repl.runtime.storageWait, loop: false, signals: [SIGTERM])   // Ctrl-C stops a line
        let succeeded = repl.run()
        repl.runtime.waitForStorage()                 // writes run on the store's queue: let them land
        for error in repl.runtime.storageErrors { FileHandle.standardError.write(Data("error: \(error)\n".utf8)) }
        if !succeeded && isatty(STDIN_FILENO) == 0 { throw ExitCode(1) }     // a piped session says a line failed
    }
}
