import Foundation

/// How `lunette test` shows results: readable lines, TAP, and JUnit XML.
enum SpecReport {
    /// "3 passed, 1 failed" (", 2 skipped" where any).
    static func summary(_ cases: [SpecCase]) -> String {
        let passed = cases.filter { $0.status == .passed }.count
        let failed = cases.filter { $0.status == .failed }.count
        let skipped = cases.filter { $0.status == .skipped }.count
        return "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    /// The readable line of one test: ✓ / ✗ / -, a failure with its message.
    static func line(_ c: SpecCase) -> String {
        switch c.status {
        case .passed: return "  ✓ \(c.name)\n"
        case .skipped: return "  - \(c.name) (pending)\n"
        case .failed: return "  ✗ \(c.name)\n      " + c.message.replacingOccurrences(of: "\n", with: "\n      ") + "\n"
        }
    }

    /// TAP version 13 for all cases.
    static func tap(_ cases: [SpecCase]) -> String {
        var out = "TAP version 13\n"
        for (i, c) in cases.enumerated() {
            let title = "\(c.file): \(c.name)"
            switch c.status {
            case .passed: out += "ok \(i + 1) - \(title)\n"
            case .skipped: out += "ok \(i + 1) - \(title) # SKIP pending\n"
            case .failed:
                out += "not ok \(i + 1) - \(title)\n  ---\n  message: \(yamlQuoted(c.message))\n  ...\n"
            }
        }
        out += "# \(summary(cases))\n1..\(cases.count)\n"
        return out
    }

    /// JUnit XML: one testsuite per spec file.
    static func junit(_ cases: [SpecCase]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failed = cases.filter { $0.status == .failed }.count
        let skipped = cases.filter { $0.status == .skipped }.count
        out += "<testsuites name=\"lunette\" tests=\"\(cases.count)\" failures=\"\(failed)\" skipped=\"\(skipped)\">\n"
        var files: [String] = []
        for c in cases where !files.contains(c.file) { files.append(c.file) }
        for file in files {
            let mine = cases.filter { $0.file == file }
            let time = mine.reduce(0) { $0 + $1.seconds }
            out += "  <testsuite name=\"\(xml(file))\" tests=\"\(mine.count)\" "
            out += "failures=\"\(mine.filter { $0.status == .failed }.count)\" "
            out += "skipped=\"\(mine.filter { $0.status == .skipped }.count)\" time=\"\(String(format: "%.4f", time))\">\n"
            for c in mine {
                out += "    <testcase classname=\"\(xml(file))\" name=\"\(xml(c.name))\" time=\"\(String(format: "%.4f", c.seconds))\""
                switch c.status {
                case .passed: out += "/>\n"
                case .skipped: out += "><skipped/></testcase>\n"
                case .failed:
                    out += "><failure message=\"\(xml(c.message.components(separatedBy: "\n")[0]))\">\(xml(c.message))</failure></testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    private static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func yamlQuoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\n", with: " ") + "'"
    }
}
