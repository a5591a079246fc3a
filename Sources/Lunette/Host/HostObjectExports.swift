import CLunette

// Swift host object leaves (clunette.h, "Swift host objects"). A failure
// returns non-zero and leaves a message for objects.error_message; C raises it.

extension LunetteRuntime {
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
                return failHost("\(Swift.type(of: object)) is not registered with the runtime")
            }
            v.tag = Int32(LUN_HV_OBJECT)
            v.handle = handle
            v.integer = Int64(type)
        case .array(let array):
            v.tag = Int32(LUN_HV_ARRAY)
            v.integer = Int64(array.count)
        case .list(let values):
            v.tag = Int32(LUN_HV_TABLE)
            v.handle = valueTables.read(values.enumerated().map { (.int($0.offset + 1), $0.element) })
            v.integer = Int64(values.count)
        case .table(let entries):
            v.tag = Int32(LUN_HV_TABLE)
            v.handle = valueTables.read(entries.sorted { $0.key < $1.key }.map { (.string($0.key), $0.value) })
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
            switch valueTables.built(v.handle) {
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

    func failHost(_ message: String) -> Bool {
        lastHostError = message
        return false
    }

    /// The object and property behind (handle, prop), or a failure.
    func hostProperty(_ handle: Int32, _ prop: Int32) -> (AnyObject, HostType.Property)? {
        guard let entry = hosts.entry(handle), let object = entry.object else {
            _ = failHost("object destroyed: this Swift object is no longer available to Lua")
            return nil
        }
        guard let type = hosts.type(at: entry.type), prop >= 1, Int(prop) <= type.properties.count else {
            _ = failHost("no such property")
            return nil
        }
        return (object, type.properties[Int(prop) - 1])
    }

    /// Records that `tracker` read (handle, prop), and makes sure a change will reach it.
    func trackHost(_ handle: Int32, _ prop: Int32, tracker: Int32) {
        guard tracker != 0 else { return }
        let node = hosts.node(handle, Int(prop)) {
            graph.newNode(.signal, owner: handle, slot: prop, origin: .hostObject)
        }
        graph.track(sub: tracker, dep: node)
        hosts.observe(handle, Int(prop), node: node)
    }

    /// Writes a property, then applies the change it caused right away.
    func setHost(_ object: AnyObject, _ property: HostType.Property, _ value: LuaValue) -> Bool {
        guard let set = property.set else { return failHost("'\(property.name)' is read-only") }
        do {
            try set(object, value)
        } catch {
            tracer.pendingWritePlace = nil
            return failHost("cannot set '\(property.name)': \(error)")
        }
        if let place = tracer.pendingWritePlace, inbox.hasPending {
            tracer.pendingWritePlace = nil
            let posts = inbox.drain()
            for post in posts where graph.isLive(post.node) {
                traceWrite(to: post.node, at: place)
                graph.changed(post.node)
                if post.fromOtherThread { flushState.rechecks.append(post.node) }
            }
        }
        drainInbox()
        return true
    }
}

func lunhHostGet(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ tracker: Int32,
                 _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        runtime.valueTables.clearReading()
        if !runtime.flushState.flushing { runtime.drainInbox() }    // a flush drains between rounds
        guard let (object, property) = runtime.hostProperty(handle, prop) else { return 1 }
        runtime.trackHost(handle, prop, tracker: tracker)
        if let elements = property.elements {             // an array: its count is all Lua needs now
            out!.pointee = lun_HostValue()
            out!.pointee.tag = Int32(LUN_HV_ARRAY)
            out!.pointee.integer = Int64(elements.count(object))
            return 0
        }
        return runtime.fill(out!, with: property.get(object)) ? 0 : 1
    }
}

func lunhHostTrackWhole(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ tracker: Int32) {
    withRuntime(rt) { runtime in
        guard tracker != 0, runtime.hosts.entry(handle) != nil else { return }
        let node = runtime.hosts.node(handle, 0) {
            runtime.graph.newNode(.signal, owner: handle, slot: 0, origin: .hostObject)
        }
        runtime.graph.track(sub: tracker, dep: node)
        runtime.hosts.observeWhole(handle, node: node)
    }
}

func lunhHostSet(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32,
                 _ value: UnsafePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        defer { runtime.valueTables.clearBuilding() }
        guard let (object, property) = runtime.hostProperty(handle, prop) else { return 1 }
        runtime.conversionFailure = nil
        guard let new = runtime.value(of: value!.pointee) else {
            return runtime.failHost(runtime.conversionFailure.map { "cannot set '\(property.name)': \($0)" } ?? "object destroyed") ? 0 : 1
        }
        return runtime.setHost(object, property, new) ? 0 : 1
    }
}

func lunhHostElement(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ index: Int64,
                     _ tracker: Int32, _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        runtime.valueTables.clearReading()
        guard let (object, property) = runtime.hostProperty(handle, prop) else { return 1 }
        runtime.trackHost(handle, prop, tracker: tracker)
        if let elements = property.elements {             // one element, not a copy of the array
            guard index >= 1, index <= Int64(elements.count(object)) else { return runtime.fill(out!, with: .none) ? 0 : 1 }
            return runtime.fill(out!, with: .object(elements.element(object, Int(index) - 1))) ? 0 : 1
        }
        guard case .array(let array) = property.get(object), index >= 1, index <= array.count else {
            return runtime.fill(out!, with: .none) ? 0 : 1
        }
        return runtime.fill(out!, with: .object(array[Int(index) - 1])) ? 0 : 1
    }
}

func lunhHostSetElement(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ index: Int64,
                        _ value: UnsafePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        defer { runtime.valueTables.clearBuilding() }
        guard let (object, property) = runtime.hostProperty(handle, prop) else { return 1 }
        guard case .array(var array) = property.get(object) else { return runtime.failHost("'\(property.name)' is not an array") ? 0 : 1 }
        runtime.conversionFailure = nil
        let new = runtime.value(of: value!.pointee)
        let i = Int(index)
        switch new {
        case .object(let element)? where i >= 1 && i <= array.count: array[i - 1] = element
        case .object(let element)? where i == array.count + 1: array.append(element)
        case .none? where i == array.count && i >= 1: array.removeLast()
        default:
            return runtime.failHost("cannot set element \(i) of '\(property.name)' (\(array.count) elements) to \(new?.typeName ?? runtime.conversionFailure ?? "a destroyed object")") ? 0 : 1
        }
        return runtime.setHost(object, property, .array(array)) ? 0 : 1
    }
}

func lunhHostCall(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ method: Int32, _ args: UnsafePointer<lun_HostValue>?,
                  _ nargs: Int32, _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        runtime.valueTables.clearReading()
        defer { runtime.valueTables.clearBuilding() }
        guard let entry = runtime.hosts.entry(handle), let object = entry.object else {
            return runtime.failHost("object destroyed: this Swift object is no longer available to Lua") ? 0 : 1
        }
        guard let type = runtime.hosts.type(at: entry.type), method >= 1, Int(method) <= type.methods.count else {
            return runtime.failHost("no such method") ? 0 : 1
        }
        let declared = type.methods[Int(method) - 1]
        var values: [LuaValue] = []
        for i in 0..<Int(nargs) {
            runtime.conversionFailure = nil
            guard let value = runtime.value(of: args![i]) else {
                let why = runtime.conversionFailure ?? "is a destroyed object"
                return runtime.failHost("\(type.name):\(declared.name): argument \(i + 1) \(runtime.conversionFailure == nil ? why : "holds " + why)") ? 0 : 1
            }
            values.append(value)
        }
        do {
            let result = try declared.call(object, values)
            if case .object(let made) = result { _ = runtime.hosts.handle(for: made, madeByLua: true) }  // a method's result is Lua's to keep
            return runtime.fill(out!, with: result) ? 0 : 1
        } catch {
            return runtime.failHost("\(type.name):\(declared.name): \(error)") ? 0 : 1
        }
    }
}

func lunhHostNew(_ rt: UnsafeMutableRawPointer?, _ type: Int32) -> Int32 {
    withRuntime(rt) { runtime in
        guard let hostType = runtime.hosts.type(at: type) else { return 0 }
        guard let make = hostType.make else {
            _ = runtime.failHost("\(hostType.name) cannot be created from Lua")
            return 0
        }
        return runtime.hosts.handle(for: make(), madeByLua: true) ?? 0
    }
}

func lunhHostRelease(_ rt: UnsafeMutableRawPointer?, _ handle: Int32) {
    withRuntime(rt) { runtime in
        for node in runtime.hosts.release(handle) { lun_graph_release_later(runtime.graph.handle, node) }
    }
}

func lunhHostDescribe(_ rt: UnsafeMutableRawPointer?, _ handle: Int32,
                      _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        let (pointer, count) = runtime.text.set(runtime.hosts.describe(handle))
        length?.pointee = count
        return pointer
    }
}

func lunhErrorMessage(_ rt: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withRuntime(rt) { runtime in
        let (pointer, count) = runtime.errorText.set(runtime.lastHostError)
        length?.pointee = count
        return pointer
    }
}

func lunhTableEntry(_ rt: UnsafeMutableRawPointer?, _ token: Int32, _ index: Int32,
                    _ key: UnsafeMutablePointer<lun_HostValue>?, _ value: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withRuntime(rt) { runtime in
        guard let (k, v) = runtime.valueTables.entry(token, Int(index)) else { return 1 }
        // The key first: its string must be copied by C before the value's reuses the text buffer.
        guard runtime.fill(key!, with: k) else { return 1 }
        if case .string(let s) = k { key!.pointee.string = runtime.valueTables.keep(s) }
        return runtime.fill(value!, with: v) ? 0 : 1
    }
}

func lunhTableBegin(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withRuntime(rt) { $0.valueTables.begin() }
}

func lunhTableAdd(_ rt: UnsafeMutableRawPointer?, _ token: Int32, _ key: UnsafePointer<lun_HostValue>?,
                  _ value: UnsafePointer<lun_HostValue>?) {
    withRuntime(rt) { runtime in
        runtime.conversionFailure = nil
        guard let k = runtime.value(of: key!.pointee), let v = runtime.value(of: value!.pointee) else {
            runtime.valueTables.fail(token, runtime.conversionFailure ?? "it holds a destroyed object")
            return
        }
        runtime.valueTables.add(token, k, v)
    }
}
