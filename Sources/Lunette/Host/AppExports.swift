import CLunette

// Scheduler, apps and inspection leaves (clunette.h, "scheduler, apps, inspection").


private func hand(_ runtime: LunetteRuntime, _ s: String, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    let (pointer, count) = runtime.text.set(s)
    length?.pointee = count
    return pointer
}

func lunhMount(_ rt: UnsafeMutableRawPointer?, _ ref: Int32) -> Int32 {
    withRuntime(rt) { $0.mount(recordRef: ref).id }
}

func lunhFlushBegin(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.beginFlush() ? 1 : 0 }
}

func lunhRoundBegin(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.beginRound() ? 1 : 0 }
}

func lunhRoundEnd(_ rt: UnsafeMutableRawPointer?, _ ran: Int32) -> Int32 {
    withRuntime(rt) { $0.endRound(ran: ran) ? 1 : 0 }
}

func lunhFlushEnd(_ rt: UnsafeMutableRawPointer?) {
    withRuntime(rt) { $0.endFlush() }
}

func lunhFlushing(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.flushState.flushing ? 1 : 0 }
}

func lunhUnmount(_ rt: UnsafeMutableRawPointer?, _ app: Int32) {
    withRuntime(rt) { runtime in
        if let app = runtime.mounting.appsByID[app] { runtime.removeApp(app) }
    }
}


func lunhAppText(_ rt: UnsafeMutableRawPointer?, _ app: Int32, _ what: Int32, _ arg: UnsafePointer<CChar>?,
                 _ alen: Int, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        guard let app = runtime.mounting.appsByID[app] else { return hand(runtime, "", length) }
        switch Int(what) {
        case LUN_TEXT_TREE: return hand(runtime, runtime.text(of: app), length)
        case LUN_TEXT_JSON: return hand(runtime, runtime.json(of: app), length)
        case LUN_TEXT_WARNINGS: return hand(runtime, app.warnings.joined(separator: "\n"), length)
        case LUN_TEXT_RENDERS: return hand(runtime, String(app.renders(of: string(arg, alen))), length)
        case LUN_TEXT_TRACE: return hand(runtime, app.trace.joined(separator: "\n"), length)
        case LUN_TEXT_RESET_RENDERS:
            app.resetRenderCounts()
            return hand(runtime, "", length)
        case LUN_TEXT_HIDDEN: return hand(runtime, String(app.root.map { TreeQuery.hiddenRows(in: $0) } ?? 0), length)
        case LUN_TEXT_DEPS:
            guard let unit = runtime.firstUnit(named: string(arg, alen), in: app) else { return nil }
            return hand(runtime, runtime.dependencies(of: unit).joined(separator: "\n"), length)
        default: return hand(runtime, "", length)
        }
    }
}

func lunhAppFind(_ rt: UnsafeMutableRawPointer?, _ app: Int32, _ text: UnsafePointer<CChar>?, _ tlen: Int,
                 _ type: UnsafePointer<CChar>?, _ ylen: Int, _ id: UnsafePointer<CChar>?, _ ilen: Int,
                 _ index: Int32) -> Int32 {
    withRuntime(rt) { runtime in
        guard let app = runtime.mounting.appsByID[app] else { return 0 }
        let query = TreeQuery.Query(text: text.map { string($0, tlen) }, type: type.map { string($0, ylen) },
                                    id: id.map { string($0, ilen) })
        // A first match searches anew (what rendered since is in the tree);
        // the next ones of the same query come from that search.
        if index == 0 { app.lastFind = nil }
        let found = app.matches(of: query, round: runtime.flushState.flushCount)
        guard Int(index) < found.count else { app.lastFind = nil; return 0 }   // findAll has them all
        return runtime.handles.add(found[Int(index)])
    }
}

func lunhNodeInfo(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ role: Int32, _ ref: UnsafeMutablePointer<Int32>?,
                  _ slot: UnsafeMutablePointer<Int32>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let (node, unit) = runtime.handles.resolveWithUnit(handle) else { return -1 }
        if role == Int32(LUN_ROLE_LIST) {
            guard node.kind == .list, let list = node.unit else { return 0 }
            ref?.pointee = list.recordRef
            slot?.pointee = list.id
            return 1
        }
        if role == Int32(LUN_ROLE_ROW) {                 // the row the node is in: its Row node keeps the index
            guard let (rowNode, list) = runtime.row(holding: node, in: unit), let found = rowNode.slot(for: role) else { return 0 }
            ref?.pointee = list.recordRef
            slot?.pointee = found
            return 1
        }
        if node.slot(for: role) == nil, role == Int32(LUN_ROLE_ACTION),   // a tap on a Button's label view taps the Button
           let (button, owner) = runtime.ancestor(of: node, in: unit, keeping: role), let found = button.slot(for: role) {
            ref?.pointee = owner.recordRef
            slot?.pointee = found
            return 1
        }
        guard let found = node.slot(for: role) else { return 0 }
        ref?.pointee = unit.recordRef
        slot?.pointee = found
        return 1
    }
}

/// A script opened a URL with the default openURL action: kept for the
/// host's `onOpenURL` (charged to the memory cap until handed on; at most a
/// thousand wait; dropped when no host listens or the cap is reached).
func lunhOpenURL(_ rt: UnsafeMutableRawPointer?, _ url: UnsafePointer<CChar>?, _ length: Int) {
    withRuntime(rt) { runtime in
        guard runtime.openURLCallback != nil, runtime.openedURLs.count < 1000,
              lun_memory_charge(runtime.L, Int64(length)) != 0 else { return }
        runtime.openedURLs.append(Lunette.message(url, length))
    }
}

extension LunetteRuntime {
    /// The Row node of the list row `node` is in (the node itself, or the
    /// nearest row unit above the unit whose output holds it), and the list
    /// unit whose output holds that Row node. Walks up the units: bounded by
    /// the tree's depth (R18).
    /// The nearest node around `node` that keeps a slot for `role` (a
    /// Button whose label view holds it) and the unit whose output holds
    /// that node: up through the nodes of each unit's output, then to the
    /// node hosting the unit in its parent's. Iterative; bounded by the
    /// tree's depth (R18).
    ///
    /// A presentation (a sheet, cover, popover, alert or dialog: a Sheet or
    /// Alert node) ends the climb: it stands under the view it was attached
    /// to, but its content is no part of that view's label, so a tap inside
    /// it never reaches a Button outside it (as in SwiftUI).
    func ancestor(of node: RenderNode, in owner: Unit, keeping role: Int32) -> (RenderNode, Unit)? {
        var target = node, unit = owner
        while !target.isPresentation {
            if let path = TreeQuery.path(of: target, in: unit) {
                var nodes = unit.output
                var chain: [RenderNode] = []
                for index in path.dropLast() {
                    chain.append(nodes[index])
                    nodes = nodes[index].ownChildren
                }
                let inside = chain.lastIndex(where: \.isPresentation).map { $0 + 1 }
                if let found = chain[(inside ?? 0)...].last(where: { $0.slot(for: role) != nil }) { return (found, unit) }
                if inside != nil { return nil }
            }
            guard let parent = unit.parent, !parent.disposed, let host = hostNode(of: unit, in: parent) else { return nil }
            if host.slot(for: role) != nil { return (host, parent) }
            target = host
            unit = parent
        }
        return nil
    }

    /// The node in `parent`'s output that hosts `unit` (a component's, a row's, a list's content).
    private func hostNode(of unit: Unit, in parent: Unit) -> RenderNode? {
        var stack = parent.output
        while let next = stack.popLast() {
            if next.unit === unit { return next }
            stack.append(contentsOf: next.ownChildren)
        }
        return nil
    }

    func row(holding node: RenderNode, in owner: Unit) -> (RenderNode, Unit)? {
        var unit: Unit? = node.kind == .row ? node.unit : owner
        while let current = unit, current.kind != .row { unit = current.parent }
        guard let row = unit, let list = row.parent, !list.disposed else { return nil }
        guard let rowNode = list.output.first(where: { $0.unit === row }) else { return nil }
        return (rowNode, list)
    }
}

func lunhUnitInvalidate(_ rt: UnsafeMutableRawPointer?, _ unit: Int32) {
    withRuntime(rt) { runtime in
        guard let unit = runtime.units[unit] else { return }
        unit.run.needsRender = true
        runtime.scheduler.schedule(unit)
    }
}

func lunhNodeText(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ what: Int32,
                  _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        guard let node = runtime.handles.resolve(handle) else {
            return what == Int32(LUN_NODE_TREE) ? hand(runtime, "a node that is no longer rendered", length) : nil
        }
        switch Int(what) {
        case LUN_NODE_TYPE: return hand(runtime, node.typeName, length)
        case LUN_NODE_TEXT: return node.text.map { hand(runtime, $0, length) } ?? nil
        case LUN_NODE_VALUE: return node.attribute("value").map { hand(runtime, $0, length) } ?? nil
        case LUN_NODE_TREE: return hand(runtime, TreeText.render([node]), length)
        case LUN_NODE_DEPS:
            guard let (_, unit) = runtime.handles.resolveWithUnit(handle) else { return nil }
            return hand(runtime, runtime.dependencies(of: node.unit ?? unit).joined(separator: "\n"), length)
        default: return nil
        }
    }
}

func lunhNodeReleaseHandle(_ rt: UnsafeMutableRawPointer?, _ handle: Int32) {
    withRuntime(rt) { $0.handles.remove(handle) }
}
