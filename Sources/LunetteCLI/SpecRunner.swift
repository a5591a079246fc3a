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
/// test) with the busted-style API loaded, and returns its cases.
enum SpecRunner {
    static let source = String(decoding: PackageResources.spec_runner_lua, as: UTF8.self)

    static func run(file: String, filter: String?, timeout: Double) -> [SpecCase] {
        do {
            let runtime = try Runtimes.make(for: file, virtualClock: true)
            try runtime.installRunnerSupport()
            try runtime.run(source: source, name: "=(spec runner)")
            let call = "return lunette_spec_run(\(quoted(file)), \(filter.map(quoted) ?? "nil"), \(timeout))"
            let records = try runtime.evaluateHostCode(call, name: "=(spec runner)").first ?? ""
            return records.split(separator: "\u{1e}").map { record in
                let fields = record.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
                return SpecCase(file: file, name: fields[1], status: SpecCase.Status(rawValue: fields[0]) ?? .failed,
                                message: fields[2], seconds: Double(fields[3]) ?? 0)
            }
        } catch {
            return [SpecCase(file: file, name: "loading \(file)", status: .failed, message: "\(error)", seconds: 0)]
        }
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
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
