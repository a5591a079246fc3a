/// The live units by id: an array indexed by id, ids reused after disposal
/// — once the disposed unit's record is released (`recycleReleasedIDs`),
/// so a `self` a script kept never names the view that takes its id.
struct UnitTable {
    private var slots: [Unit?] = [nil]
    private var freeIDs: [Int32] = []
    /// Ids of units disposed whose records wait to be released.
    private var releasing: [Int32] = []

    /// The records released: the ids of the units disposed before may be reused.
    mutating func recycleReleasedIDs() {
        guard !releasing.isEmpty else { return }                // most flushes: none
        freeIDs += releasing
        releasing.removeAll(keepingCapacity: true)
    }

    /// An id for a new unit.
    mutating func nextID() -> Int32 {
        if let id = freeIDs.popLast() { return id }
        slots.append(nil)
        return Int32(slots.count - 1)
    }

    subscript(id: Int32) -> Unit? {
        get { id > 0 && Int(id) < slots.count ? slots[Int(id)] : nil }
        set {
            guard id > 0, Int(id) < slots.count else { return }
            if newValue == nil, slots[Int(id)] != nil { releasing.append(id) }
            slots[Int(id)] = newValue
        }
    }

    var count: Int { slots.count - 1 - freeIDs.count - releasing.count }

    /// The ids of the live units.
    var ids: [Int32] { (1..<Int32(slots.count)).filter { slots[Int($0)] != nil } }
}
