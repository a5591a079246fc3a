import ArgumentParser
import Foundation
import Lunette
import LunettePreview

/// `lunette preview FILE`: the script's views, live in a browser, with an inspector.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live preview and inspector of a view script on 127.0.0.1.",
        discussion: """
            Prints the page's address. Clicking, toggling and typing on the page act on the views as \
            tap/toggle/setText/submit do; saving the script (or a Lua file beside it) runs it again \
            keeping view state, as run --watch does. Loopback only; other origins are refused.
            """)

    @Argument(help: "The view script.")
    var file: String

    @Option(name: .long, parsing: .unconditional, help: "The port (default: any free one).")
    var port: UInt16 = 0

    @Option(name: .customLong("for"), parsing: .unconditional, help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    func validate() throws {
        if let seconds, !(seconds >= 0 && seconds.isFinite) {
            throw ValidationError("--for must be a number of seconds, 0 or more, got \(seconds)")
        }
    }

    @OptionGroup var limits: ScriptLimits

    @OptionGroup var storage: StorageOption

    func run() throws {
        let runtime = try Runtimes.make(for: file, limits: limits, storage: storage.store)
        EndOnSignal.install(keeping: runtime.storageWait, loop: true)
        let preview = try runtime.servePreview(port: port)
        print("Lunette preview of \(file): \(preview.address)")
        fflush(stdout)
        let session = preview.session
        do {
            try runtime.run(file: file)
        } catch {
            session.showError("\(error)")
        }
        runtime.flush()
        session.publish()
        let started = Date(), sources = Watcher(script: file)
        while (seconds.map({ Date().timeIntervalSince(started) < $0 }) ?? true) && EndOnSignal.requested == 0 {
            session.pump(waiting: 0.05)
            if sources.changed() {
                do {
                    try runtime.reload(file: file)
                    session.clearError()
                    runtime.flush()
                    session.publish(note: "reloaded")
                } catch {
                    session.showError("\(error)")          // the last good frame stays
                }
            }
            if !session.isClockPaused { runtime.runDueWork() }
            runtime.flush()
            session.publish()
        }
        preview.stop()
        runtime.waitForStorage()
        for error in runtime.storageErrors { printError("error: \(error)") }
        try EndOnSignal.exitIfRequested()
    }
}
