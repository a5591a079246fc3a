import CLunette

/// Swift objects and values as the C module sees them: the owner of the
/// host table's `objects` group (its callbacks answer with this part, not
/// with the runtime). It keeps the objects Lua holds (`hosts`), the tables
/// of values crossing one at a time, the text and error a callback hands
/// C, and the numbering of Lua model instances. Two things it asks of the
/// runtime, which owns the scheduler: to run what other threads posted
/// before a read outside a flush (`drainIfIdle`), and to apply at once
/// what a write from Lua to a Swift property changed (`afterWrite`).
final class ObjectBridge {
    /// The Swift objects Lua holds, their types and their graph nodes.
    let hosts: HostObjects
    let graph: Graph
    /// Lists and dictionaries crossing one entry at a time.
    var tables = ValueTables()
    /// Why the last value from C could not become a Swift value (not a destroyed object).
    var conversionFailure: String?
    /// The message a failed callback leaves for objects.error_message.
    private(set) var lastError = ""
    /// The next serial of a Lua model instance ("Book#3").
    var nextSerial: Int32 = 1
    /// Text handed to C (valid until the next call), and the error's.
    let text = CStringBuffer()
    let errorText = CStringBuffer()
    /// Set by the runtime: drains the inbox unless a flush is running (it drains between rounds).
    var drainIfIdle: () -> Void = {}
    /// Set by the runtime: a write from Lua to a Swift property ended (true: it was made).
    var afterWrite: (Bool) -> Void = { _ in }

    init(hosts: HostObjects, graph: Graph) {
        self.hosts = hosts
        self.graph = graph
    }

    /// Fills a C value from a Swift one; strings go to the runtime's text buffer.
    func fill(_ out: UnsafeMutablePointer<lun_HostValue>, with value: LuaValue) -> Bool {
        var v = lun_HostValue()
        switch value {
        case .none:
            v.tag = Int32(LUN_HV_NIL)
        case .bool(let b):
            v.tag = Int32(LUN_HV_BOOL)
            v.integer = b ? 1 : 0
        case .int(let i):
            v.tag = Int32(LUN_HV_INT)
            v.integer = Int64(i)
        case .double(let d):
            v.tag = Int32(LUN_HV_DOUBLE)
            v.number = d
        case .string(let s):
            let (pointer, length) = text.set(s)
            v.tag = Int32(LUN_HV_STRING)
            v.string = pointer
            v.length = length
        case .object(let object):
            guard let handle = hosts.handle(for: object), let type = hosts.typeIndex(of: object) else {
                return fail("\(Swift.type(of: object)) is not registered with the runtime")
            }
            v.tag = Int32(LUN_HV_OBJECT)
            v.handle = handle
            v.integer = Int64(type)
        case .array(let array):
            v.tag = Int32(LUN_HV_ARRAY)
            v.integer = Int64(array.count)
        case .list(let values):
            v.tag = Int32(LUN_HV_TABLE)
            v.handle = tables.read(values.enumerated().map { (.int($0.offset + 1), $0.element) })
            v.integer = Int64(values.count)
        case .table(let entries):
            v.tag = Int32(LUN_HV_TABLE)
            v.handle = tables.read(entries.sorted { $0.key < $1.key }.map { (.string($0.key), $0.value) })
            v.integer = Int64(entries.count)
        }
        out.pointee = v
        return true
    }

    /// A Swift value from a C one.
    func value(of v: lun_HostValue) -> LuaValue? {
        switch Int(v.tag) {
        case Int(LUN_HV_BOOL): return .bool(v.integer != 0)
        case Int(LUN_HV_INT): return .int(Int(v.integer))
        case Int(LUN_HV_DOUBLE): return .double(v.number)
        case Int(LUN_HV_STRING):
            // A Swift String is Unicode text: bytes that are not UTF-8 are refused, never repaired (R24).
            let bytes = UnsafeRawBufferPointer(start: v.string, count: v.length)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                conversionFailure = "a string that is not valid UTF-8 cannot become a Swift String \(Self.firstInvalid(bytes))"
                return nil
            }
            return .string(text)
        case Int(LUN_HV_OBJECT):
            guard let object = hosts.entry(v.handle)?.object else { return nil }
            return .object(object)
        case Int(LUN_HV_TABLE):
            switch tables.built(v.handle) {
            case .success(let value): return value
            case .failure(let failure):
                conversionFailure = failure.description
                return nil
            }
        default: return LuaValue.none
        }
    }

    /// "(byte 0xFF at 3)": where the UTF-8 of `bytes` first goes wrong.
    static func firstInvalid(_ bytes: UnsafeRawBufferPointer) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return ""
            case .error:
                return "(byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at \(offset + 1))"
            }
        }
    }

    /// Leaves `message` for objects.error_message; returns false.
    func fail(_ message: String) -> Bool {
        lastError = message
        return false
    }

    /// The object and property behind (handle, prop), or a failure.
    func property(_ handle: Int32, _ prop: Int32) -> (AnyObject, HostType.Property)? {
        guard let entry = hosts.entry(handle), let object = entry.object else {
            _ = fail("object destroyed: this Swift object is no longer available to Lua")
            return nil
        }
        guard let type = hosts.type(at: entry.type), prop >= 1, Int(prop) <= type.properties.count else {
            _ = fail("no such property")
            return nil
        }
        return (object, type.properties[Int(prop) - 1])
    }

    /// Records that `tracker` read (handle, prop), and makes sure a change will reach it.
    func track(_ handle: Int32, _ prop: Int32, tracker: Int32) {
        guard tracker != 0 else { return }
        let node = hosts.node(handle, Int(prop)) {
            graph.newNode(.signal, owner: handle, slot: prop, origin: .hostObject)
        }
        graph.track(sub: tracker, dep: node)
        hosts.observe(handle, Int(prop), node: node)
    }

    /// Writes a property, then has the runtime apply the change it caused right away.
    func set(_ object: AnyObject, _ property: HostType.Property, _ value: LuaValue) -> Bool {
        guard let set = property.set else { return fail("'\(property.name)' is read-only") }
        do {
            try set(object, value)
        } catch {
            afterWrite(false)
            return fail("cannot set '\(property.name)': \(error)")
        }
        afterWrite(true)
        return true
    }
}
