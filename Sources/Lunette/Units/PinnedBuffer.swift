/// Elements in storage that stays where it is until it grows or is given
/// back, so C may read it by pointer between the calls that fill it (a
/// round's batch, `round_batch`; the preference list, `prefs_prepare`).
final class PinnedBuffer<Element> {
    private var storage: UnsafeMutablePointer<Element>
    /// Elements it has room for.
    private(set) var capacity: Int
    private let initialCapacity: Int
    /// Elements held.
    private(set) var count = 0

    init(capacity: Int) {
        initialCapacity = max(1, capacity)
        self.capacity = initialCapacity
        storage = .allocate(capacity: initialCapacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The elements, for C (valid until the next `append` or `removeAll`).
    var base: UnsafePointer<Element> { UnsafePointer(storage) }

    /// Adds an element, moving the storage to twice its size when full.
    func append(_ element: Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// The element at index (below `count`).
    subscript(index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    /// Empties it; storage grown past `kept` elements is given back.
    func removeAll(keepingUpTo kept: Int) {
        storage.deinitialize(count: count)
        count = 0
        guard capacity > kept else { return }
        storage.deallocate()
        capacity = initialCapacity
        storage = .allocate(capacity: capacity)
    }
}
