import CLunette

/// The dependency graph, seen from Swift.
///
/// The graph itself is C (`lun_graph.h`): it lives where the reads are, so a
/// tracked read, a computed pull and an effect check never cross into Swift.
/// Swift owns the handle and uses it as the scheduler does: it makes and
/// frees the nodes of its units and of Swift model properties, marks changes
/// that Swift models post, takes the effects that became pending, and reads
/// nodes and links for diagnostics. None of these calls raises or runs Lua.
final class Graph {
    enum Kind: Int32 { case signal = 1, computed = 2, effect = 3 }

    /// What a node stands for: `owner`/`slot` are read accordingly.
    enum Origin: Int32 {
        case luaObject = 0     // owner: object serial, slot: property index
        case hostObject = 1    // owner: host handle, slot: property index
        case environment = 2   // an environment entry (owner 0), or a unit's probe (owner: its unit id)
        case unit = 3          // owner: unit id
        case effect = 4        // a ui.effect, kept by C (owner: its slot there)
    }

    enum Step: Equatable {
        case done
        case recompute(Int32)
    }

    let handle: UnsafeMutablePointer<lun_Graph>

    init() {
        guard let graph = lun_graph_new() else { fatalError("out of memory making the dependency graph") }
        handle = graph
    }

    deinit { lun_graph_free(handle) }

    // MARK: nodes

    /// A new node of `kind`; `owner`/`slot` say what it stands for (an object's property, a unit).
    func newNode(_ kind: Kind, owner: Int32, slot: Int32, origin: Origin = .luaObject) -> Int32 {
        let id = lun_graph_node_new(handle, kind.rawValue, origin.rawValue, owner, slot)
        if id == 0 { fatalError("out of memory growing the dependency graph") }
        return id
    }

    /// Unlinks a node from everything and recycles its id.
    func freeNode(_ id: Int32) { lun_graph_node_free(handle, id) }

    /// Frees the node when the flush ends (`lun_graph_free_released`): what
    /// depends on it still sees the change it made this flush.
    func freeNodeLater(_ id: Int32) { lun_graph_release_later(handle, id) }

    func isLive(_ id: Int32) -> Bool { lun_graph_is_live(handle, id) != 0 }

    /// The node's record (kind, origin, owner, slot, flags, version, links).
    func node(_ id: Int32) -> lun_GraphNode { handle.pointee.nodes[Int(id)] }

    func link(_ id: Int32) -> lun_GraphLink { handle.pointee.links[Int(id)] }

    func kind(_ id: Int32) -> Kind { Kind(rawValue: Int32(node(id).kind)) ?? .signal }

    func origin(_ id: Int32) -> Origin { Origin(rawValue: Int32(node(id).origin)) ?? .luaObject }

    var liveNodes: Int { Int(handle.pointee.liveNodes) }

    // MARK: runs, changes, the scheduler's queue

    func beginRun(_ sub: Int32) { lun_graph_run_begin(handle, sub) }

    func endRun(_ sub: Int32, ok: Bool = true) { lun_graph_run_end(handle, sub, ok ? 1 : 0) }

    func track(sub: Int32, dep: Int32) { lun_graph_track(handle, sub, dep) }

    func runHasRead(sub: Int32, dep: Int32) -> Bool { lun_graph_run_has_read(handle, sub, dep) != 0 }

    /// The value behind `node` changed: everything downstream is pending.
    func changed(_ node: Int32) { lun_graph_changed(handle, node) }

    /// Whether effect nodes wait to be taken.
    var hasPending: Bool { handle.pointee.pending.count > 0 }

    /// The effect nodes that became pending since the last call, in order.
    func takePending() -> [Int32] { Array(takePendingInPlace()) }

    /// The same, without a copy: the graph's own buffer, valid until the
    /// graph next changes (the scheduler reads it once per round).
    func takePendingInPlace() -> UnsafeBufferPointer<Int32> {
        var nodes: UnsafePointer<Int32>?
        let count = lun_graph_take_pending(handle, &nodes)
        return UnsafeBufferPointer(start: count > 0 ? nodes : nil, count: count > 0 ? Int(count) : 0)
    }

    /// A unit that will not run now stops being pending.
    func clearPending(_ node: Int32) { lun_graph_clear_pending(handle, node) }

    /// A unit stopped: it stops being pending, and the next change to what it
    /// reads reaches it even through computeds left pending (lun_graph_unstick).
    func unstick(_ node: Int32) { lun_graph_unstick(handle, node) }

    /// A unit stopped in a flush stays pending till it ends (lun_graph_hold);
    /// `missed`: the change that reached it after a stop by its budget runs it
    /// at the next flush.
    func hold(_ node: Int32, missed: Bool) { lun_graph_hold(handle, node, missed ? 1 : 0) }

    /// The flush ends: true if a change reached the held unit meanwhile (it
    /// stays pending, for the next flush); else it is unstuck.
    func release(_ node: Int32) -> Bool { lun_graph_release(handle, node) != 0 }

    // MARK: computeds (the C driver pulls them; exposed for tests and diagnostics)

    func isFresh(_ id: Int32) -> Bool {
        let flags = Int32(node(id).flags)
        return flags & Int32(LUN_GRAPH_EVALUATED) != 0 && flags & Int32(LUN_GRAPH_PENDING) == 0
    }

    /// The computed finished running; `changed` says whether its value differs.
    func computedDone(_ id: Int32, changed: Bool) { lun_graph_recompute_end(handle, id, 1, changed ? 1 : 0) }

    func refreshBegin(_ id: Int32) -> Step {
        var node: Int32 = 0
        return step(lun_graph_refresh_begin(handle, id, &node), node)
    }

    func refreshResume() -> Step {
        var node: Int32 = 0
        return step(lun_graph_refresh_resume(handle, &node), node)
    }

    func refreshAbort(to frame: Int32) { lun_graph_refresh_abort(handle, frame) }

    var refreshFrame: Int32 { lun_graph_refresh_frame(handle) }

    private func step(_ answer: Int32, _ node: Int32) -> Step {
        answer == Int32(LUN_REFRESH_RECOMPUTE) ? .recompute(node) : .done
    }

    // MARK: reading links

    /// The nodes a node depends on, in the order it read them.
    func dependencies(of id: Int32) -> [Int32] {
        var result: [Int32] = []
        var l = node(id).deps
        while l != 0 {
            result.append(link(l).dep)
            l = link(l).nextDep
        }
        return result
    }

    /// The nodes that depend on a node.
    func subscribers(of id: Int32) -> [Int32] {
        var result: [Int32] = []
        var l = node(id).subs
        while l != 0 {
            result.append(link(l).sub)
            l = link(l).nextSub
        }
        return result
    }
}
