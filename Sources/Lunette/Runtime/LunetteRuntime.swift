import CLua
import CLunette
import Foundation

/// A Lua state with Lunette loaded: run view scripts, flush updates, read trees.
///
/// ```swift
/// let runtime = try LunetteRuntime(options: .init(memoryLimit: 64 << 20, timeBudget: 0.5))
/// try runtime.register(Inbox.self)                // Swift models Lua may use (LunetteBridge)
/// try runtime.setGlobal("inbox", to: inbox)
/// let app = try runtime.run(file: "inbox.lua")!
/// inbox.messages[0].isRead = true                 // from Swift
/// runtime.flush()                                 // re-renders the views that read it
/// print(runtime.text(of: app))
/// ```
///
/// Thread: the runtime belongs to the thread that created it — or to one
/// serial executor, such as the main actor — and is called from there only;
/// it is not `Sendable`, nor are its `App`s and `RenderNode`s. The models
/// it exposes may change on any thread if they guard their own storage (a
/// `Mutex`); their changes are rendered at the next `flush()`, and
/// `onModelChange` tells the host when to schedule one (see
/// Examples/InboxHost).
public final class LunetteRuntime {
    /// How a runtime is set up.
    public struct Options {
        /// Scripts get an allow-list of libraries: base (without `dofile`,
        /// `loadfile`; `load` takes text only), `require` of preloaded modules
        /// and `modulePaths`, coroutine, table, string (no `dump`), math, utf8,
        /// `os.clock/time/date/difftime`, `debug.traceback`. Nothing else
        /// exists to be found. `require` searches its own copy of
        /// `modulePaths`: assigning `package.path` changes nothing. (Finalizers and `debug.sethook` are refused in
        /// every runtime.)
        public var sandboxed: Bool
        /// Directories searched by `require` (besides preloaded modules).
        public var modulePaths: [String]
        /// How many times one view may render in a single flush before it is
        /// reported as writing what it reads (SEMANTICS S36) and stopped.
        public var renderLoopLimit: Int
        /// A virtual clock moves only with `advanceClock(by:)` / `ui.clock.advance`
        /// (for tests); a real one with time (`runDueWork()` runs what is due).
        public var virtualClock: Bool
        /// Bytes the Lua state may use; past it, allocations fail with "not
        /// enough memory" in the code that asked (0: no cap; default 1 GiB).
        public var memoryLimit: Int
        /// Seconds one run may take — a script chunk, a body, an effect, an
        /// action, an onAppear/onChange/onReceive, a task step, an error's
        /// conversion; past it, it fails with "ran longer than its time
        /// budget" (an error node for a view), even a loop inside pcall, a
        /// coroutine or an xpcall handler. A script may lower it with
        /// `ui.configure{ timeBudget = s }`, never lift it (0: no budget).
        public var timeBudget: Double
        /// Where `appStorage` values are kept (nil: in memory, for the runtime's
        /// life). `LunetteStorage.SQLiteAppStorage` keeps them in a file.
        public var appStorage: AppStorageStore?
        /// The scene whose `sceneStorage` values scripts keep (SwiftUI's
        /// `@SceneStorage`): the same scene opened again gets them back, another
        /// scene has its own. Kept in `appStorage`'s store. `lunette run` names
        /// the scene after the script's path.
        public var scene = "main"

        /// Options with the defaults: sandboxed, no module paths, 100 renders per
        /// view per flush, a real clock, a 1 GiB memory cap, a 2 s time budget, app
        /// storage in memory. The runtime checks them (`LunetteError.setup`).
        public init(sandboxed: Bool = true, modulePaths: [String] = [], renderLoopLimit: Int = 100,
                    virtualClock: Bool = false, memoryLimit: Int = 1 << 30, timeBudget: Double = 2,
                    appStorage: AppStorageStore? = nil) {
            self.sandboxed = sandboxed
            self.modulePaths = modulePaths
            self.renderLoopLimit = renderLoopLimit
            self.virtualClock = virtualClock
            self.memoryLimit = memoryLimit
            self.timeBudget = timeBudget
            self.appStorage = appStorage
        }

        /// The largest `memoryLimit`: 1 TiB (more than any machine this runs on).
        public static let maximumMemoryLimit = 1 << 40
        /// The largest `timeBudget`: a day.
        public static let maximumTimeBudget = 86_400.0
        /// The smallest `timeBudget` but 0: a millisecond (the watchdog looks every few).
        public static let minimumTimeBudget = 0.001

        /// Throws `LunetteError.setup` naming the first option out of its range.
        func validate() throws {
            guard (0...Self.maximumMemoryLimit).contains(memoryLimit) else {
                throw LunetteError.setup("Options.memoryLimit must be 0 (no cap) to \(Self.maximumMemoryLimit) bytes, got \(memoryLimit)")
            }
            guard timeBudget == 0 || (timeBudget >= Self.minimumTimeBudget && timeBudget <= Self.maximumTimeBudget) else {
                throw LunetteError.setup("Options.timeBudget must be 0 (none) or \(Self.minimumTimeBudget) to \(Int(Self.maximumTimeBudget)) seconds, got \(timeBudget)")
            }
            guard renderLoopLimit > 0 else {
                throw LunetteError.setup("Options.renderLoopLimit must be positive, got \(renderLoopLimit)")
            }
        }
    }

    let L: OpaquePointer
    let options: Options
    /// The runs in progress and their budget (lun_budget.c), shared with the watchdog.
    private let budget: OpaquePointer
    /// False when the state belongs to someone else (the stock interpreter).
    private let ownsState: Bool
    let graph = Graph()
    /// The callbacks the C module calls (HostTable); freed after the state is closed.
    private var hostTable: UnsafeMutablePointer<lun_Host>?
    let clock: Clock
    let inbox = Inbox()
    /// Swift objects and values as C sees them: the owner of the host table's objects group.
    let objects: ObjectBridge
    /// The Swift objects Lua holds.
    var hosts: HostObjects { objects.hosts }
    /// A run's output as it is made: the owner of the host table's output group.
    /// (Made first thing in `install`: it needs the runtime. Not lazy: a lazy
    /// property's every read is a call, and a plain run reads it.)
    private(set) var builder: OutputBuilder!
    @exclusivity(unchecked) var scheduler = Scheduler()
    /// The round's batch C is running (lun_flush.c reads its tickets).
    @exclusivity(unchecked) var batch = RoundBatch()
    @exclusivity(unchecked) var units = UnitTable()
    @exclusivity(unchecked) var flushState = FlushState()
    @exclusivity(unchecked) var mounting = Mounting()
    @exclusivity(unchecked) var handles = NodeHandles()
    var labels = Labels()
    /// Why views re-render (`ui.trace`): the owner of the host table's trace group.
    let tracer: Tracer
    var problems = Problems()
    @exclusivity(unchecked) var preferences = PreferenceList()
    var treeChangeCallback: ((TreeChange) -> Void)?
    /// The host's openURL action (`onOpenURL`), and the URLs scripts opened
    /// since it last heard (each charged to the memory cap until handed on).
    var openURLCallback: ((String) -> Void)?
    var openedURLs: [String] = []
    /// Text handed to C (valid until the next call).
    let text = CStringBuffer()
    /// Errors of units that belong to no app (ui.effect), "effect: …", and of
    /// a flush the host asked for that could not run ("a flush failed: …"):
    /// the first 1000, then a line saying more were not kept.
    public var effectErrors: [String] { effectLog.messages }
    var effectLog = MessageLog(overflow: "effect: more than \(MessageLog.limit) effects failed")
    /// Where `appStorage` values live (Options.appStorage): the owner of the
    /// host table's storage group.
    let storage: AppStorageKeeper
    /// What the app store failed to read or keep, each message once.
    public var storageErrors: [String] {
        storage.takeFailures()
        return storage.messages
    }

    /// Creates a Lua state with the standard libraries (sandboxed unless
    /// options say otherwise) and `require("lunette")` ready.
    public init(options: Options = Options()) throws {
        try options.validate()
        guard let state = lun_new_state(0), let budget = lun_budget_new() else {
            throw LunetteError.setup("not enough memory for a Lua state")
        }
        L = state
        tracer = Tracer(graph: graph, state: state)
        objects = ObjectBridge(hosts: HostObjects(inbox: inbox), graph: graph)
        self.budget = budget
        ownsState = true
        self.options = options
        storage = AppStorageKeeper(store: options.appStorage ?? MemoryAppStorage(), timeBudget: options.timeBudget)
        clock = Clock(mode: options.virtualClock ? .virtual : .real)
        guard lun_open_libraries(L, options.sandboxed ? 1 : 0) == LUN_OK else {
            throw LunetteError.setup("not enough memory for the standard libraries")
        }
        try install()
        try configureLibraries()
        guard lun_scene_set(L, options.scene, options.scene.utf8.count) == LUN_OK else {
            throw LunetteError.setup("not enough memory for the scene's name")
        }
        if options.memoryLimit > 0, memoryInUse >= options.memoryLimit {   // every call would fail "not enough memory"
            throw LunetteError.setup("Options.memoryLimit is \(options.memoryLimit) bytes, below the \(memoryInUse) the runtime "
                                     + "itself holds after set-up: give scripts room above that (the default is 1 GiB)")
        }
        lun_memory_limit(L, options.memoryLimit)       // after set-up: the cap is for scripts
    }

    /// A runtime in a Lua state someone else made and will close (the stock
    /// interpreter loading the module): its libraries are left as they are.
    /// The runtime must outlive the state.
    public init(adopting state: OpaquePointer, virtualClock: Bool = true) throws {
        guard let budget = lun_budget_new() else { throw LunetteError.setup("not enough memory") }
        L = state
        tracer = Tracer(graph: graph, state: state)
        objects = ObjectBridge(hosts: HostObjects(inbox: inbox), graph: graph)
        self.budget = budget
        ownsState = false
        options = Options(sandboxed: false, virtualClock: virtualClock)
        storage = AppStorageKeeper(store: MemoryAppStorage(), timeBudget: options.timeBudget)
        clock = Clock(mode: virtualClock ? .virtual : .real)
        try install()
    }

    private func install() throws {
        builder = OutputBuilder(runtime: self, viewTypes: labels.viewTypes)
        inbox.adopt(Thread.current)
        storage.report = { [unowned self] message in problems.record(error: message) }
        objects.drainIfIdle = { [unowned self] in if !flushState.flushing { drainInbox() } }
        objects.afterWrite = { [unowned self] made in applyHostWrite(made) }
        tracer.label = { [unowned self] node in label(of: node) }
        tracer.unit = { [unowned self] id in units[id] }
        let host = HostTable.make(for: self)
        hostTable = host
        guard lun_install(L, host, graph.handle, budget) == LUN_OK else { throw LunetteError.setup(lastError) }
        _ = try runChunk(String(decoding: PackageResources.prelude_lua, as: UTF8.self), name: "=(lunette prelude)")
        guard lun_enter_prelude(L) == LUN_OK else { throw LunetteError.setup(lastError) }
        // Snapshots' format and diff, for both test runners: require("lunette.snapshots").
        let snapshots = String(decoding: PackageResources.snapshots_lua, as: UTF8.self)
        _ = try runChunk("package.preload['lunette.snapshots'] = function(...)\n\(snapshots)\nend",
                         name: "=(lunette snapshots)")
        lun_budget_set(lun_state(L), options.timeBudget)
        lun_state(L).pointee.runLimit = Int32(min(options.renderLoopLimit, 1 << 30))   // an effect's runs in a round
        Watchdog.shared.watch(budget)
    }

    deinit {
        _ = storage.writer.waitUntilWritten(timeout: 5) // a host that lets go of a runtime keeps what it wrote
        Watchdog.shared.forget(budget)
        inbox.onPost(nil)                               // a model changing later wakes no one: the runtime is gone
        hosts.cancelSubscriptions()                     // Swift objects it observed may outlive it
        if ownsState { lun_close_state(L) }
        lun_budget_free(budget)
        hostTable?.deallocate()
        for app in mounting.appsByID.values { app.root = nil }      // units hold their app: break the cycle
        for id in units.ids {                                       // and their parent, and their nodes them
            units[id]?.children = []
            units[id]?.output = []
        }
    }

    /// The last error's message, cut at `longestMessage` bytes (R19: a script's error value may be any string).
    var lastError: String {
        var length = 0
        let pointer = lun_last_error(L, &length)
        return message(pointer, length)
    }

    private func configureLibraries() throws {
        if options.sandboxed {
            // The module search belongs to the host: a copy of its directories no script can change (R22).
            guard options.modulePaths.allSatisfy({ !$0.contains("\n") }) else {
                throw LunetteError.setup("Options.modulePaths: a directory name may not contain a line break")
            }
            let directories = options.modulePaths.joined(separator: "\n")
            guard lun_sandbox_module_paths(L, directories, directories.utf8.count) == LUN_OK else {
                throw LunetteError.setup("not enough memory for the module search")
            }
            return
        }
        let paths = options.modulePaths.map { "\($0)/?.lua;\($0)/?/init.lua" }.joined(separator: ";")
        if !paths.isEmpty {
            try runChunk("package.path = \(luaQuoted(paths)) .. ';' .. package.path\n", name: "=(lunette setup)")
        }
    }

    // MARK: running scripts

    /// Runs a Lua file. If it returns a view, the view is mounted and
    /// rendered (and `onTreeChange` hears of it) and its app is returned; a
    /// script that mounts its views itself returns nothing.
    ///
    /// Throws `LunetteError.unreadable` if the file cannot be read,
    /// `.syntax` if it does not parse, `.script` if it raises (or runs past
    /// its time budget, or out of memory): "file.lua:12: message" — or if it
    /// returns something other than a view (a module's table meant for
    /// `require`, say), which would otherwise show nothing and say nothing.
    @discardableResult
    public func run(file path: String) throws -> App? {
        let source = try read(file: path)
        defer { mounting.lines.rememberNew(in: L) }     // the texts its views were built from, for a reload
        return try run(bytes: source, name: "@\(path)", viewOrNothing: path)
    }

    /// A script file's bytes as Lua loads a file (no byte order mark; a
    /// first "#!" line left empty), kept by the state as loaded (`keep`).
    private func read(file path: String, keep: Bool = true) throws -> Data {
        let bytes: Data
        var folder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &folder), folder.boolValue {
            throw LunetteError.unreadable(path: path, reason: "it is a folder, not a Lua file")
        }
        do {
            bytes = ReloadLines.loadable(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw LunetteError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        if keep { self.keep(bytes, as: "@\(path)") }
        return bytes
    }

    /// Keeps a script's text as what its file held when loaded (for a reload to compare).
    private func keep(_ bytes: Data, as chunkname: String) {
        _ = bytes.withUnsafeBytes { lun_sources_keep(L, chunkname, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
    }

    /// Runs Lua source, as `run(file:)` does. `name` is its chunk name:
    /// "@path" shows as "path:line" in messages. Throws `LunetteError.syntax`
    /// or `.script` — also if it returns something other than a view.
    @discardableResult
    public func run(source: String, name: String = "=(script)") throws -> App? {
        try run(bytes: Data(source.utf8), name: name)
    }

    /// Runs Lua source given as bytes (Lua strings are bytes: any encoding,
    /// NULs included), as `run(source:name:)` does.
    @discardableResult
    public func run(bytes: Data, name: String) throws -> App? {
        let shown = name.hasPrefix("@") || name.hasPrefix("=") ? String(name.dropFirst()) : name
        return try run(bytes: bytes, name: name, viewOrNothing: shown)
    }

    /// Runs a chunk; what the script returns is a view (mounted) or nothing,
    /// else an error naming it and `script` (its path or chunk name).
    private func run(bytes: Data, name: String, viewOrNothing script: String) throws -> App? {
        let outer = mounting.running
        mounting.running = Self.script(name)           // the apps it mounts, its timers and effects are its own (reload)
        scriptWork(LUN_SCRIPT_RUNNING, mounting.running)
        defer { mounting.running = outer; scriptWork(LUN_SCRIPT_RUNNING, outer) }
        let ref = try runChunk(bytes, name: name)
        guard ref > 0 else { return nil }
        defer { _ = lun_release_ref(L, ref) }
        var app: Int32 = 0
        var other: UnsafePointer<CChar>?
        guard lun_mount_ref(L, ref, &app, &other) == LUN_OK else { throw LunetteError.script(lastError) }
        if app == 0 {
            let type = other.map { String(cString: $0) } ?? "value"
            throw LunetteError.script("\(script): the script returned a \(type), not a view: a script returns its root "
                + "view (return Root()), or mounts its views itself with ui.mount and returns nothing")
        }
        reportTreeChanges()                            // the mount is news too: a host hears of its first render
        return mounting.appsByID[app]
    }

    /// Runs Lua source and returns its results as `tostring` would show them.
    /// Throws `LunetteError.syntax` or `.script` (a method's thrown error
    /// included: "Inbox:move: no message is titled 'Nope'").
    public func evaluate(_ source: String, name: String = "=(evaluate)") throws -> [String] {
        try evaluate(source, name: name, bounded: true)
    }

    /// Runs host code (a test runner's driver) that the time budget does not
    /// bound; the views, effects and tasks it runs are bounded as ever.
    public func evaluateHostCode(_ source: String, name: String) throws -> [String] {
        try evaluate(source, name: name, bounded: false)
    }

    private func evaluate(_ source: String, name: String, bounded: Bool) throws -> [String] {
        var count: Int32 = 0
        let bytes = Array(source.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                lun_eval(L, chars.baseAddress, chars.count, name, bounded ? 1 : 0, &count)
            }
        }
        defer { reportTreeChanges() }                  // what the code rendered (ui.mount, a tap from Lua)
        switch status {
        case LUN_OK:
            return (0..<count).map { i in
                var length = 0
                let pointer = lun_eval_result(L, i + 1, &length)
                return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            }
        case LUN_SYNTAX: throw LunetteError.syntax(lastError)
        default: throw LunetteError.script(lastError)
        }
    }

    @discardableResult
    func runChunk(_ source: String, name: String) throws -> Int32 {
        try runChunk(Data(source.utf8), name: name)
    }

    func runChunk(_ source: Data, name: String) throws -> Int32 {
        var ref: Int32 = 0
        let status = source.isEmpty ? lun_run_chunk(L, "", 0, name, &ref) : source.withUnsafeBytes { buffer in
            lun_run_chunk(L, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), buffer.count, name, &ref)
        }
        switch status {
        case LUN_OK: return ref
        case LUN_SYNTAX: throw LunetteError.syntax(lastError)
        default: throw LunetteError.script(lastError)
        }
    }

    /// Runs a script again: apps it mounts (or returns) replace the ones its
    /// earlier runs mounted, in order — other scripts' apps, and apps
    /// mounted by an action or an evaluated line, stay as they are —
    /// keeping the state of views whose identities match —
    /// a view whose line an edit moved is the same view (its file's old and
    /// new texts are compared line by line). Models it creates are new (they
    /// are the script's own values), so the
    /// `.task`s of the views that stay start again (the old ones are
    /// cancelled), as after a `:task(fn, { id = v })` whose `v` changed;
    /// onAppear does not run again (the view never left). `lunette run
    /// --watch`, `lunette preview` and the REPL's `:reload` all reload here.
    @discardableResult
    public func reload(file path: String) throws -> App? {
        mounting.lines.rememberNew(in: L)                // files whose first view came since, as they were loaded
        let source = try read(file: path, keep: false)
        // A syntax error runs nothing and changes nothing: not even which modules are loaded.
        let status = source.withUnsafeBytes { lun_check_chunk(L, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count, "@\(path)") }
        if status == LUN_SYNTAX { throw LunetteError.syntax(lastError) }
        var moves = mounting.lines.moves(in: L, main: (path, [UInt8](source)))
        ReloadLines.begin(&moves, in: L)
        mounting.lineMoves = moves                       // taken on app by app
        keep(source, as: "@\(path)")                     // the text the script now runs from
        mounting.movedApps = []
        mounting.ranEarly = []
        var succeeded = false
        defer {                                          // its new code ran: what the old left on screen is stale
            if var moves = mounting.lineMoves {
                moves.checked = false                    // again: a body may have loaded a module since the mount
                moves = mounting.lines.checked(moves, in: L)
                mounting.lines.take(moves, left: succeeded ? [] : apps.map(\.id).filter { !mounting.movedApps.contains($0) },
                                    succeeded: succeeded, in: L)
            }
            mounting.lineMoves = nil
            mounting.movedApps = []
            mounting.ranEarly = []
            mounting.lines.rememberNew(in: L)            // files it numbered for the first time
        }
        try forgetLoadedModules()
        guard lun_reloading(L, 1) == LUN_OK else { throw LunetteError.setup(lastError) }
        let script = Self.script("@\(path)")
        mounting.reloading = apps.filter { $0.script == script }
        scriptWork(LUN_SCRIPT_ASIDE, script)            // its last run's timers and effects: ended if this run succeeds
        defer {
            scriptWork(succeeded ? LUN_SCRIPT_KEEP_NEW : LUN_SCRIPT_KEEP_OLD, script)
            // A script that failed leaves the views it did not replace on screen: the last good frame.
            if succeeded { for app in mounting.reloading ?? [] { removeApp(app) } }
            mounting.reloading = nil
            if succeeded { flush() }                    // the views that stay render with the new definitions
            _ = lun_reloading(L, 0)
            releasePendingRefs()
        }
        let app = try run(bytes: source, name: "@\(path)", viewOrNothing: path)
        succeeded = true
        return app
    }

    /// Tells C which script runs, or what becomes of a script's work (the
    /// timer subscriptions and effects its runs started at their top level:
    /// `core/lun_scriptwork.c`). Out of memory, C keeps what it had.
    /// What names a script across its runs: a file's chunk name ("@path")
    /// by its absolute, standardized path (a host may run "scripts/a.lua"
    /// and reload "/srv/app/scripts/a.lua"); links are not followed, so a
    /// link re-pointed at another file (an atomic deploy) is still the same
    /// script; any other chunk name as it is.
    static func script(_ chunkName: String) -> String {
        guard chunkName.hasPrefix("@") else { return chunkName }
        return "@" + URL(fileURLWithPath: String(chunkName.dropFirst())).standardizedFileURL.path
    }

    private func scriptWork(_ op: Int, _ name: String?) {
        guard let name else { _ = lun_script_work(L, Int32(op), nil, 0); return }
        _ = name.utf8CString.withUnsafeBufferPointer { lun_script_work(L, Int32(op), $0.baseAddress, $0.count - 1) }
    }

    /// Ends a script: unmounts the apps its runs mounted and cancels the
    /// timer subscriptions and effects they started at their top level
    /// (a script's `ui.Timer.publish(1):sink(…)` lives until cancelled —
    /// past its apps' unmount, so `hasPendingWork` stays true — or until
    /// the script is reloaded or unloaded). `name` is the chunk name the
    /// script ran as: "@path" for `run(file: "path")`.
    public func unload(script name: String) {
        let script = Self.script(name)
        scriptWork(LUN_SCRIPT_END, script)
        for app in apps where app.script == script { unmount(app) }
    }

    /// Ends the script run from `path` (`unload(script: "@" + path)`).
    public func unload(file path: String) { unload(script: "@\(path)") }

    /// Makes `require` load the script's own modules again (not the standard ones, not lunette).
    private func forgetLoadedModules() throws {
        try runChunk("""
            local keep = { _G = true, coroutine = true, table = true, io = true, os = true, string = true,
                           math = true, utf8 = true, debug = true, package = true, lunette = true }
            for name in pairs(package.loaded) do
              if not keep[name] then package.loaded[name] = nil end
            end
            """, name: "=(reload)")
    }

    /// Runs Lua with Ctrl-C able to stop it (`interrupt()` from a signal handler).
    public func evaluateInterruptibly(_ source: String, name: String) throws -> [String] {
        lun_interruptible(L, 1)
        defer { lun_interruptible(L, 0) }
        return try evaluate(source, name: name)
    }

    /// Stops this runtime's interruptible runs from anywhere, a signal handler
    /// included: hold it while the runtime lives (Ctrl-C in the REPL).
    public struct Interrupter: @unchecked Sendable {
        fileprivate let budget: OpaquePointer

        /// Asks the running line to stop with the error "interrupted"; async-signal-safe.
        public func interrupt() { lun_interrupt(budget) }
    }

    /// What stops this runtime's running line (`evaluateInterruptibly`).
    public var interrupter: Interrupter { Interrupter(budget: budget) }

    /// Waits until the store keeps every value scripts wrote (writes run on
    /// a queue of their own, so a slow store never holds the scripts), at
    /// most `timeout` seconds (a negative or NaN one: not at all; at most a
    /// day); reports what it failed to keep in `storageErrors`, each cause
    /// once. Returns false if the store had not finished — true says it
    /// finished, not that every write succeeded.
    @discardableResult
    public func waitForStorage(timeout: Double = 5) -> Bool {
        storage.waitUntilWritten(timeout: timeout)
    }

    /// A wait for the store that any thread may use — a signal's handler
    /// ending the process (`lunette run` on Ctrl-C) — while the runtime's
    /// thread is busy: until the store keeps every flush's changes handed
    /// over so far (a flush hands them over when it ends).
    public struct StorageWait: @unchecked Sendable {
        let writer: StorageWriter
        /// Waits at most `timeout` seconds; false if the store had not finished.
        public func wait(timeout: Double) -> Bool { writer.waitForHandedOver(timeout: timeout) }
    }

    /// The wait for what was handed to the store, for another thread (`StorageWait`).
    public var storageWait: StorageWait { storage.handedOver }

    /// Bytes scripts use now: the Lua state's, and the copies of their strings
    /// rendered trees hold (both count against `Options.memoryLimit`).
    public var memoryInUse: Int { lun_memory_used(L) }

    // MARK: apps

    /// The mounted apps, in mounting order.
    public var apps: [App] { mounting.appsByID.values.sorted { $0.id < $1.id } }

    /// The rendered tree of an app as indented text, one node a line.
    public func text(of app: App) -> String { TreeText.render(app.nodes) }

    /// The rendered tree of an app as JSON.
    public func json(of app: App) -> String { TreeJSON.render(app) { self.dependencies(of: $0) } }

    /// Warnings recorded while rendering an app (a body writing what it reads, ...).
    public func warnings(of app: App) -> [String] { app.warnings }

    /// What rendered anew in one app: a host redraws that app (or those views).
    public struct TreeChange {
        /// The app whose tree changed.
        public let app: App
        /// The views whose bodies produced new output since the host last
        /// heard, each once, in the order they first ran: "MessageRow#2". A
        /// body that ran again to the same output is not listed; a view that
        /// went away is not listed (its parent is).
        public let views: [String]
    }

    /// Calls `callback` with each app whose tree changed, after each call
    /// from Swift that renders — `run`, `evaluate`, `flush()`, `tap` and the
    /// other interactions, `runDueWork()`, `unmount` — so a host redraws only
    /// that. Every view is reported once, at the first of these calls after
    /// its output changed (a mount included). Pass nil to stop.
    ///
    /// Thread: called on the runtime's thread, outside any Lua call: the
    /// callback may flush or tap.
    public func onTreeChange(_ callback: ((TreeChange) -> Void)?) {
        treeChangeCallback = callback
        if callback == nil { flushState.changed = [:] }
    }

    /// What opening a URL means: scripts call `openURL` from the environment
    /// (`environment = { openURL = "openURL" }`, then `self.openURL(url)`),
    /// SwiftUI's `OpenURLAction`; unless a view set its own action with
    /// `:environment("openURL", fn)` (which may answer "systemAction" to
    /// hand the URL on), the URL comes here. `lunette run` prints it. With no
    /// callback a URL is dropped.
    ///
    /// Thread: called on the runtime's thread, after the call from Swift
    /// in which the script opened the URL (as `onTreeChange` is), outside any
    /// Lua call: the callback may call the runtime. Pass nil to stop.
    public func onOpenURL(_ callback: ((String) -> Void)?) {
        openURLCallback = callback
        if callback == nil { releaseOpenedURLs() }
    }

    /// Hands the URLs scripts opened to `onOpenURL`'s callback, oldest first.
    func reportOpenedURLs() {
        guard !openedURLs.isEmpty else { return }
        let urls = openedURLs
        releaseOpenedURLs()
        for url in urls { openURLCallback?(url) }
    }

    /// Forgets the URLs kept for the host, giving back what they were charged.
    private func releaseOpenedURLs() {
        let bytes = openedURLs.reduce(0) { $0 + $1.utf8.count }
        openedURLs = []
        if bytes > 0 { _ = lun_memory_charge(L, -Int64(bytes)) }
    }

    // MARK: Swift objects

    /// The most arguments a Swift method Lua calls may take (C passes them on its stack).
    public static let mostMethodArguments = 8

    /// Makes a Swift type visible to Lua as `ui.types.<name>`; registering a
    /// type twice does nothing. Throws `LunetteError.setup` if Lua runs out
    /// of memory. (`LunetteBridge` adds `register(Inbox.self)` for exposed classes.)
    public func register(_ type: HostType) throws {
        try Self.checkNames(of: type, among: hosts.types)
        let (index, isNew) = hosts.register(type)
        guard isNew else { return }
        let names = type.properties.map(\.name).joined(separator: "\n")
        let methods = type.methods.map(\.name).joined(separator: "\n")
        guard lun_host_define(L, index, type.name, names, methods, type.observeObject != nil ? 1 : 0) == LUN_OK else {
            throw LunetteError.setup(lastError)
        }
    }

    /// Refuses names Lua could not tell apart or would cut: a type's name, its
    /// properties' and methods' (C reads them as lines of text) — empty, with
    /// a control character (a line break, a NUL), twice in one type, or a
    /// type name another Swift type has.
    private static func checkNames(of type: HostType, among registered: [HostType]) throws {
        func check(_ name: String, _ what: String) throws {
            guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw LunetteError.setup("register(\(TreeText.quoted(type.name))): \(what) \(TreeText.quoted(name)) must be a name without "
                                         + "line breaks or control characters")
            }
        }
        try check(type.name, "the type's name")
        if let other = registered.first(where: { $0.name == type.name && $0.swiftType != type.swiftType }) {
            throw LunetteError.setup("register(\(type.name)): \(other.swiftType) is registered under that name already")
        }
        if let method = type.methods.first(where: { ($0.arity ?? 0) > mostMethodArguments }) {
            throw LunetteError.setup("register(\(type.name)): the method \(TreeText.quoted(method.name)) takes \(method.arity!) "
                                     + "arguments; a method Lua calls takes at most \(mostMethodArguments)")
        }
        var seen = Set<String>()
        for (name, what) in type.properties.map({ ($0.name, "property") }) + type.methods.map({ ($0.name, "method") }) {
            try check(name, what)
            guard seen.insert(name).inserted else {
                throw LunetteError.setup("register(\(type.name)): \(TreeText.quoted(name)) is named twice among its properties and methods")
            }
        }
    }

    /// Refuses a global's name C would cut (a NUL in it).
    private static func checkGlobalName(_ name: String) throws {
        guard !name.utf8.contains(0) else {
            throw LunetteError.setup("setGlobal(\(TreeText.quoted(name))): a name may not hold a NUL")
        }
    }

    /// Sets the Lua global `name` to a handle of `app` (`app:find(...)`, `app:tree()`).
    public func setGlobal(_ name: String, to app: App) throws {
        try Self.checkGlobalName(name)
        guard mounting.appsByID[app.id] === app else {
            throw LunetteError.setup("setGlobal(\"\(name)\", to:): that app is not mounted in this runtime")
        }
        guard lun_app_global(L, app.id, name) == LUN_OK else { throw LunetteError.setup(lastError) }
    }

    /// Sets a Lua global to a Swift object of a registered type (shared: Lua's
    /// handle is the object). Throws `LunetteError.setup` if its type is not registered.
    public func setGlobal(_ name: String, to object: AnyObject) throws {
        try Self.checkGlobalName(name)
        guard let handle = hosts.handle(for: object), let type = hosts.typeIndex(of: object) else {
            throw LunetteError.setup("\(Swift.type(of: object)) is not registered with the runtime")
        }
        guard lun_host_global(L, handle, type, name) == LUN_OK else { throw LunetteError.setup(lastError) }
    }
}

/// Quotes a string as a Lua literal.
func luaQuoted(_ s: String) -> String {
    "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
