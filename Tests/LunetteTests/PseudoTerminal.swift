import Foundation
import Lunette
import XCTest

/// The `lunette` executable in a pseudo-terminal, used as a person uses it:
/// typed to, its screen read as it comes. One place for the REPL's terminal
/// tests (Ctrl-C, Tab, history; the clock ticking at the prompt).
final class PseudoTerminal {
    let process = Process()
    private let master: Int32
    private let screen = Locked("")

    /// Starts `binary arguments` on a new pseudo-terminal, with `home` as $HOME.
    init(binary: URL, arguments: [String], home: String) throws {
        var master: Int32 = 0, slave: Int32 = 0
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("no pseudo-terminal here") }
        self.master = master
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["HOME": home, "TERM": "dumb", "PATH": "/usr/bin:/bin"]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        let screen = self.screen, terminalMaster = master
        Thread {                                          // raw reads: a pty says EIO when the child is gone
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(terminalMaster, &buffer, buffer.count)
                if n <= 0 { break }
                screen.withLock { $0 += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
        }.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Everything the program has shown so far.
    var output: String { screen.withLock { $0 } }

    /// Types `text` as keys (\r is Enter).
    func type(_ text: String) { _ = text.withCString { write(master, $0, strlen($0)) } }

    /// Waits up to 10 s for `text` to appear (after `start` in the output, if given).
    func wait(for text: String, after start: String.Index? = nil) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let now = output
            if now[(start ?? now.startIndex)...].contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// What the terminal does on Ctrl-C (the child has no controlling terminal: SIGINT).
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Waits up to 10 s for the program to end; true if it did.
    func waitForExit() -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }
}
