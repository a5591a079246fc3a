/// The dependency graph: nodes (signals, computeds, effects) joined by links.
///
/// Nodes and links live in contiguous buffers addressed by `Int32` ids (0 means
/// "none"), so the hot paths — a tracked read, a change — touch no Swift
/// collections and allocate nothing once the graph has reached its size.
///
/// Every node keeps two doubly linked lists: the links to what it depends on
/// (`deps`, in the order it read them) and the links to what depends on it
/// (`subs`). Each link remembers the dependency's `version` at the time it was
/// read; a subscriber is stale when any of its dependencies has moved on.
final class Graph {
    struct Node {
        var deps: Int32 = 0, depsTail: Int32 = 0
        var subs: Int32 = 0, subsTail: Int32 = 0
        var version: UInt32 = 0
        var epoch: UInt32 = 0
        var flags: UInt16 = 0
        var kind: UInt8 = 0
        var origin: UInt8 = 0
        var owner: Int32 = 0
        var slot: Int32 = 0
    }

    struct Link {
        var dep: Int32 = 0, sub: Int32 = 0
        var prevDep: Int32 = 0, nextDep: Int32 = 0
        var prevSub: Int32 = 0, nextSub: Int32 = 0
        var version: UInt32 = 0
        var epoch: UInt32 = 0
    }

    enum Kind: UInt8 { case signal = 1, computed = 2, effect = 3 }

    /// What a node stands for: `owner`/`slot` are read accordingly.
    enum Origin: UInt8 {
        case luaObject = 0     // owner: object serial, slot: property index
        case hostObject = 1    // owner: host handle, slot: property index
        case environment = 2   // an environment entry
        case unit = 3          // owner: unit id
    }

    struct Flags {
        static let evaluated: UInt16 = 1   // a computed holds a value / an effect has run
        static let pending: UInt16 = 2     // something upstream changed: check before use
        static let computing: UInt16 = 4   // its function is running (cycle guard)
        static let live: UInt16 = 8        // allocated
    }

    @exclusivity(unchecked) private(set) var nodes: UnsafeMutablePointer<Node>
    @exclusivity(unchecked) private(set) var links: UnsafeMutablePointer<Link>
    @exclusivity(unchecked) private var nodeCapacity: Int32 = 0, nodeCount: Int32 = 1
    @exclusivity(unchecked) private var linkCapacity: Int32 = 0, linkCount: Int32 = 1
    @exclusivity(unchecked) private var freeNode: Int32 = 0, freeLink: Int32 = 0
    @exclusivity(unchecked) private var epochCounter: UInt32 = 0
    @exclusivity(unchecked) private(set) var liveNodes = 0

    /// The refresh walk's explicit stack and where each nested walk starts.
    @exclusivity(unchecked) var walk: [WalkFrame] = []
    @exclusivity(unchecked) var walkBases: [Int] = []

    /// Called for every effect node that becomes pending.
    @exclusivity(unchecked) var onEffectPending: (Int32) -> Void = { _ in }

    init(capacity: Int32 = 1024) {
        nodes = .allocate(capacity: Int(capacity))
        links = .allocate(capacity: Int(capacity))
        nodes.initialize(repeating: Node(), count: Int(capacity))
        links.initialize(repeating: Link(), count: Int(capacity))
        nodeCapacity = capacity
        linkCapacity = capacity
    }

    deinit {
        nodes.deallocate()
        links.deallocate()
    }

    // MARK: nodes

    /// A new node of `kind`; `owner`/`slot` say what it stands for (an object's property, a unit).
    func newNode(_ kind: Kind, owner: Int32, slot: Int32, origin: Origin = .luaObject) -> Int32 {
        let id: Int32
        if freeNode != 0 {
            id = freeNode
            freeNode = nodes[Int(id)].deps
        } else {
            if nodeCount == nodeCapacity { growNodes() }
            id = nodeCount
            nodeCount += 1
        }
        var flags = Flags.live
        if kind == .signal { flags |= Flags.evaluated }
        nodes[Int(id)] = Node(flags: flags, kind: kind.rawValue, origin: origin.rawValue, owner: owner, slot: slot)
        liveNodes += 1
        return id
    }

    /// Unlinks a node from everything and recycles its id.
    func freeNode(_ id: Int32) {
        guard id > 0, id < nodeCount, nodes[Int(id)].flags & Flags.live != 0 else { return }
        removeDeps(of: id, from: nodes[Int(id)].deps)
        var l = nodes[Int(id)].subs
        while l != 0 {
            let next = links[Int(l)].nextSub
            removeFromDepList(l)
            recycleLink(l)
            l = next
        }
        nodes[Int(id)] = Node(deps: freeNode)
        freeNode = id
        liveNodes -= 1
    }

    func isLive(_ id: Int32) -> Bool {
        id > 0 && id < nodeCount && nodes[Int(id)].flags & Flags.live != 0
    }

    func kind(_ id: Int32) -> Kind { Kind(rawValue: nodes[Int(id)].kind) ?? .signal }

    func origin(_ id: Int32) -> Origin { Origin(rawValue: nodes[Int(id)].origin) ?? .luaObject }

    private func growNodes() {
        let newCapacity = nodeCapacity * 2
        let fresh = UnsafeMutablePointer<Node>.allocate(capacity: Int(newCapacity))
        fresh.moveInitialize(from: nodes, count: Int(nodeCapacity))
        (fresh + Int(nodeCapacity)).initialize(repeating: Node(), count: Int(newCapacity - nodeCapacity))
        nodes.deallocate()
        nodes = fresh
        nodeCapacity = newCapacity
    }

    // MARK: links

    func newLink() -> Int32 {
        if freeLink != 0 {
            let id = freeLink
            freeLink = links[Int(id)].nextDep
            return id
        }
        if linkCount == linkCapacity { growLinks() }
        defer { linkCount += 1 }
        return linkCount
    }

    func recycleLink(_ id: Int32) {
        links[Int(id)] = Link(nextDep: freeLink)
        freeLink = id
    }

    private func growLinks() {
        let newCapacity = linkCapacity * 2
        let fresh = UnsafeMutablePointer<Link>.allocate(capacity: Int(newCapacity))
        fresh.moveInitialize(from: links, count: Int(linkCapacity))
        (fresh + Int(linkCapacity)).initialize(repeating: Link(), count: Int(newCapacity - linkCapacity))
        links.deallocate()
        links = fresh
        linkCapacity = newCapacity
    }

    /// Removes link `l` from its subscriber's list of dependencies.
    func removeFromDepList(_ l: Int32) {
        let link = links[Int(l)]
        let sub = Int(link.sub)
        if link.prevDep != 0 { links[Int(link.prevDep)].nextDep = link.nextDep } else if nodes[sub].deps == l { nodes[sub].deps = link.nextDep }
        if link.nextDep != 0 { links[Int(link.nextDep)].prevDep = link.prevDep }
        if nodes[sub].depsTail == l { nodes[sub].depsTail = link.prevDep }
    }

    /// Removes link `l` from its dependency's list of subscribers.
    func removeFromSubList(_ l: Int32) {
        let link = links[Int(l)]
        let dep = Int(link.dep)
        if link.prevSub != 0 { links[Int(link.prevSub)].nextSub = link.nextSub } else { nodes[dep].subs = link.nextSub }
        if link.nextSub != 0 { links[Int(link.nextSub)].prevSub = link.prevSub } else { nodes[dep].subsTail = link.prevSub }
    }

    /// Drops the dependency links of `sub` from `first` to the end of its list.
    func removeDeps(of sub: Int32, from first: Int32) {
        var l = first
        guard l != 0 else { return }
        let prev = links[Int(l)].prevDep
        while l != 0 {
            let next = links[Int(l)].nextDep
            removeFromSubList(l)
            recycleLink(l)
            l = next
        }
        if prev != 0 { links[Int(prev)].nextDep = 0 } else { nodes[Int(sub)].deps = 0 }
        nodes[Int(sub)].depsTail = prev
    }

    func nextEpoch() -> UInt32 {
        epochCounter &+= 1
        return epochCounter
    }

    /// The nodes a node depends on, in the order it read them.
    func dependencies(of id: Int32) -> [Int32] {
        var result: [Int32] = []
        var l = nodes[Int(id)].deps
        while l != 0 {
            result.append(links[Int(l)].dep)
            l = links[Int(l)].nextDep
        }
        return result
    }

    /// The nodes that depend on a node.
    func subscribers(of id: Int32) -> [Int32] {
        var result: [Int32] = []
        var l = nodes[Int(id)].subs
        while l != 0 {
            result.append(links[Int(l)].sub)
            l = links[Int(l)].nextSub
        }
        return result
    }
}
