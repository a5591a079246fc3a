import Foundation
import XCTest

/// `lunette repl ARGS…` (the debug build) with `input` piped in, run in
/// `directory` (the repository's root by default): what it printed, and
/// its exit status. Skips the test when the binary is not built.
func pipedRepl(_ arguments: [String], in directory: String? = nil, input: String) throws -> (output: String, status: Int32) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let binary = root.appendingPathComponent(".build/debug/lunette")
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["repl"] + arguments
    process.currentDirectoryURL = directory.map { root.appendingPathComponent($0) } ?? root
    let out = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardInput = inp
    try process.run()
    inp.fileHandleForWriting.write(Data(input.utf8))
    try inp.fileHandleForWriting.close()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (output, process.terminationStatus)
}

/// `lunette ARGS…` (the debug build) started with its standard input and
/// output piped, for a test that writes as it goes (a pause, a signal):
/// the process, where to write, where to read. Skips the test when the
/// binary is not built.
func startedLunette(_ arguments: [String]) throws -> (process: Process, input: FileHandle, output: FileHandle) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let binary = root.appendingPathComponent(".build/debug/lunette")
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary.path), "run swift build first")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardInput = inp
    try process.run()
    return (process, inp.fileHandleForWriting, out.fileHandleForReading)
}
