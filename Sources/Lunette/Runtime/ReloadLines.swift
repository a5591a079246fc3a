import CLunette
import Foundation

/// What lets a reload keep the views whose lines an edit moved.
///
/// A component view's identity holds its site: the number of the file that
/// built it, the generation of that file's text, and the line (lun_site.c),
/// so that views built at different places of a body stay different views
/// (F01). An edit above a view moves
/// its line. So the runtime keeps, for each file that built a view, the
/// text its views' sites were taken from, and at a reload compares it with
/// the file's new text, line by line: a kept line's views move with it, and
/// a view whose line was edited or removed starts afresh, as a view built
/// somewhere else would.
///
/// Only files the runtime loaded itself are numbered (the script, the
/// modules `require` found: core/lun_sources.c keeps the text each had when
/// loaded); a chunk name a script makes up names nothing read here.
struct ReloadLines {
    /// Each numbered file's text as its views' sites were taken from it, and
    /// how many times the runtime had loaded the file then (a load since,
    /// of another text, may have built views from that one) — or, for a
    /// file whose text a reload could not know, then (it is taken again
    /// once loaded since).
    private var texts: [Int32: [UInt8]] = [:]
    private var loads: [Int32: Int32] = [:]

    /// The most differing lines (old and new together, past what both begin
    /// and end with) compared in one file; past it, only what both begin and
    /// end with is matched (a view on a line between starts afresh).
    static let mostLines = 4_000

    /// The most bytes of texts kept here in all; past it a file's text is not
    /// kept, and its views start afresh when their lines move.
    static let mostKept = 16 << 20
    private var kept = 0

    /// Apps whose views were built by code of another text than the one
    /// kept (left on screen by a failed reload, or mounted after one): their
    /// children start afresh at the next reload rather than risk one view
    /// taking another's state.
    private var stale: Set<Int32> = []
    /// A reload failed after its new code ran, and none succeeded since:
    /// apps mounted now may be built by old code or new.
    private(set) var afterFailure = false

    /// The most lines compared in one reload, all files together; past it,
    /// the rest of the files' views start afresh when their lines move.
    static let mostLinesInAll = 40_000

    /// What a reload moves, app by app as the new code mounts each: for each
    /// file whose text changed, the new line of each old one (0: edited or
    /// removed, and nil for a file whose lines cannot be known: all its
    /// views start afresh), indexed by the old line; and the new texts.
    struct Moves {
        var lines: [Int32: [Int32]] = [:]
        var texts: [Int32: [UInt8]] = [:]
        /// Each changed file's text generation before the reload and after
        /// (sites carry it: lun_site.c; `begin` moves it on).
        var epochs: [Int32: (old: Int32, new: Int32)] = [:]
        /// Checked against what the reload's code was loaded from (`checked(in:)`).
        var checked = false
        /// How many times each numbered file had been loaded as the reload began.
        var loadsAtStart: [Int32: Int32] = [:]
    }

    /// Marks an app mounted while no reload runs: after a failed one it is stale.
    mutating func mounted(_ app: App) {
        if afterFailure { stale.insert(app.id) }
    }

    /// Takes the text each numbered file had when the runtime loaded it, for
    /// the files this has none of yet (those that built their first view
    /// since: a module loaded later, by a tap, keeps the text it was loaded with).
    mutating func rememberNew(in L: OpaquePointer) {
        let count = lun_site_files(L)
        guard count > 0 else { return }
        for file in 1...count where texts[file] == nil {
            if let taken = loads[file], lun_site_file_loads(L, file) == taken { continue }   // not loaded since
            var length = 0
            guard let text = lun_site_file_text(L, file, &length), kept + length <= Self.mostKept else { continue }
            texts[file] = Array(UnsafeRawBufferPointer(start: text, count: length))
            loads[file] = lun_site_file_loads(L, file)
            kept += length
        }
    }

    /// Whether file's code may have been built from another text than the
    /// one kept: loaded again since (a `require` in a body, `package.loaded`
    /// cleared, `dofile`) with a text other than the kept one.
    private func loadedOtherwise(_ file: Int32, in L: OpaquePointer) -> Bool {
        guard let old = texts[file], lun_site_file_loads(L, file) != loads[file] else { return false }
        var length = 0
        guard let loaded = lun_site_file_text(L, file, &length) else { return true }
        return length != old.count || Array(UnsafeRawBufferPointer(start: loaded, count: length)) != old
    }

    /// Compares each file's text with its text now (`main`'s: the bytes
    /// about to run; a module's: as the disk has it, a regular file of at
    /// most LUN_SOURCE_MAX bytes). A numbered file whose lines cannot be
    /// known — no text kept, unreadable now, too large, past the reload's
    /// lines — is moved as wholly changed: its views start afresh.
    func moves(in L: OpaquePointer, main: (path: String, text: [UInt8])) -> Moves {
        var moves = Moves()
        var compared = 0, held = 0
        let count = lun_site_files(L)
        guard count > 0 else { return moves }
        for file in 1...count {
            guard let path = Self.path(of: file, in: L) else { continue }
            let new = path == main.path ? main.text : Self.read(path)
            moves.loadsAtStart[file] = lun_site_file_loads(L, file)
            guard let old = texts[file], let new, new.count <= Int(LUN_SOURCE_MAX), held + new.count <= Self.mostKept,
                  !loadedOtherwise(file, in: L) else {
                moves.texts[file] = []                         // cannot be known (or held): wholly changed
                continue
            }
            guard new != old else { continue }
            held += new.count
            moves.texts[file] = new
            let (oldLines, newLines) = (Self.lines(old), Self.lines(new))
            compared += oldLines.count + newLines.count
            if compared <= Self.mostLinesInAll { moves.lines[file] = Self.lineMap(from: oldLines, to: newLines) }
        }
        return moves
    }

    /// The moves, each numbered file checked against the text the reload's
    /// code was loaded from (what C kept as `require` loaded it): a module
    /// loaded with another text than the one compared (saved meanwhile), or
    /// changed and not loaded yet (a later `require` may load another), has
    /// lines that cannot be known, and its views start afresh.
    func checked(_ moves: Moves, in L: OpaquePointer) -> Moves {
        var moves = moves
        guard !moves.checked else { return moves }
        moves.checked = true
        let count = lun_site_files(L)
        guard count > 0 else { return moves }
        for file in 1...count {
            guard let expected = moves.texts[file] ?? texts[file], !expected.isEmpty else { continue }
            var length = 0
            let loaded = lun_site_file_text(L, file, &length)
            if loaded.map({ length == expected.count && Array(UnsafeRawBufferPointer(start: $0, count: length)) == expected }) != true {
                moves.lines[file] = nil
                moves.texts[file] = []
            }
        }
        return moves
    }

    /// Moves on the text generation of each file the reload changed, before
    /// its script runs: what it builds carries the new one, and a view value
    /// built before (kept in state) the old one, which no moved key has.
    static func begin(_ moves: inout Moves, in L: OpaquePointer) {
        for file in moves.texts.keys {
            let old = lun_site_file_epoch(L, file)
            moves.epochs[file] = (old, lun_site_file_next_epoch(L, file))
        }
    }

    /// Takes on a reload's new texts: its new code is live (a script that
    /// failed with a syntax error ran none, and takes nothing). The apps
    /// `left` (on screen, not mounted anew by it: a failed reload's) still
    /// hold the old code's lines, so they are stale.
    mutating func take(_ moves: Moves, left: [Int32], succeeded: Bool, in L: OpaquePointer) {
        for (file, text) in moves.texts {
            kept -= texts[file]?.count ?? 0
            if !text.isEmpty, kept + text.count <= Self.mostKept {
                texts[file] = text
                loads[file] = lun_site_file_loads(L, file)
                kept += text.count
            } else {                                        // unknown: taken as it is loaded (rememberNew): by the
                texts[file] = nil                           // reload itself, if its require loaded it, else next time
                loads[file] = moves.loadsAtStart[file] ?? lun_site_file_loads(L, file)
            }
        }
        stale.formUnion(left)               // its modules may have loaded anew: their first views since are of either
        afterFailure = !succeeded
    }

    /// Moves the sites of the children of the units of `app`, whose root the
    /// new code mounts: a kept line's to its new line, an edited or removed
    /// one's to a site no view is built at (each its own: a parent's keys
    /// stay distinct), so that child starts afresh. A stale app's children,
    /// or those of an app that ran before its mount in this reload (with old
    /// code or new, who can say), all start afresh. The app's units are
    /// walked from its root: the cost is the app's.
    mutating func move(_ app: App, as moves: Moves, ranEarly: Bool) {
        let wasStale = stale.remove(app.id) != nil
        guard wasStale || !moves.texts.isEmpty, let root = app.root else { return }
        let fresh = wasStale || ranEarly
        var lost: Int32 = 0
        var units = [root]
        while let unit = units.popLast() {
            guard !unit.children.isEmpty else { continue }
            var changed = false
            let children = unit.children.map { entry -> ChildEntry in
                units.append(entry.unit)
                let file = entry.key.siteFile & 0x7FF, epoch = entry.key.siteFile >> 11
                guard entry.key.siteFile > 0, wasStale || moves.texts[file] != nil else { return entry }   // unchanged
                var key = entry.key
                let line = Int(key.site)
                if !fresh, let map = moves.lines[file], let epochs = moves.epochs[file], epoch == epochs.old,
                   line > 0, line < map.count, map[line] > 0 {
                    key.siteFile = lun_site_file(file, epochs.new)
                    key.site = map[line]
                } else {                                   // edited or removed, or read against another text
                    lost -= 1
                    key.siteFile = -1
                    key.site = lost
                }
                changed = changed || key != entry.key
                return ChildEntry(key: key, unit: entry.unit)
            }
            if changed { unit.children = children }
        }
    }

    /// The path of numbered file `file` ("@path" without its "@").
    private static func path(of file: Int32, in L: OpaquePointer) -> String? {
        var length = 0
        guard let name = lun_site_file_name(L, file, &length), length > 1 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: length).dropFirst(), as: UTF8.self)
    }

    /// The bytes of the regular file at path, if it is one of at most LUN_SOURCE_MAX bytes.
    private static func read(_ path: String) -> [UInt8]? {
        let most = Int(LUN_SOURCE_MAX)
        let path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path   // as fopen follows links
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= most,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: most + 1), data.count <= most else { return nil }
        return [UInt8](data)
    }

    /// A text's lines as Lua's lexer numbers them from 1: "\n", "\r", "\r\n"
    /// and "\n\r" each end one line.
    static func lines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < text.count {
            let c = text[i]
            guard c == 0x0A || c == 0x0D else { i += 1; continue }
            lines.append(text[start ..< i])
            i += (i + 1 < text.count && text[i + 1] != c && (text[i + 1] == 0x0A || text[i + 1] == 0x0D)) ? 2 : 1
            start = i
        }
        lines.append(text[start...])
        return lines
    }

    /// The new line of each old line of a text (index: the old line; 0:
    /// edited or removed). Where the part that differs is past `mostLines`,
    /// only what both texts begin and end with is matched.
    static func lineMap(from old: [ArraySlice<UInt8>], to new: [ArraySlice<UInt8>]) -> [Int32] {
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        var map = [Int32](repeating: 0, count: old.count + 1)
        for line in 0 ..< head { map[line + 1] = Int32(line + 1) }
        for back in 0 ..< tail { map[old.count - back] = Int32(new.count - back) }
        let oldCount = old.count - head - tail, newCount = new.count - head - tail
        guard oldCount + newCount <= mostLines else { return map }
        // Each distinct line a number, so the comparison compares integers.
        var numbers: [ArraySlice<UInt8>: Int] = [:]
        func number(_ line: ArraySlice<UInt8>) -> Int {
            if let n = numbers[line] { return n }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let oldMiddle = old[head ..< old.count - tail].map(number)
        let newMiddle = new[head ..< new.count - tail].map(number)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in newMiddle.difference(from: oldMiddle) {
            switch change {
            case let .remove(offset, _, _): removed.insert(offset)
            case let .insert(offset, _, _): inserted.insert(offset)
            }
        }
        var j = 0
        for i in 0 ..< oldCount where !removed.contains(i) {
            while inserted.contains(j) { j += 1 }
            map[head + i + 1] = Int32(head + j + 1)
            j += 1
        }
        return map
    }

    /// A file's bytes as Lua loads a file (luaL_loadfilex): without a UTF-8
    /// byte order mark, and with a first line that starts with "#" (a "#!")
    /// left empty, its line break kept, so the lines keep their numbers.
    static func loadable(_ bytes: Data) -> Data {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: "#") else { return Data(bytes[start...]) }
        var end = start                                    // to the "\n" (lauxlib's skipcomment), which stays
        while end < bytes.endIndex, bytes[end] != 0x0A { end += 1 }
        return Data(bytes[end...])
    }
}
