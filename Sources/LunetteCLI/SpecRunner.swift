import Foundation
import Lunette

/// Counts of one or more spec runs.
struct SpecResult {
    var passed = 0, failed = 0, skipped = 0

    static func += (a: inout SpecResult, b: SpecResult) {
        a.passed += b.passed
        a.failed += b.failed
        a.skipped += b.skipped
    }

    /// "3 passed, 1 failed" (", 2 skipped" where any).
    var summary: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}

/// Runs one spec file in a fresh runtime with the busted-style API loaded.
enum SpecRunner {
    static let source = String(decoding: PackageResources.spec_runner_lua, as: UTF8.self)

    static func run(file: String, filter: String?) -> SpecResult {
        do {
            let runtime = try Runtimes.make(for: file, virtualClock: true)
            try runtime.run(source: source, name: "=(spec runner)")
            let call = "return lunette_spec_run(\(quoted(file)), \(filter.map(quoted) ?? "nil"))"
            let counts = try runtime.evaluate(call).first?.split(separator: " ").compactMap { Int($0) } ?? []
            guard counts.count == 3 else { return SpecResult(failed: 1) }
            return SpecResult(passed: counts[0], failed: counts[1], skipped: counts[2])
        } catch {
            print("  ✗ \(error)")
            return SpecResult(failed: 1)
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
