/// Pushing a change downstream.
///
/// A change bumps the signal's version and marks everything downstream
/// *pending* — possibly stale. Nothing is recomputed here: computeds are
/// pulled when read, effects are handed to the scheduler, which checks them
/// before running (an unchanged computed stops the propagation there).
extension Graph {
    /// The value behind `node` changed.
    func changed(_ node: Int32) {
        guard isLive(node) else { return }
        nodes[Int(node)].version &+= 1
        markPending(downstreamOf: node)
    }

    private func markPending(downstreamOf node: Int32) {
        var resume: [Int32] = []
        var l = nodes[Int(node)].subs
        while true {
            while l != 0 {
                let s = Int(links[Int(l)].sub)
                let flags = nodes[s].flags
                if flags & Flags.pending == 0 {
                    nodes[s].flags = flags | Flags.pending
                    if nodes[s].kind == Kind.effect.rawValue {
                        onEffectPending(Int32(s))
                    } else if nodes[s].subs != 0 {
                        resume.append(links[Int(l)].nextSub)
                        l = nodes[s].subs
                        continue
                    }
                }
                l = links[Int(l)].nextSub
            }
            guard let next = resume.popLast() else { return }
            l = next
        }
    }
}
