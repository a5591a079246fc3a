/// Recording what a run reads.
///
/// A run (a body, a row, a computed's function) starts with `beginRun`; each
/// tracked read calls `track`; `endRun` drops whatever the run no longer read.
/// Reads that repeat the previous run's order reuse its links, so a stable
/// re-render allocates nothing.
extension Graph {
    /// Starts a run of `sub`: later reads are matched against its previous dependencies.
    func beginRun(_ sub: Int32) {
        let i = Int(sub)
        nodes[i].depsTail = 0
        nodes[i].epoch = nextEpoch()
        nodes[i].flags = (nodes[i].flags | Flags.computing) & ~Flags.pending
    }

    /// Ends a run of `sub`: dependencies it did not read this time are unlinked.
    func endRun(_ sub: Int32) {
        let i = Int(sub)
        let tail = nodes[i].depsTail
        let stale = tail != 0 ? links[Int(tail)].nextDep : nodes[i].deps
        if stale != 0 { removeDeps(of: sub, from: stale) }
        nodes[i].flags = (nodes[i].flags & ~Flags.computing) | Flags.evaluated
    }

    /// Records that the running `sub` read `dep`.
    @inline(__always)
    func track(sub: Int32, dep: Int32) {
        let s = Int(sub)
        let tail = nodes[s].depsTail
        if tail != 0 && links[Int(tail)].dep == dep { return }
        let next = tail != 0 ? links[Int(tail)].nextDep : nodes[s].deps
        if next != 0 && links[Int(next)].dep == dep {
            links[Int(next)].version = nodes[Int(dep)].version
            links[Int(next)].epoch = nodes[s].epoch
            nodes[s].depsTail = next
            return
        }
        let last = nodes[Int(dep)].subsTail
        if last != 0 && links[Int(last)].sub == sub && links[Int(last)].epoch == nodes[s].epoch { return }
        insertLink(sub: sub, dep: dep, after: tail, before: next)
    }

    /// `sub` read computed `dep` again right after pulling it up to date:
    /// the link (its last) takes dep's new version.
    func retrack(sub: Int32, dep: Int32) {
        let tail = nodes[Int(sub)].depsTail
        if tail != 0 && links[Int(tail)].dep == dep { links[Int(tail)].version = nodes[Int(dep)].version }
        else { track(sub: sub, dep: dep) }
    }

    private func insertLink(sub: Int32, dep: Int32, after tail: Int32, before next: Int32) {
        let l = newLink()
        let s = Int(sub), d = Int(dep)
        let prevSub = nodes[d].subsTail
        links[Int(l)] = Link(dep: dep, sub: sub, prevDep: tail, nextDep: next,
                             prevSub: prevSub, nextSub: 0,
                             version: nodes[d].version, epoch: nodes[s].epoch)
        if next != 0 { links[Int(next)].prevDep = l }
        if tail != 0 { links[Int(tail)].nextDep = l } else { nodes[s].deps = l }
        if prevSub != 0 { links[Int(prevSub)].nextSub = l } else { nodes[d].subs = l }
        nodes[d].subsTail = l
        nodes[s].depsTail = l
    }

    /// True when `sub`'s current run has already read `dep` (used to spot a body writing what it reads).
    func runHasRead(sub: Int32, dep: Int32) -> Bool {
        let epoch = nodes[Int(sub)].epoch
        var l = nodes[Int(dep)].subs
        while l != 0 {
            if links[Int(l)].sub == sub && links[Int(l)].epoch == epoch { return true }
            l = links[Int(l)].nextSub
        }
        return false
    }
}
