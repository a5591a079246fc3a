import BookModels
import Foundation
import Lunette

/// Runtimes as the command line makes them: the full standard library
/// (the embedding's sandbox with --sandbox), a memory cap, the seeds' Swift
/// models registered, and `require` finding modules next to the script.
enum Runtimes {
    static func make(for scriptPath: String, limits: ScriptLimits, virtualClock: Bool = false,
                     storage: AppStorageStore? = nil) throws -> LunetteRuntime {
        let directory = URL(fileURLWithPath: scriptPath).deletingLastPathComponent().path
        var options = limits.options(directory: directory, virtualClock: virtualClock)
        options.appStorage = storage
        options.scene = URL(fileURLWithPath: scriptPath).standardizedFileURL.path   // sceneStorage: per script
        let runtime = try LunetteRuntime(options: options)
        try BookModels.register(in: runtime)
        return runtime
    }

    /// Sets `arg` as lua5.4 does: arg[0] is the script, arg[1...] its arguments.
    static func setArguments(_ runtime: LunetteRuntime, script: String, _ arguments: [String]) throws {
        let items = ([script] + arguments).enumerated().map { "[\($0.offset)] = \(SpecRunner.quoted($0.element))" }
        try runtime.run(source: "arg = { \(items.joined(separator: ", ")) }", name: "=(arguments)")
    }
}

/// Writes to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
