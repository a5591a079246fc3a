import Lunette
let runtime = try LunetteRuntime(options: .init(sandboxed: false))
let app = try runtime.run(file: CommandLine.arguments[1])
if let app { print(runtime.text(of: app), terminator: "") }
