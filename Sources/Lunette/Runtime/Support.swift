/// A C string the runtime hands to C, valid until the buffer is set again.
final class CStringBuffer {
    private var storage = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
    private var capacity = 256

    deinit { storage.deallocate() }

    /// Copies `s` in; returns the pointer and its length in bytes.
    func set(_ s: String) -> (pointer: UnsafePointer<CChar>, length: Int) {
        var utf8 = s.utf8CString
        let length = utf8.count - 1
        if utf8.count > capacity {
            storage.deallocate()
            capacity = utf8.count
            storage = .allocate(capacity: capacity)
        }
        utf8.withUnsafeMutableBufferPointer { buffer in
            storage.update(from: buffer.baseAddress!, count: buffer.count)
        }
        return (UnsafePointer(storage), length)
    }

    /// Copies `bytes` in (any bytes, NUL included); returns the pointer and their count.
    func set(_ bytes: [UInt8]) -> (pointer: UnsafePointer<CChar>, length: Int) {
        if bytes.count + 1 > capacity {
            storage.deallocate()
            capacity = bytes.count + 1
            storage = .allocate(capacity: capacity)
        }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(storage).copyMemory(from: base, byteCount: raw.count) }
        }
        storage[bytes.count] = 0
        return (UnsafePointer(storage), bytes.count)
    }
}

/// Node handles given to Lua (`app:find`): a unit and a path into its
/// output, re-resolved on each use so a handle survives re-renders that keep
/// the node where it was.
struct NodeHandles {
    struct Handle {
        weak var unit: Unit?
        let path: [Int]
        let kind: RenderNode.Kind
    }

    private var handles: [Int32: Handle] = [:]
    private var next: Int32 = 1

    mutating func add(_ handle: Handle) -> Int32 {
        let id = next
        next += 1
        handles[id] = handle
        return id
    }

    mutating func remove(_ id: Int32) { handles[id] = nil }

    /// The node a handle designates now, or nil if it is gone.
    func resolve(_ id: Int32) -> RenderNode? { resolveWithUnit(id)?.node }

    /// The node a handle designates now and the unit whose output holds it.
    func resolveWithUnit(_ id: Int32) -> (node: RenderNode, unit: Unit)? {
        guard let handle = handles[id], let unit = handle.unit, !unit.disposed else { return nil }
        var nodes = unit.output
        var node: RenderNode?
        for index in handle.path {
            guard index < nodes.count else { return nil }
            node = nodes[index]
            nodes = nodes[index].ownChildren
        }
        guard let node, node.kind == handle.kind else { return nil }
        return (node, unit)
    }

    func exists(_ id: Int32) -> Bool { handles[id] != nil }
}

extension Array {
    /// The same elements in storage of their own size, when a run that
    /// appended them left the storage much larger (an array grows by
    /// doubling): what a unit keeps between runs is held by every mounted
    /// view (TARGETS.md P6). Small arrays, and ones near their size, as they are.
    func exactlySized() -> [Element] {
        guard capacity > count + count / 8 + 32 else { return self }
        var exact: [Element] = []
        exact.reserveCapacity(count)
        exact.append(contentsOf: self)
        return exact
    }
}
