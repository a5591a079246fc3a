/// What can go wrong when a host runs Lua through the runtime.
public enum LunetteError: Error, CustomStringConvertible, Equatable {
    /// The script does not parse: "file.lua:3: '=' expected near 'x'".
    case syntax(String)
    /// The script raised an error while running: "file.lua:12: boom".
    case script(String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The runtime could not be set up (out of memory, a bad registration).
    case setup(String)

    /// The message alone, as a person reads it (`file:line: message` for script errors).
    public var description: String {
        switch self {
        case .syntax(let message), .script(let message), .setup(let message): return message
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        }
    }
}
