import CLunette

// Swift host object leaves (clunette.h, "Swift host objects"), answered by
// the runtime's ObjectBridge. A failure returns non-zero and leaves a
// message for objects.error_message; C raises it.

func withObjects<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (ObjectBridge) -> T) -> T {
    Unmanaged<ObjectBridge>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

func lunhObjectSerial(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withObjects(rt) { objects in
        defer { objects.nextSerial += 1 }
        return objects.nextSerial
    }
}

func lunhHostGet(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ tracker: Int32,
                 _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        objects.tables.clearReading()
        objects.drainIfIdle()                          // a flush drains between rounds
        guard let (object, property) = objects.property(handle, prop) else { return 1 }
        objects.track(handle, prop, tracker: tracker)
        if let elements = property.elements {             // an array: its count is all Lua needs now
            out!.pointee = lun_HostValue()
            out!.pointee.tag = Int32(LUN_HV_ARRAY)
            out!.pointee.integer = Int64(elements.count(object))
            return 0
        }
        return objects.fill(out!, with: property.get(object)) ? 0 : 1
    }
}

func lunhHostTrackWhole(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ tracker: Int32) {
    withObjects(rt) { objects in
        guard tracker != 0, objects.hosts.entry(handle) != nil else { return }
        let node = objects.hosts.node(handle, 0) {
            objects.graph.newNode(.signal, owner: handle, slot: 0, origin: .hostObject)
        }
        objects.graph.track(sub: tracker, dep: node)
        objects.hosts.observeWhole(handle, node: node)
    }
}

func lunhHostSet(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32,
                 _ value: UnsafePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        defer { objects.tables.clearBuilding() }
        guard let (object, property) = objects.property(handle, prop) else { return 1 }
        objects.conversionFailure = nil
        guard let new = objects.value(of: value!.pointee) else {
            return objects.fail(objects.conversionFailure.map { "cannot set '\(property.name)': \($0)" } ?? "object destroyed") ? 0 : 1
        }
        return objects.set(object, property, new) ? 0 : 1
    }
}

func lunhHostElement(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ index: Int64,
                     _ tracker: Int32, _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        objects.tables.clearReading()
        guard let (object, property) = objects.property(handle, prop) else { return 1 }
        objects.track(handle, prop, tracker: tracker)
        if let elements = property.elements {             // one element, not a copy of the array
            guard index >= 1, index <= Int64(elements.count(object)),
                  let element = elements.element(object, Int(index) - 1) else { return objects.fill(out!, with: .none) ? 0 : 1 }
            return objects.fill(out!, with: .object(element)) ? 0 : 1
        }
        guard case .array(let array) = property.get(object), index >= 1, index <= array.count else {
            return objects.fill(out!, with: .none) ? 0 : 1
        }
        return objects.fill(out!, with: .object(array[Int(index) - 1])) ? 0 : 1
    }
}

func lunhHostSetElement(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ prop: Int32, _ index: Int64,
                        _ value: UnsafePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        defer { objects.tables.clearBuilding() }
        guard let (object, property) = objects.property(handle, prop) else { return 1 }
        guard case .array(var array) = property.get(object) else { return objects.fail("'\(property.name)' is not an array") ? 0 : 1 }
        objects.conversionFailure = nil
        let new = objects.value(of: value!.pointee)
        let i = Int(index)
        switch new {
        case .object(let element)? where i >= 1 && i <= array.count: array[i - 1] = element
        case .object(let element)? where i == array.count + 1: array.append(element)
        case .none? where i == array.count && i >= 1: array.removeLast()
        default:
            return objects.fail("cannot set element \(i) of '\(property.name)' (\(array.count) elements) to \(new?.typeName ?? objects.conversionFailure ?? "a destroyed object")") ? 0 : 1
        }
        return objects.set(object, property, .array(array)) ? 0 : 1
    }
}

func lunhHostCall(_ rt: UnsafeMutableRawPointer?, _ handle: Int32, _ method: Int32, _ args: UnsafePointer<lun_HostValue>?,
                  _ nargs: Int32, _ out: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        objects.tables.clearReading()
        defer { objects.tables.clearBuilding() }
        guard let entry = objects.hosts.entry(handle), let object = entry.object else {
            return objects.fail("object destroyed: this Swift object is no longer available to Lua") ? 0 : 1
        }
        guard let type = objects.hosts.type(at: entry.type), method >= 1, Int(method) <= type.methods.count else {
            return objects.fail("no such method") ? 0 : 1
        }
        let declared = type.methods[Int(method) - 1]
        var values: [LuaValue] = []
        for i in 0..<Int(nargs) {
            objects.conversionFailure = nil
            guard let value = objects.value(of: args![i]) else {
                let why = objects.conversionFailure ?? "is a destroyed object"
                return objects.fail("\(type.name):\(declared.name): argument \(i + 1) \(objects.conversionFailure == nil ? why : "holds " + why)") ? 0 : 1
            }
            values.append(value)
        }
        do {
            let result = try declared.call(object, values)
            if case .object(let made) = result { _ = objects.hosts.handle(for: made, madeByLua: true) }  // a method's result is Lua's to keep
            return objects.fill(out!, with: result) ? 0 : 1
        } catch {
            return objects.fail("\(type.name):\(declared.name): \(error)") ? 0 : 1
        }
    }
}

func lunhHostNew(_ rt: UnsafeMutableRawPointer?, _ type: Int32) -> Int32 {
    withObjects(rt) { objects in
        guard let hostType = objects.hosts.type(at: type) else { return 0 }
        guard let make = hostType.make else {
            _ = objects.fail("\(hostType.name) cannot be created from Lua")
            return 0
        }
        return objects.hosts.handle(for: make(), madeByLua: true) ?? 0
    }
}

func lunhHostRelease(_ rt: UnsafeMutableRawPointer?, _ handle: Int32) {
    withObjects(rt) { objects in
        for node in objects.hosts.release(handle) { lun_graph_release_later(objects.graph.handle, node) }
    }
}

func lunhHostDescribe(_ rt: UnsafeMutableRawPointer?, _ handle: Int32,
                      _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withObjects(rt) { objects in
        let (pointer, count) = objects.text.set(objects.hosts.describe(handle))
        length?.pointee = count
        return pointer
    }
}

func lunhErrorMessage(_ rt: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    withObjects(rt) { objects in
        let (pointer, count) = objects.errorText.set(objects.lastError)
        length?.pointee = count
        return pointer
    }
}

func lunhTableEntry(_ rt: UnsafeMutableRawPointer?, _ token: Int32, _ index: Int32,
                    _ key: UnsafeMutablePointer<lun_HostValue>?, _ value: UnsafeMutablePointer<lun_HostValue>?) -> Int32 {
    withObjects(rt) { objects in
        guard let (k, v) = objects.tables.entry(token, Int(index)) else { return 1 }
        // The key first: its string must be copied by C before the value's reuses the text buffer.
        guard objects.fill(key!, with: k) else { return 1 }
        if case .string(let s) = k { key!.pointee.string = objects.tables.keep(s) }
        return objects.fill(value!, with: v) ? 0 : 1
    }
}

func lunhTableBegin(_ rt: UnsafeMutableRawPointer?) -> Int32 {
    withObjects(rt) { $0.tables.begin() }
}

func lunhTableAdd(_ rt: UnsafeMutableRawPointer?, _ token: Int32, _ key: UnsafePointer<lun_HostValue>?,
                  _ value: UnsafePointer<lun_HostValue>?) {
    withObjects(rt) { objects in
        objects.conversionFailure = nil
        guard let k = objects.value(of: key!.pointee), let v = objects.value(of: value!.pointee) else {
            objects.tables.fail(token, objects.conversionFailure ?? "it holds a destroyed object")
            return
        }
        objects.tables.add(token, k, v)
    }
}
