import CLunette
import Foundation

/// What lets a reload keep the views whose lines an edit moved.
///
/// A component view's identity holds its site: the number of the file that
/// built it and the line (lun_site.c), so that views built at different
/// places of a body stay different views (F01). An edit above a view moves
/// its line. So the runtime remembers the text of each file that built a
/// view, and at a reload compares it with the file's new text, line by
/// line: a kept line's views move with it, and a view whose line was
/// edited or removed starts afresh, as a view built somewhere else would.
struct ReloadLines {
    /// Each numbered file's text as its views were last built, by file number.
    private var texts: [Int32: [UInt8]] = [:]
    /// Bytes of those texts.
    private(set) var kept = 0

    /// The largest file kept, and the most bytes kept in all: a chunk name is
    /// a script's to choose (`load(text, "@path")`), so what it names is read
    /// only if it is a regular file, and only so much of them (past it, views
    /// whose lines move start afresh, as before lines were compared).
    static let largestFile = 1 << 20
    static let mostKept = 16 << 20

    /// The most differing lines (old and new together, past what both begin
    /// and end with) compared in one file; past it, that file's views keep
    /// their sites as they are (a line that moved starts afresh).
    static let mostLines = 8_000

    /// A site's line bits (LUN_SITE_LINE_MASK).
    static let lineMask = Int32(1 << LUN_SITE_LINE_BITS) - 1

    /// What one reload moves: for each file whose text changed, the new
    /// line of each old one (0: edited or removed), indexed by the old line.
    typealias Moves = [Int32: [Int32]]

    /// Remembers the texts of the numbered files not remembered yet:
    /// `main`'s (the script's own bytes, as it ran) if it is one, the rest
    /// as the disk has them now (the modules it loaded just now).
    mutating func rememberNew(in L: OpaquePointer, main: (path: String, text: Data)?) {
        for (file, path) in Self.files(in: L) where texts[file] == nil {
            guard let text = (main?.path == path ? main.map { [UInt8]($0.text) } : nil) ?? Self.read(path),
                  text.count <= Self.largestFile, kept + text.count <= Self.mostKept else { continue }
            texts[file] = text
            kept += text.count
        }
    }

    /// The bytes of the regular file at path, if it is one of at most `largestFile` bytes.
    private static func read(_ path: String) -> [UInt8]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= largestFile,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: largestFile + 1), data.count <= largestFile else { return nil }
        return [UInt8](data)
    }

    /// Compares each remembered file with its text now (`main`'s: the bytes
    /// about to run) and remembers the new texts; returns the moves.
    mutating func moves(in L: OpaquePointer, main: (path: String, text: Data)) -> Moves {
        var moves: Moves = [:]
        for (file, path) in Self.files(in: L) {
            guard let old = texts[file],
                  let new = main.path == path ? [UInt8](main.text) : Self.read(path), new != old else { continue }
            kept -= old.count
            if new.count <= Self.largestFile, kept + new.count <= Self.mostKept {
                texts[file] = new
                kept += new.count
            } else {
                texts[file] = nil
            }
            if let map = Self.lineMap(from: Self.lines(old), to: Self.lines(new)) { moves[file] = map }
        }
        return moves
    }

    /// The numbered files that are files on disk ("@path" chunks), by number.
    private static func files(in L: OpaquePointer) -> [(Int32, String)] {
        let count = lun_site_files(L)
        guard count > 0 else { return [] }
        return (1...count).compactMap { file in
            var length = 0
            guard let name = lun_site_file_name(L, file, &length), length > 1 else { return nil }
            let bytes = UnsafeRawBufferPointer(start: name, count: length).dropFirst()   // past "@"
            return (file, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A text's lines as Lua numbers them from 1 (a line ends at "\n"; a "\r" before it stays in it, on both sides).
    static func lines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
        text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    }

    /// The new line of each old line of a text (index: the old line; 0:
    /// edited or removed), or nil when the part that differs is past
    /// `mostLines`.
    static func lineMap(from old: [ArraySlice<UInt8>], to new: [ArraySlice<UInt8>]) -> [Int32]? {
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        let oldMiddle = old[head ..< old.count - tail], newMiddle = new[head ..< new.count - tail]
        guard oldMiddle.count + newMiddle.count <= mostLines else { return nil }
        var map = [Int32](repeating: 0, count: old.count + 1)
        for line in 0 ..< head { map[line + 1] = Int32(line + 1) }
        for back in 0 ..< tail { map[old.count - back] = Int32(new.count - back) }
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in newMiddle.difference(from: oldMiddle) {
            switch change {
            case let .remove(offset, _, _): removed.insert(offset)
            case let .insert(offset, _, _): inserted.insert(offset)
            }
        }
        var j = 0
        for i in 0 ..< oldMiddle.count where !removed.contains(i) {
            while inserted.contains(j) { j += 1 }
            map[head + i + 1] = Int32(head + j + 1)
            j += 1
        }
        return map
    }

    /// Moves the sites of every unit's children as `moves` says: a kept
    /// line's to its new line, an edited or removed one's to a site no view
    /// is built at (each its own: a parent's keys stay distinct), so that
    /// child starts afresh.
    static func move(_ moves: Moves, in units: UnitTable) {
        guard !moves.isEmpty else { return }
        var lost: Int32 = 0
        for id in units.ids {
            guard let unit = units[id], !unit.children.isEmpty else { continue }
            var changed = false
            let children = unit.children.map { entry -> ChildEntry in
                let site = entry.key.site
                let file = site >> Int32(LUN_SITE_LINE_BITS)
                guard site > 0, file > 0, let map = moves[file] else { return entry }
                let line = Int(site & Self.lineMask)
                var key = entry.key
                if line < map.count, map[line] > 0 {
                    key.site = file << Int32(LUN_SITE_LINE_BITS) | (map[line] & Self.lineMask)   // as C numbers it
                } else {
                    lost -= 1
                    key.site = lost
                }
                if key.site != site { changed = true }
                return ChildEntry(key: key, unit: entry.unit)
            }
            if changed { unit.children = children }
        }
    }
}
