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
        var filter: String?
        var filterOut: String?
        var tags: String?
        var excludeTags: String?
        var timeout: Double = 10
        var failOnWarnings = false
        var strict = false

        var lua: String {
            func text(_ s: String?) -> String { s.map(quoted) ?? "nil" }
            return "{ filter = \(text(filter)), filterOut = \(text(filterOut)), tags = \(text(tags)), "
                + "excludeTags = \(text(excludeTags)), timeout = \(timeout), failOnWarnings = \(failOnWarnings), "
                + "strict = \(strict) }"
        }
    }

    static func run(file: String, options: Options, limits: ScriptLimits) {
        do {
            let runtime = try Runtimes.make(for: file, limits: limits, virtualClock: true)
            try runtime.installRunnerSupport()
            try runtime.run(source: source, name: "=(spec runner)")
            let call = "lunette_spec_run(\(quoted(file)), \(options.lua))"
            _ = try runtime.evaluateHostCode(call, name: "=(spec runner)")
        } catch {
            emit(SpecRecord(status: "failed", name: "loading \(file)", message: "\(error)"))
            emit(SpecRecord(status: "done", name: file))
        }
    }

    private static func emit(_ record: SpecRecord) {
        FileHandle.standardOutput.write(Data(record.encoded.utf8))
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// One result line of a spec file, as the runner hands it out: status
/// (start, passed, failed, skipped, done), name, message, seconds.
struct SpecRecord {
    static let fieldSeparator: Character = "\u{1f}"
    /// A record is framed (GS ... RS), so what specs print between records passes through.
    static let recordStart: UInt8 = 0x1d, recordEnd: UInt8 = 0x1e
    var status: String
    var name: String
    var message = ""
    var seconds = 0.0

    var encoded: String {
        "\u{1d}" + [status, name, message, String(format: "%.4f", seconds)].joined(separator: String(Self.fieldSeparator)) + "\u{1e}"
    }

    init(status: String, name: String, message: String = "", seconds: Double = 0) {
        self.status = status
        self.name = name
        self.message = message
        self.seconds = seconds
    }

    init?(decoding record: String) {
        let fields = record.split(separator: Self.fieldSeparator, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4 else { return nil }
        self.init(status: fields[0], name: fields[1], message: fields[2], seconds: Double(fields[3]) ?? 0)
    }
}

/// Finding `*_spec.lua` files.
enum SpecFiles {
    static func defaultRoots() -> [String] {
        FileManager.default.fileExists(atPath: "spec") ? ["spec"] : ["."]
    }

    static func find(in paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("error: no such file or directory: \(path)")
                continue
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix("_spec.lua") && !$0.contains(".build") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
        return files
    }
}
