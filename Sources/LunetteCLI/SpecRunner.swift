import Foundation
import Lunette

/// One test's outcome.
struct SpecCase {
    enum Status: String { case passed, failed, skipped }
    let file: String
    let name: String
    let status: Status
    let message: String
    let seconds: Double
}

/// Runs one spec file in a fresh runtime (virtual clock, reset before each
/// test) with the busted-style API loaded, writing its results to standard
/// output as they come (the child side of `lunette test`; see SpecProcess).
enum SpecRunner {
    static let source = String(decoding: PackageResources.spec_runner_lua, as: UTF8.self)

    /// What selects and judges the tests of a run (`lunette test`'s options).
    struct Options {
        var filter: [String] = []
        var filterOut: [String] = []
        var tags: String?
        var excludeTags: String?
        var timeout: Double = 10
        var failOnWarnings = false
        var strict = false
        var updateSnapshots = false

        var lua: String {
            func text(_ s: String?) -> String { s.map(quoted) ?? "nil" }
            func list(_ items: [String]) -> String { "{ " + items.map { quoted($0) + ", " }.joined() + "}" }
            return "{ filter = \(list(filter)), filterOut = \(list(filterOut)), tags = \(text(tags)), "
                + "excludeTags = \(text(excludeTags)), timeout = \(timeout), failOnWarnings = \(failOnWarnings), "
                + "strict = \(strict), updateSnapshots = \(updateSnapshots) }"
        }
    }

    /// Runs one file, sending its results on `channel`. The "done" record is
    /// Swift's, sent only once the runner returned: a spec that ends the
    /// process early can never look finished.
    static func run(file: String, options: Options, limits: ScriptLimits, channel: SpecChannelWriter) {
        do {
            let runtime = try Runtimes.make(for: file, limits: limits, virtualClock: true)
            try runtime.installRunnerSupport()
            try SpecResults.install(in: runtime, channel: channel)
            try SpecSnapshots.install(in: runtime, spec: file)
            try runtime.run(source: source, name: "=(spec runner)")
            // Out of the globals before any spec loads: no spec can call the runner again.
            let call = "local run = lunette_spec_run; lunette_spec_run = nil; run(\(quoted(file)), \(options.lua))"
            _ = try runtime.evaluateHostCode(call, name: "=(spec runner)")
        } catch {
            channel.send(SpecRecord(status: "failed", name: "loading \(file)", message: "\(error)"))
        }
        channel.send(SpecRecord(status: "done", name: file))
    }

    /// A Lua string literal of `s`; control characters as `\ddd`, so a
    /// file name with a newline is still one literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 32 || scalar.value == 127: out += String(format: "\\%03d", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// What the Lua runner gets to hand results out: the global
/// `lunette_results`, taken out of the globals before any spec runs, whose
/// one method `results:emit(status, name, message, seconds)` sends a record.
/// The channel itself stays in Swift.
final class SpecResults {
    let channel: SpecChannelWriter
    init(channel: SpecChannelWriter) { self.channel = channel }

    /// The statuses the Lua runner may send ("done" is Swift's own).
    static let statuses: Set<String> = ["start", "passed", "failed", "skipped"]

    static func install(in runtime: LunetteRuntime, channel: SpecChannelWriter) throws {
        let emit = HostType.Method(name: "emit") { object, arguments in
            guard let results = object as? SpecResults else { return .none }
            try results.emit(arguments)
            return .none
        }
        try runtime.register(HostType(name: "LunetteSpecResults", swiftType: SpecResults.self, properties: [],
                                      methods: [emit], make: nil))
        try runtime.setGlobal("lunette_results", to: SpecResults(channel: channel))
    }

    private func emit(_ arguments: [LuaValue]) throws {
        func text(_ i: Int) -> String {
            guard i < arguments.count, case .string(let s) = arguments[i] else { return "" }
            return s
        }
        guard Self.statuses.contains(text(0)) else {
            throw ValidationErrorText("results:emit: unknown status \(SpecRunner.quoted(text(0)))")
        }
        var seconds = 0.0
        if arguments.count > 3 {
            if case .double(let d) = arguments[3] { seconds = d } else if case .int(let n) = arguments[3] { seconds = Double(n) }
        }
        channel.send(SpecRecord(status: text(0), name: Self.cut(text(1), at: 4096), message: Self.cut(text(2), at: 65536),
                                seconds: seconds.isFinite ? seconds : 0))
    }

    /// Text of at most `limit` characters, the cut said: a record stays far
    /// below what the parent accepts (SpecChannel.longestPayload).
    static func cut(_ s: String, at limit: Int) -> String {
        s.count <= limit ? s : s.prefix(limit) + "… (cut at \(limit) characters)"
    }
}

/// The snapshot file of one spec (`__snapshots__/<spec>.snap` beside it),
/// as the runner reads and writes it: the global `lunette_snapshots`, taken
/// out of the globals before any spec runs (so snapshots work under
/// --sandbox too, and a spec reaches no other file through it).
final class SpecSnapshots {
    let path: String

    init(spec: String) {
        let url = URL(fileURLWithPath: spec)
        var name = url.lastPathComponent
        if name.hasSuffix(".lua") { name.removeLast(4) }
        path = url.deletingLastPathComponent().appendingPathComponent("__snapshots__")
            .appendingPathComponent(name + ".snap").path
    }

    static func install(in runtime: LunetteRuntime, spec: String) throws {
        let read = HostType.Method(name: "read") { object, _ in
            guard let snapshots = object as? SpecSnapshots,
                  let data = FileManager.default.contents(atPath: snapshots.path) else { return .none }
            // The format keeps every file UTF-8 (snapshots.lua); one that is not
            // was written otherwise, and reading it so would replace its bytes.
            guard let text = String(validating: data, as: UTF8.self) else {
                throw ValidationErrorText("\(snapshots.path) is not UTF-8 text (an older runner wrote bytes into it): "
                    + "delete it, and the next run writes it anew")
            }
            return .string(text)
        }
        let write = HostType.Method(name: "write") { object, arguments in
            guard let snapshots = object as? SpecSnapshots, case .string(let text)? = arguments.first else { return .none }
            let directory = (snapshots.path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: snapshots.path), options: .atomic)
            } catch {                                      // a person's words, not an NSError's dump
                throw ValidationErrorText("cannot write \(snapshots.path): \((error as NSError).localizedDescription)")
            }
            return .none
        }
        let path = HostType.Method(name: "path") { object, _ in
            (object as? SpecSnapshots).map { .string($0.path) } ?? .none
        }
        try runtime.register(HostType(name: "LunetteSpecSnapshots", swiftType: SpecSnapshots.self, properties: [],
                                      methods: [read, write, path], make: nil))
        try runtime.setGlobal("lunette_snapshots", to: SpecSnapshots(spec: spec))
    }
}

/// One result of a spec file, as the runner hands it out: status
/// (start, passed, failed, skipped, done), name, message, seconds. On the
/// channel it is a JSON object, so no name or message can break the framing.
struct SpecRecord {
    var status: String
    var name: String
    var message = ""
    var seconds = 0.0

    init(status: String, name: String, message: String = "", seconds: Double = 0) {
        self.status = status
        self.name = name
        self.message = message
        self.seconds = seconds
    }

    /// The record as JSON (strings escaped by JSONSerialization: any text fits).
    var json: Data {
        let object: [String: Any] = ["status": status, "name": name, "message": message, "seconds": seconds]
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
    }

    /// A record from its JSON; nil unless it has every field with the right type and a known status.
    init?(json: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let status = object["status"] as? String, SpecResults.statuses.contains(status) || status == "done",
              let name = object["name"] as? String, let message = object["message"] as? String,
              let seconds = object["seconds"] as? NSNumber else { return nil }
        self.init(status: status, name: name, message: message, seconds: seconds.doubleValue)
    }
}

/// Finding `*_spec.lua` files.
enum SpecFiles {
    static func defaultRoots() -> [String] {
        FileManager.default.fileExists(atPath: "spec") ? ["spec"] : ["."]
    }

    /// The spec files under `paths`, and whether every path named one: a
    /// path that is missing, or a directory without specs, fails the run
    /// (after the files found ran), as busted's exit status says.
    static func find(in paths: [String]) -> (files: [String], allFound: Bool) {
        var files: [String] = []
        var allFound = true
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("error: no such file or directory: \(path)")
                allFound = false
                continue
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
            let specs = found.filter { $0.hasSuffix("_spec.lua") && !$0.contains(".build") }.sorted()
            if specs.isEmpty {
                printError("error: no spec files (names ending _spec.lua) in \(path)")
                allFound = false
            }
            files += specs.map { (path as NSString).appendingPathComponent($0) }
        }
        return (files, allFound)
    }
}
