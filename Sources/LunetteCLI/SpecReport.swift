import Foundation

/// How `lunette test` shows results: readable lines, TAP, and JUnit XML —
/// each well-formed whatever a name or message holds (R25): control
/// characters are shown as visible escapes (`\u{1B}`), never written raw.
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
        case .passed: return "  ✓ \(visible(c.name))\n"
        case .skipped: return "  - \(visible(c.name)) (pending\(pendingReason(c).map { ": " + visible($0) } ?? ""))\n"
        case .failed:
            return "  ✗ \(visible(c.name))\n      " + visible(c.message, keeping: ["\n", "\t"]).replacingOccurrences(of: "\n", with: "\n      ") + "\n"
        }
    }

    /// Why a test is pending, when it said (`pending("later")` in its body:
    /// the runner's message "pending: later"), as busted shows it.
    private static func pendingReason(_ c: SpecCase) -> String? {
        guard c.message.hasPrefix("pending: ") else { return nil }
        return String(c.message.dropFirst("pending: ".count))
    }

    /// TAP version 13 for all cases.
    static func tap(_ cases: [SpecCase]) -> String {
        var out = "TAP version 13\n"
        for (i, c) in cases.enumerated() {
            let title = tapDescription("\(c.file): \(c.name)")
            switch c.status {
            case .passed: out += "ok \(i + 1) - \(title)\n"
            case .skipped: out += "ok \(i + 1) - \(title) # SKIP \(pendingReason(c).map(tapDescription) ?? "pending")\n"
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

    /// Text with its control characters (C0, DEL, C1, line and paragraph
    /// separators) as visible escapes `\u{1B}`, except those in `keeping`.
    static func visible(_ s: String, keeping: Set<Unicode.Scalar> = []) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if isControl(scalar), !keeping.contains(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// Text for XML 1.0 content or attributes: markup escaped, characters
    /// XML cannot hold (most C0 controls, U+FFFE/U+FFFF) as visible escapes,
    /// and line breaks and tabs as character references (kept exactly, even in attributes).
    private static func xml(_ s: String) -> String {
        var out = ""
        for scalar in visible(s, keeping: ["\n", "\r", "\t"]).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A TAP test description: one line (controls escaped), `#` escaped as
    /// `\#` so no name can make a failure a TODO or SKIP directive.
    private static func tapDescription(_ s: String) -> String {
        visible(s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#"))
    }

    /// A YAML double-quoted scalar on one line: every character YAML would
    /// read as a break or could not hold is an escape.
    private static func yamlQuoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{85}": out += "\\N"
            case "\u{2028}": out += "\\L"
            case "\u{2029}": out += "\\P"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += String(format: "\\x%02X", scalar.value)
            case "\u{FEFF}", "\u{FFFE}", "\u{FFFF}": out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
