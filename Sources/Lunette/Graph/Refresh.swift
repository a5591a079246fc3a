/// Pulling a node up to date without recursion.
///
/// `refreshBegin` walks a pending node's dependencies depth-first with an
/// explicit stack. When it finds a node that must be recomputed it returns it;
/// the C driver runs that node's Lua function and calls `refreshResume`, and
/// the walk continues where it stopped. So however long a chain of computeds
/// is, checking it needs no C stack; only Lua's own evaluation nests, and the
/// C driver bounds that with a trampoline.
extension Graph {
    struct WalkFrame {
        var node: Int32
        var cursor: Int32
    }

    enum Step {
        case done
        case recompute(Int32)
    }

    /// Starts a walk from `node`. Returns the first node to recompute, if any.
    func refreshBegin(_ node: Int32) -> Step {
        walkBases.append(walk.count)
        walk.append(WalkFrame(node: node, cursor: 0))
        return step()
    }

    /// The node returned by the last step was recomputed; continue the walk.
    func refreshResume() -> Step {
        walk.removeLast()
        return step()
    }

    /// Abandons the walks started at or above `frame` (after an error).
    func refreshAbort(to frame: Int) {
        if walk.count > frame { walk.removeSubrange(frame...) }
        while let base = walkBases.last, base >= frame { walkBases.removeLast() }
    }

    var refreshFrame: Int { walk.count }

    /// A computed value is usable as cached.
    func isFresh(_ node: Int32) -> Bool {
        let flags = nodes[Int(node)].flags
        return flags & Flags.evaluated != 0 && flags & Flags.pending == 0
    }

    /// The computed finished running; `changed` says whether its value differs.
    func computedDone(_ node: Int32, changed: Bool) {
        let i = Int(node)
        if changed { nodes[i].version &+= 1 }
        nodes[i].flags = (nodes[i].flags | Flags.evaluated) & ~Flags.pending
    }

    private func step() -> Step {
        let base = walkBases[walkBases.count - 1]
        frames: while walk.count > base {
            let top = walk.count - 1
            let n = Int(walk[top].node)
            let flags = nodes[n].flags
            if flags & Flags.evaluated == 0 { return .recompute(Int32(n)) }
            if flags & Flags.pending == 0 {
                walk.removeLast()
                continue
            }
            var l = walk[top].cursor != 0 ? walk[top].cursor : nodes[n].deps
            while l != 0 {
                let d = Int(links[Int(l)].dep)
                if nodes[d].kind == Kind.computed.rawValue,
                   nodes[d].flags & (Flags.pending | Flags.evaluated) != Flags.evaluated {
                    walk[top].cursor = l
                    walk.append(WalkFrame(node: Int32(d), cursor: 0))
                    continue frames
                }
                if links[Int(l)].version != nodes[d].version { return .recompute(Int32(n)) }
                l = links[Int(l)].nextDep
            }
            nodes[n].flags &= ~Flags.pending
            walk.removeLast()
        }
        walkBases.removeLast()
        return .done
    }
}
