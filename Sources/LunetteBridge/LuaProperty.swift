import Lunette
import Observation

/// One property of a `LuaExposed` class, declared by its key path.
///
/// Thread: Lua reads and writes it on the runtime's thread. A model that
/// other threads change guards the storage behind its properties (a
/// `Mutex`, as Examples/InboxHost's `Message` does).
public struct LuaProperty<Root: AnyObject> {
    let property: HostType.Property

    /// A property Lua reads and writes.
    public init<Value: LuaConvertible>(_ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
        property = HostType.Property(
            name: name,
            get: { object in (object as! Root)[keyPath: keyPath].luaValue },
            set: { object, value in (object as! Root)[keyPath: keyPath] = try Value.fromLua(value) },
            observe: Self.observer(keyPath),
            elements: Self.elements(keyPath))
    }

    /// A property Lua only reads (a `let`, or a computed property: it is
    /// tracked through the observable properties its getter reads).
    public init<Value: LuaConvertible>(_ name: String, readOnly keyPath: KeyPath<Root, Value>) {
        property = HostType.Property(
            name: name,
            get: { object in (object as! Root)[keyPath: keyPath].luaValue },
            set: nil,
            observe: Self.observer(keyPath),
            elements: Self.elements(keyPath))
    }

    /// One element at a time, for arrays of exposed objects.
    private static func elements<Value: LuaConvertible>(_ keyPath: KeyPath<Root, Value>) -> HostType.Property.Elements? {
        guard Value.isLuaArray else { return nil }
        return HostType.Property.Elements(
            count: { object in Value.luaCount(of: (object as! Root)[keyPath: keyPath]) },
            element: { object, index in                 // one read of the array: it may have shrunk since count
                let value = (object as! Root)[keyPath: keyPath]
                return index >= 0 && index < Value.luaCount(of: value) ? Value.luaElement(of: value, at: index) : nil
            })
    }

    /// Registers one Observation callback for whatever reading the key path touches.
    private static func observer<Value>(_ keyPath: KeyPath<Root, Value>)
        -> (AnyObject, @escaping @Sendable () -> Void) -> Void {
        { object, onChange in
            let root = object as! Root
            withObservationTracking {
                _ = root[keyPath: keyPath]
            } onChange: {
                onChange()
            }
        }
    }
}
