import CLunette
import Foundation

/// What lets a reload keep the views whose lines an edit moved.
///
/// A component view's identity holds its site: the number of the file that
/// built it and the line (lun_site.c), so that views built at different
/// places of a body stay different views (F01). An edit above a view moves
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
    /// Each numbered file's text as its views' sites were taken from it.
    private var texts: [Int32: [UInt8]] = [:]

    /// The most differing lines (old and new together, past what both begin
    /// and end with) compared in one file; past it, only what both begin and
    /// end with is matched (a view on a line between starts afresh).
    static let mostLines = 4_000

    /// The most bytes of texts kept here in all; past it a file's text is not
    /// kept, and its views start afresh when their lines move.
    static let mostKept = 16 << 20
    private var kept = 0

    /// Apps a failed reload left on screen, still built by the old code, once
    /// others took the new lines: their children start afresh at the next
    /// reload (their lines are those of texts no longer kept).
    private var stale: Set<Int32> = []

    /// What a reload moves, app by app as each first renders with the new
    /// code (its mount, or a run before it; a script that fails before moves
    /// nothing): for each file whose text changed, the new line of each old
    /// one (0: edited or removed), indexed by the old line; and the new texts.
    struct Moves {
        var lines: [Int32: [Int32]] = [:]
        var texts: [Int32: [UInt8]] = [:]
    }

    /// Takes the text each numbered file had when the runtime loaded it, for
    /// the files this has none of yet (those that built their first view
    /// since: a module loaded later, by a tap, keeps the text it was loaded with).
    mutating func rememberNew(in L: OpaquePointer) {
        let count = lun_site_files(L)
        guard count > 0 else { return }
        for file in 1...count where texts[file] == nil {
            var length = 0
            guard let text = lun_site_file_text(L, file, &length), kept + length <= Self.mostKept else { continue }
            texts[file] = Array(UnsafeRawBufferPointer(start: text, count: length))
            kept += length
        }
    }

    /// Compares each file's text with its text now (`main`'s: the bytes
    /// about to run; a module's: as the disk has it, a regular file of at
    /// most LUN_SOURCE_MAX bytes).
    func moves(in L: OpaquePointer, main: (path: String, text: [UInt8])) -> Moves {
        var moves = Moves()
        for (file, old) in texts {
            guard let path = Self.path(of: file, in: L),
                  let new = path == main.path ? main.text : Self.read(path), new != old else { continue }
            guard new.count <= Int(LUN_SOURCE_MAX) else { moves.texts[file] = []; continue }   // too large to compare
            moves.texts[file] = new
            moves.lines[file] = Self.lineMap(from: Self.lines(old), to: Self.lines(new))
        }
        return moves
    }

    /// Takes on a reload's new texts: its new code is live (a script that
    /// failed with a syntax error ran none, and takes nothing). The apps
    /// `left` (on screen, not mounted anew by it: a failed reload's) still
    /// hold the old code's lines, so they are stale.
    mutating func take(_ moves: Moves, left: [Int32]) {
        for (file, text) in moves.texts {
            kept -= texts[file]?.count ?? 0
            if kept + text.count <= Self.mostKept {
                texts[file] = text
                kept += text.count
            } else {
                texts[file] = nil
            }
        }
        stale.formUnion(left)               // its modules may have loaded anew: their first views since are of either
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
                let file = entry.key.siteFile
                guard file > 0, wasStale || moves.texts[file] != nil else { return entry }
                var key = entry.key
                let line = Int(key.site)
                if !fresh, let map = moves.lines[file], line > 0, line < map.count, map[line] > 0 {
                    key.site = map[line]
                } else {                                   // edited or removed
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
