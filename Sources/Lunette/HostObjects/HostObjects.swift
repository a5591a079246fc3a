
/// The Swift objects Lua currently holds, by handle.
///
/// Lua's userdata hold a handle; the entry holds the object until the
/// userdata is collected — strongly, or weakly for a type whose lifetime is
/// `.borrowed` (then a handle may outlive its object: "object destroyed"). Each (object, property) read by a live scope
/// gets one graph node and at most one observation registration: the
/// registration outlives handles (it is keyed by the object), so dropping
/// and re-reading an object never stacks registrations on its registrar.
final class HostObjects {
    struct Entry {
        private let strong: AnyObject?
        private weak var weak: AnyObject?
        let id: ObjectIdentifier
        let type: Int32
        /// Its number among its type's objects ("Book#2"), kept: once it is
        /// gone, another object may have its address and so its identity.
        var ordinal = 0
        var nodes: [Int32]

        init(_ object: AnyObject, retained: Bool, type: Int32, nodes: [Int32]) {
            strong = retained ? object : nil
            weak = object
            id = ObjectIdentifier(object)
            self.type = type
            self.nodes = nodes
        }

        /// The object, or nil once Swift destroyed a borrowed one.
        var object: AnyObject? { strong ?? weak }
    }

    /// One pending `observe` registration on one (object, property).
    final class Registration: Sendable {
        private struct State {
            var fired = false
            var node: Int32
        }
        private let state: Locked<State>
        private let inbox: Inbox

        init(node: Int32, inbox: Inbox) {
            state = Locked(State(node: node))
            self.inbox = inbox
        }

        /// True until the property changes; then a new registration is needed.
        var isLive: Bool { state.withLock { !$0.fired } }

        func retarget(_ node: Int32) { state.withLock { $0.node = node } }

        func fire() {
            let node: Int32? = state.withLock { state in
                guard !state.fired else { return nil }
                state.fired = true
                return state.node
            }
            if let node { inbox.post(node) }
        }
    }

    /// The one whole-object subscription of an ObservableObject-style object.
    final class ObjectSubscription: Sendable {
        private let node: Locked<Int32>
        private let inbox: Inbox
        let cancel: Locked<(() -> Void)?> = Locked(nil)

        init(node: Int32, inbox: Inbox) {
            self.node = Locked(node)
            self.inbox = inbox
        }

        func retarget(_ node: Int32) { self.node.withLock { $0 = node } }

        func fire() {
            let target = node.withLock { $0 }
            if target != 0 { inbox.post(target) }
        }
    }

    private struct Identity {
        weak var object: AnyObject?
        let ordinal: Int
        var registrations: [Int: Registration] = [:]
        var subscription: ObjectSubscription?
    }

    private(set) var types: [HostType] = []
    private var typeIndex: [ObjectIdentifier: Int32] = [:]
    private var entries: [Int32: Entry] = [:]
    private var handleOf: [ObjectIdentifier: Int32] = [:]
    @exclusivity(unchecked) private var identities: [ObjectIdentifier: Identity] = [:]
    private var ordinalCounters: [Int32: Int] = [:]
    private var nextHandle: Int32 = 1
    let inbox: Inbox

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    // MARK: types

    /// Registers a type; returns its index (1-based), or the existing one.
    func register(_ type: HostType) -> (index: Int32, isNew: Bool) {
        let key = ObjectIdentifier(type.swiftType)
        if let index = typeIndex[key] { return (index, false) }
        types.append(type)
        let index = Int32(types.count)
        typeIndex[key] = index
        return (index, true)
    }

    func type(at index: Int32) -> HostType? {
        index >= 1 && Int(index) <= types.count ? types[Int(index) - 1] : nil
    }

    func typeIndex(of object: AnyObject) -> Int32? {
        typeIndex[ObjectIdentifier(Swift.type(of: object))]
    }

    // MARK: handles

    func entry(_ handle: Int32) -> Entry? { entries[handle] }

    /// The handle of an object, made if Lua does not hold it yet; nil if its
    /// type is not registered. `madeByLua`: Lua keeps it alive whatever its type's lifetime.
    func handle(for object: AnyObject, madeByLua: Bool = false) -> Int32? {
        let id = ObjectIdentifier(object)
        if let handle = handleOf[id], let entry = entries[handle], entry.object === object { return handle }
        guard let type = typeIndex(of: object), let hostType = self.type(at: type) else { return nil }
        let handle = nextHandle
        nextHandle += 1
        entries[handle] = Entry(object, retained: madeByLua || hostType.lifetime == .retained, type: type,
                                nodes: Array(repeating: 0, count: hostType.properties.count + 1))
        handleOf[id] = handle
        if identities[id]?.object !== object {
            ordinalCounters[type, default: 0] += 1
            identities[id] = Identity(object: object, ordinal: ordinalCounters[type]!)
        }
        entries[handle]?.ordinal = identities[id]?.ordinal ?? 0
        return handle
    }

    /// Lua collected the handle's userdata: forget it; returns the nodes to free.
    func release(_ handle: Int32) -> [Int32] {
        guard let entry = entries.removeValue(forKey: handle) else { return [] }
        let id = entry.id
        if handleOf[id] == handle { handleOf[id] = nil }
        // The identity is this object's, or a gone one's — not another object's
        // that Swift made at the same address since (its views would miss its changes).
        if let identity = identities[id], identity.object == nil || identity.object === entry.object {
            for registration in identity.registrations.values { registration.retarget(0) }
            identity.subscription?.retarget(0)
        }
        return entry.nodes.filter { $0 != 0 }
    }

    /// "Book#2": the type name and the object's stable ordinal.
    func describe(_ handle: Int32) -> String {
        guard let entry = entries[handle], let type = type(at: entry.type) else { return "destroyed object" }
        let ordinal = entry.ordinal
        return entry.object == nil ? "\(type.name)#\(ordinal) (destroyed)" : "\(type.name)#\(ordinal)"
    }

    // MARK: observation

    /// The graph node of (handle, prop), made with `makeNode` on first use.
    func node(_ handle: Int32, _ prop: Int, makeNode: () -> Int32) -> Int32 {
        if let node = entries[handle]?.nodes[prop], node != 0 { return node }
        let node = makeNode()
        entries[handle]?.nodes[prop] = node
        return node
    }

    /// Makes sure a change to (object, prop) will post `node`: one live registration per pair.
    func observe(_ handle: Int32, _ prop: Int, node: Int32) {
        guard let entry = entries[handle], let object = entry.object, let type = type(at: entry.type) else { return }
        let id = entry.id
        if let registration = identities[id]?.registrations[prop], registration.isLive {
            registration.retarget(node)
            return
        }
        let registration = Registration(node: node, inbox: inbox)
        identities[id]?.registrations[prop] = registration
        type.properties[prop - 1].observe(object) { registration.fire() }
    }

    /// Makes sure every change of an ObservableObject-style object posts `node`: one subscription per object.
    func observeWhole(_ handle: Int32, node: Int32) {
        guard let entry = entries[handle], let object = entry.object, let type = type(at: entry.type),
              let observe = type.observeObject else { return }
        let id = entry.id
        if let subscription = identities[id]?.subscription {
            subscription.retarget(node)
            return
        }
        let subscription = ObjectSubscription(node: node, inbox: inbox)
        identities[id]?.subscription = subscription
        let cancel = observe(object) { subscription.fire() }
        subscription.cancel.withLock { $0 = cancel }
    }

    /// Whether objects of this type invalidate as a whole (ObservableObject-style).
    func isObjectStyle(_ type: Int32) -> Bool { self.type(at: type)?.observeObject != nil }

    /// How many observation registrations are waiting for a change (for tests and diagnostics).
    var liveRegistrations: Int {
        identities.values.reduce(0) { $0 + $1.registrations.values.filter(\.isLive).count }
    }

    private var pruneThreshold = 1024

    /// Drops identities of objects that no longer exist (their registrars went
    /// with them). Amortised: a full pass only when the table has doubled.
    /// The runtime is going: every ObservableObject subscription it made is
    /// cancelled (the objects may outlive it, and would call each runtime
    /// that ever observed them at every change).
    func cancelSubscriptions() {
        for identity in identities.values {
            identity.subscription?.retarget(0)
            identity.subscription?.cancel.withLock { $0 }?()
        }
    }

    func pruneIdentities() {
        guard identities.count > pruneThreshold else { return }
        for identity in identities.values where identity.object == nil {
            identity.subscription?.cancel.withLock { $0 }?()
        }
        identities = identities.filter { $0.value.object != nil }
        pruneThreshold = max(1024, identities.count * 2)
    }
}
