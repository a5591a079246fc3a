import ArgumentParser
import Foundation
import Lunette

/// `lunette test [PATH...]`: runs busted-style `*_spec.lua` files.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run *_spec.lua files (describe/it/assert, as in busted).",
        discussion: "Each spec file runs in a fresh runtime. The last line is 'N passed, N failed'.")

    @Argument(help: "Spec files or directories to search for *_spec.lua (default: spec, or the current directory).")
    var paths: [String] = []

    @Option(name: .long, help: "Run only tests whose full name contains this text.")
    var filter: String?

    func run() throws {
        let files = SpecFiles.find(in: paths.isEmpty ? SpecFiles.defaultRoots() : paths)
        var total = SpecResult()
        for file in files {
            print(file)
            total += SpecRunner.run(file: file, filter: filter)
        }
        print(total.summary)
        if total.failed > 0 || files.isEmpty { throw ExitCode(1) }
    }
}
