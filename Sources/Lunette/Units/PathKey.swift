/// An open node's path as a child unit's or an environment value's key
/// holds it (`OutputBuilder`): the path's steps (a place, or an interned
/// constructor slot, and a kind) packed two `Int32`s to a word.
///
/// The first four steps are kept inline, so keying a child at the usual
/// depths allocates nothing (a copy of the builder's path array was one
/// allocation per child, the next append to the path copying it); a deeper
/// path keeps the rest in an array.
struct PathKey: Hashable {
    private var first: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count: Int32 = 0
    private var rest: [Int32]? = nil

    /// No steps: a key by explicit identity has no path.
    static let none = PathKey()

    private init() {}

    /// The steps of `path` ([place, kind, place, kind, …]).
    init(_ path: [Int32]) {
        count = Int32(path.count)
        func step(_ i: Int) -> UInt64 {
            i + 1 < path.count ? UInt64(UInt32(bitPattern: path[i])) << 32 | UInt64(UInt32(bitPattern: path[i + 1])) : 0
        }
        first = (step(0), step(2), step(4), step(6))
        if path.count > 8 { rest = Array(path[8...]) }
    }

    static func == (a: PathKey, b: PathKey) -> Bool {
        a.count == b.count && a.first == b.first && a.rest == b.rest
    }

    /// Mixes `value` into `word` (rotate, xor, multiply by the golden
    /// ratio's bits, as FxHash does): cheap, and a change in any bit of any
    /// value folded in changes the result.
    static func fold(_ word: UInt64, _ value: UInt64) -> UInt64 {
        ((word << 5 | word >> 59) ^ value) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Every step folded into `word` (ChildKey's hash; equality still
    /// compares every step).
    func folded(into word: UInt64) -> UInt64 {
        var word = Self.fold(word, UInt64(UInt32(bitPattern: count)))
        word = Self.fold(Self.fold(Self.fold(Self.fold(word, first.0), first.1), first.2), first.3)
        if let rest { for step in rest { word = Self.fold(word, UInt64(UInt32(bitPattern: step))) } }
        return word
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(first.0)
        hasher.combine(first.1)
        hasher.combine(first.2)
        hasher.combine(first.3)
        if let rest { hasher.combine(rest) }
    }
}
