import CLunette

/// One batch of a flush round, as C reads it: the tickets of the units to
/// update, in order, in one contiguous buffer handed over by one call
/// (`round_batch` in clunette.h). The runtime keeps the buffer; C copies a
/// ticket as it starts it. A unit disposed while its batch runs has its
/// ticket zeroed here, so C skips it.
struct RoundBatch {
    private let tickets = PinnedBuffer<lun_Ticket>(capacity: 64)
    /// Tickets in the current batch, and the room it keeps.
    var count: Int { tickets.count }
    var capacity: Int { tickets.capacity }
    /// Unit ids taken from the scheduler, reused between batches.
    var ids: [Int32] = []
    /// It grew past `kept` tickets since the last `shrink`.
    private var grown = false

    /// The buffer C reads (valid until the next batch is filled).
    var base: UnsafePointer<lun_Ticket> { tickets.base }

    /// Empties the batch for the next one.
    func removeAll() { tickets.removeAll(keepingUpTo: .max) }

    /// Adds the unit's ticket; the unit remembers where, to be cancelled.
    mutating func append(_ unit: Unit, plain: Bool) {
        unit.run.batchSlot = Int32(tickets.count)
        tickets.append(lun_Ticket(unit: unit.id, kind: unit.kind.rawValue, node: unit.node, recordRef: unit.recordRef,
                                  needsRender: unit.run.needsRender ? 1 : 0, plain: plain ? 1 : 0))
        if tickets.count > Self.kept { grown = true }
    }

    /// The unit is gone: if its ticket is still in the batch, C skips it.
    func cancel(_ unit: Unit) {
        let slot = Int(unit.run.batchSlot)
        guard slot >= 0, slot < tickets.count, tickets[slot].unit == unit.id else { return }
        tickets[slot].unit = 0
    }

    /// Past a large flush, gives back what it grew to (a mount of 10,000
    /// views needs 10,000 tickets once, not for as long as they stay
    /// mounted); true if it did.
    mutating func shrink() -> Bool {
        guard grown else { return false }                 // most flushes: one test
        grown = false
        tickets.removeAll(keepingUpTo: Self.kept)
        if ids.capacity > Self.kept { ids = [] }
        return true
    }

    /// Tickets (and ids) kept between flushes; past this, a flush's end frees them.
    static let kept = 1024
}
