import BookModels
import Foundation
import Lunette

/// lunette-fuzz SEED COUNT [--print]: runs COUNT generated scripts, seeds
/// SEED, SEED+1, ..., each in a fresh sandboxed runtime: run, flush, tap
/// every button, advance the clock, run what falls due. A crash ends the
/// process (scripts/fuzz reports the seed); it prints "ok N" when all ran.
/// With --print it prints the script of SEED instead.
let arguments = CommandLine.arguments.dropFirst()
guard let first = arguments.first, let seed = UInt64(first) else {
    FileHandle.standardError.write(Data("usage: lunette-fuzz SEED [COUNT] [--print]\n".utf8))
    exit(2)
}
if arguments.contains("--print") {
    var generator = ScriptGenerator(seed: seed)
    print(generator.script())
    exit(0)
}
let count = arguments.dropFirst().first.flatMap { UInt64($0) } ?? 100

func buttons(in nodes: [RenderNode]) -> [RenderNode] {
    nodes.flatMap { ($0.kind == .button ? [$0] : []) + buttons(in: $0.children) }
}

for s in seed..<(seed + count) {
    FileHandle.standardError.write(Data("seed \(s)\n".utf8))
    var generator = ScriptGenerator(seed: s)
    let source = generator.script()
    do {
        guard let runtime = try? LunetteRuntime(options: .init(virtualClock: true, memoryLimit: 64 << 20, timeBudget: 0.05)) else { continue }
        try? BookModels.register(in: runtime)
        _ = try? runtime.run(source: source, name: "@fuzz\(s).lua")
        runtime.flush()
        for app in runtime.apps {
            for button in buttons(in: app.nodes).prefix(5) { try? runtime.tap(button) }
            _ = runtime.text(of: app)
            _ = runtime.json(of: app)
        }
        _ = runtime.advanceClock(by: 2)
        runtime.flush()
    }
}
print("ok \(count)")
