import ArgumentParser
import Foundation
import Lunette

/// `lunette test [PATH...]`: runs busted-style `*_spec.lua` files.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run *_spec.lua files (describe/it/assert/spy, as in busted).",
        discussion: """
            Each spec file runs in a process and a runtime of its own; each test gets a fresh \
            virtual clock (ui.clock.advance) and a time limit. A file that crashes, exits or \
            blocks is reported failed and the run goes on. The last line is 'N passed, N failed'.
            """)

    @Argument(help: "Spec files or directories to search for *_spec.lua (default: spec, or the current directory).")
    var paths: [String] = []

    @Option(name: .long, help: "Run only tests whose full name contains this text (given again: any of them).")
    var filter: [String] = []

    @Option(name: .long, help: "Skip tests whose full name contains this text (given again: any of them).")
    var filterOut: [String] = []

    @Option(name: .long, help: "Run only tests tagged (#tag in a name) with one of these (comma-separated).")
    var tags: String?

    @Option(name: .long, help: "Skip tests tagged with one of these (comma-separated).")
    var excludeTags: String?

    @Flag(name: .long, help: "Print TAP (version 13) instead of readable lines.")
    var tap = false

    @Option(name: .long, help: "Also write the results as JUnit XML to this file.")
    var junit: String?

    @Option(name: .long, parsing: .unconditional, help: "Seconds a test may run before it is stopped and reported failed.")
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400, got \(timeout)")
        }
        if let junit, junit.isEmpty { throw ValidationError("--junit needs a file name") }
        if (filter + filterOut).contains(where: \.isEmpty) {
            throw ValidationError("--filter and --filter-out need text (an empty one would match every test)")
        }
        for (name, list) in [("--tags", tags), ("--exclude-tags", excludeTags)] {
            if let list, !list.split(whereSeparator: { $0 == "," || $0 == " " }).contains(where: { !$0.isEmpty }) {
                throw ValidationError("\(name) needs at least one tag name (comma-separated), got '\(list)'")
            }
        }
    }

    @Flag(name: .long, help: "Fail a test whose views or events produced a warning (errors always fail it).")
    var failOnWarnings = false

    @Flag(name: .long, help: "Strict mode: every body runs twice and must describe the same tree; bodies may not write state.")
    var strict = false

    @Flag(name: .long, help: "Rewrite the snapshots (assert.matches_snapshot) that differ instead of failing.")
    var updateSnapshots = false

    @OptionGroup var limits: ScriptLimits

    /// Internal: run the given files in this process, handing results out (see SpecProcess).
    @Flag(name: .long, help: .hidden)
    var child = false

    func run() throws {
        if child {
            setpgid(0, 0)                     // its own process group: a kill takes what it started too
            let options = SpecRunner.Options(filter: filter, filterOut: filterOut, tags: tags, excludeTags: excludeTags,
                                             timeout: timeout, failOnWarnings: failOnWarnings, strict: strict,
                                             updateSnapshots: updateSnapshots)
            let channel = try SpecChannelWriter()      // before any Lua runs: specs never see it
            for file in paths { SpecRunner.run(file: file, options: options, limits: limits, channel: channel) }
            return
        }
        let (files, allFound) = SpecFiles.find(in: paths.isEmpty ? SpecFiles.defaultRoots() : paths)
        var childArguments = ["--timeout", "\(timeout)"] + limits.arguments
        for text in filter { childArguments += ["--filter", text] }
        if failOnWarnings { childArguments += ["--fail-on-warnings"] }
        if strict { childArguments += ["--strict"] }
        if updateSnapshots { childArguments += ["--update-snapshots"] }
        for text in filterOut { childArguments += ["--filter-out", text] }
        if let tags { childArguments += ["--tags", tags] }
        if let excludeTags { childArguments += ["--exclude-tags", excludeTags] }
        var all: [SpecCase] = []
        // On a terminal, a progress line says what runs now (rewritten in place, erased before results).
        let progress = !tap && isatty(STDOUT_FILENO) != 0
        func clearProgress() { if progress { print("\r\u{1B}[K", terminator: "") } }
        // What specs print passes through as they wrote it; a result line
        // after output that did not end its line starts a line of its own.
        var atLineStart = true
        func startLine() { if !atLineStart { print(); atLineStart = true } }
        func passThrough(_ data: Data) {
            clearProgress()
            fflush(stdout)
            FileHandle.standardOutput.write(data)
            if let last = data.last { atLineStart = last == UInt8(ascii: "\n") }
        }
        var passed = 0, failed = 0
        for file in files {
            if !tap { startLine(); print(SpecReport.visible(file)) }
            var process = SpecProcess(file: file, childArguments: childArguments, timeout: timeout)
            if !tap { process.printed = passThrough }
            if progress {
                process.started = { name in
                    print("\r\u{1B}[K… \(SpecReport.visible(name).prefix(60))  (\(passed) passed, \(failed) failed)",
                          terminator: "")
                    fflush(stdout)
                }
            }
            let cases = process.run { c in
                if c.status == .passed { passed += 1 } else if c.status == .failed { failed += 1 }
                clearProgress()
                if !tap {
                    startLine()
                    print(SpecReport.line(c), terminator: "")
                    fflush(stdout)
                }
            }
            all += cases
        }
        clearProgress()
        if tap { print(SpecReport.tap(all), terminator: "") } else { startLine(); print(SpecReport.summary(all)) }
        if let junit {
            do {
                try SpecReport.junit(all).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                printError("error: cannot write the JUnit results to \(junit): \((error as NSError).localizedDescription)")
                throw ExitCode(1)
            }
        }
        if all.contains(where: { $0.status == .failed }) || files.isEmpty || !allFound { throw ExitCode(1) }
    }
}
