import ArgumentParser
import Lunette

/// What scripts may use, as `run`, `test` and `repl` take it on the command line.
struct ScriptLimits: ParsableArguments {
    @Flag(name: .long, help: "Run under exactly the embedding's default sandbox (no io, no os.execute, no C modules, ...).")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: "Megabytes the Lua state may use; past it allocations fail with 'not enough memory'.")
    var memoryLimit: Int = Self.defaultMemoryMegabytes

    @Option(name: .customLong("time-budget"), parsing: .unconditional, help: "Seconds one run (a chunk, a body, an action, a task step) may take.")
    var timeBudget: Double = LunetteRuntime.Options().timeBudget

    /// 1 GiB: far more than a view script needs, and far below what this
    /// machine kind has, so Swift can still allocate when Lua cannot.
    static let defaultMemoryMegabytes = 1024

    func validate() throws {
        guard memoryLimit > 0, memoryLimit <= LunetteRuntime.Options.maximumMemoryLimit >> 20 else {
            throw ValidationError("--memory-limit must be a number of megabytes from 1 to \(LunetteRuntime.Options.maximumMemoryLimit >> 20), got \(memoryLimit)")
        }
        guard timeBudget >= LunetteRuntime.Options.minimumTimeBudget, timeBudget <= LunetteRuntime.Options.maximumTimeBudget else {
            throw ValidationError("--time-budget must be a number of seconds from \(LunetteRuntime.Options.minimumTimeBudget) to \(Int(LunetteRuntime.Options.maximumTimeBudget)), got \(timeBudget)")
        }
    }

    /// Runtime options for a script in `directory`.
    func options(directory: String, virtualClock: Bool) -> LunetteRuntime.Options {
        .init(sandboxed: sandbox, modulePaths: [directory], virtualClock: virtualClock,
              memoryLimit: memoryLimit * 1024 * 1024, timeBudget: timeBudget)
    }

    /// The same limits as arguments for a child `lunette` process.
    var arguments: [String] {
        (sandbox ? ["--sandbox"] : []) + ["--memory-limit", "\(memoryLimit)", "--time-budget", "\(timeBudget)"]
    }
}
