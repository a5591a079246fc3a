import CLunette

// Acting on a rendered tree as a person would: each call runs the Lua the
// node keeps (an action, a binding, a control) in a protected call, then
// flushes, as an event loop would; a node no longer rendered is an error.
//
// Thread: the runtime's. Each throws `LunetteError.script` when the node has
// nothing to act on or is no longer rendered ("Button Archive: nothing to tap
// (or no longer rendered)"), or when the Lua it runs raises ("inbox.lua:12:
// Inbox:move: no message is titled 'Nope'"); the runtime stays usable.
extension LunetteRuntime {
    /// Whether `unit` stands in an app this runtime has mounted: a node of
    /// another runtime's tree (whose unit ids may be this one's too) is not
    /// acted on.
    func holds(_ unit: Unit) -> Bool {
        guard let app = unit.app else { return false }
        return mounting.appsByID[app.id] === app
    }

    /// Runs a Button's action (or a node's onSubmit action with `submit`),
    /// then flushes, as an event loop would. A node of a Button's label view
    /// (a NavigationLink's too) taps that Button, as `node:tap()` does.
    /// Throws `LunetteError.script` for a node no longer rendered or in no
    /// Button, a disabled Button, or an action that raised.
    public func tap(_ node: RenderNode, submit: Bool = false) throws {
        let role = Int32(submit ? LUN_ROLE_SUBMIT : LUN_ROLE_ACTION)
        guard let owner = node.owner, !owner.disposed, holds(owner), owner.last.generation == node.generation else {
            throw LunetteError.script("\(node.typeName) \(node.text ?? ""): nothing to \(submit ? "submit" : "tap") (or no longer rendered)")
        }
        var target = node, unit = owner
        if node.slot(for: role) == nil, !submit, let (button, holder) = ancestor(of: node, in: owner, keeping: role) {
            (target, unit) = (button, holder)             // a label view's node: its Button
        }
        guard let slot = target.slot(for: role) else {
            throw LunetteError.script("\(node.typeName) \(node.text ?? ""): nothing to \(submit ? "submit" : "tap") (or no longer rendered)")
        }
        try refuseIfDisabled(target, submit ? "submit" : "tap")
        guard lun_call_slot(L, unit.recordRef, slot, nil, 0, 0) == LUN_OK else { throw LunetteError.script(lastError) }
        flush()
    }

    /// Moves a lazy List's window to start at `row` (as far as the rows go),
    /// as `node:scroll(row)` does, then flushes; refused for a disabled List.
    public func scroll(_ list: RenderNode, to row: Int) throws {
        guard list.kind == .list, let unit = list.unit, !unit.disposed, holds(unit) else {
            throw LunetteError.script("\(list.typeName) is not a List on screen (of this runtime)")
        }
        try refuseIfDisabled(list, "scroll")
        guard lun_list_scroll(L, unit.recordRef, Int64(row)) == LUN_OK else { throw LunetteError.script(lastError) }
        unit.run.needsRender = true
        scheduler.schedule(unit)
        flush()
    }

    /// Focuses a field that has `:focused(...)`, as a click would, then flushes.
    public func focus(_ node: RenderNode) throws {
        let role = Int32(LUN_ROLE_FOCUS)
        guard let owner = node.owner, !owner.disposed, holds(owner), owner.last.generation == node.generation,
              let slot = node.slot(for: role) else {
            throw LunetteError.script("\(node.typeName) \(node.text ?? ""): nothing to focus (or no longer rendered)")
        }
        try refuseIfDisabled(node, "focus")
        guard lun_call_slot(L, owner.recordRef, slot, nil, 0, 0) == LUN_OK else { throw LunetteError.script(lastError) }
        flush()
    }

    /// Runs a node's onSubmit action (a TextField's Return), then flushes.
    public func submit(_ node: RenderNode) throws {
        try tap(node, submit: true)
    }

    /// Picks one of a Picker's options (the value as Lua has it: `.string("vanilla")`),
    /// as a click would, then flushes; as `node:select(v)`.
    public func select(_ node: RenderNode, _ value: LuaValue) throws {
        try invoke(node, "select", value)
    }

    /// Moves a Slider (or sets a Stepper) to `value` within its range, then flushes.
    public func setValue(_ node: RenderNode, _ value: Double) throws {
        try invoke(node, "setValue", .double(value))
    }

    /// A Stepper's + (`by: 1`) or − (`by: -1`), kept within its range, then flushes.
    public func step(_ node: RenderNode, by direction: Int) throws {
        try invoke(node, direction >= 0 ? "increment" : "decrement", nil)
    }

    /// Deletes the list row `node` is in (any node inside it), as a swipe's
    /// Delete does: its ForEach's `onDelete` runs with the row's index, then
    /// flushes; as `node:delete()`.
    public func delete(_ node: RenderNode) throws {
        try invoke(node, "delete", nil)
    }

    /// Moves the list row `node` is in before position `to` (1-based,
    /// counted before the move), as a drag does: its ForEach's `onMove`
    /// runs, then flushes; as `node:move(to)`.
    public func move(_ node: RenderNode, to position: Int) throws {
        try invoke(node, "move", .int(position))
    }

    /// Pulls to refresh a view with `:refreshable`: its action runs as a
    /// task (the node shows refreshing=true until it ends), then flushes; as
    /// `node:refresh()`.
    public func refresh(_ node: RenderNode) throws {
        try invoke(node, "refresh", nil)
    }

    /// Calls a node method of the Lua API on a node, as a script would.
    private func invoke(_ node: RenderNode, _ method: String, _ argument: LuaValue?) throws {
        guard let owner = node.owner, !owner.disposed, holds(owner), owner.last.generation == node.generation,
              let path = TreeQuery.path(of: node, in: owner) else {
            throw LunetteError.script("\(node.typeName) \(node.text ?? ""): no longer rendered")
        }
        let handle = handles.add(.init(unit: owner, path: path, kind: node.kind))
        var value = lun_HostValue()
        if let argument, !objects.fill(&value, with: argument) {
            handles.remove(handle)
            throw LunetteError.script(objects.lastError)
        }
        let status = method.withCString { name in
            argument == nil ? lun_node_invoke(L, handle, name, nil) : lun_node_invoke(L, handle, name, &value)
        }
        guard status == LUN_OK else { throw LunetteError.script(lastError) }
    }

    /// Flips a Toggle's binding, as a click would, then flushes.
    public func toggle(_ node: RenderNode) throws {
        try writeBinding(of: node, text: nil)
    }

    /// Writes a TextField's text through its binding, as typing would, then flushes.
    public func setText(_ node: RenderNode, _ text: String) throws {
        try writeBinding(of: node, text: text)
    }

    /// Throws for a node drawn disabled (`:disabled(true)` on it or a view
    /// around it, D09), as `node:tap()` and the rest do in Lua: a person
    /// cannot act on it.
    private func refuseIfDisabled(_ node: RenderNode, _ verb: String) throws {
        guard node.attribute("disabled") == "true" else { return }
        let label = node.text.map { " \"\($0)\"" } ?? ""
        throw LunetteError.script("cannot \(verb) \(node.typeName)\(label): it is disabled (:disabled(true) on it or a view around it)")
    }

    private func writeBinding(of node: RenderNode, text: String?) throws {
        let role = Int32(LUN_ROLE_BINDING)
        guard let owner = node.owner, !owner.disposed, holds(owner), owner.last.generation == node.generation,
              let slot = node.slot(for: role) else {
            throw LunetteError.script("\(node.typeName) \(node.text ?? ""): nothing to edit (or no longer rendered)")
        }
        try refuseIfDisabled(node, text == nil ? "toggle" : "type into")
        let label = node.text.map { " \"\($0)\"" } ?? ""
        if text == nil, node.kind != .toggle {                 // a person toggles a Toggle only
            throw LunetteError.script("toggle: \(node.typeName)\(label) cannot be toggled (only a Toggle can)")
        }
        if text != nil, node.kind != .textField, node.kind != .secureField {
            throw LunetteError.script("setText: \(node.typeName)\(label) cannot be typed into (only a TextField or a SecureField can)")
        }
        let focus = text == nil ? 0 : node.slot(for: Int32(LUN_ROLE_FOCUS)) ?? 0   // one types into the focused field
        let status = (text ?? "").withCString {
            lun_slot_binding(L, owner.recordRef, slot, $0, (text ?? "").utf8.count,
                             text == nil ? 0 : node.kind == .secureField ? 2 : 1, focus)
        }
        guard status == LUN_OK else { throw LunetteError.script(lastError) }
        flush()
    }
}
