import Lunette

/// An ObservableObject-style Swift class that Lua may see: views holding it
/// (`observedObject`, `stateObject`, `environmentObject`) re-render when it
/// is about to change, whatever they read — the pre-Observation model.
///
/// Adapt a Combine or OpenCombine `ObservableObject` in one line:
///
/// ```swift
/// final class Counter: ObservableObject, LuaExposedObject {
///     @Published var count = 0
///     static let luaName = "Counter"
///     static var luaProperties: [LuaProperty<Counter>] { [LuaProperty("count", \.count)] }
///     func luaObjectWillChange(_ action: @escaping @Sendable () -> Void) -> () -> Void {
///         let subscription = objectWillChange.sink { _ in action() }
///         return { subscription.cancel() }
///     }
/// }
/// ```
public protocol LuaExposedObject: LuaClass {
    /// The properties Lua sees (read untracked; the object changes as a whole).
    static var luaProperties: [LuaProperty<Self>] { get }
    /// Calls `action` before each change of a published property, until the returned closure is called.
    func luaObjectWillChange(_ action: @escaping @Sendable () -> Void) -> () -> Void
}

extension LuaExposedObject {
    /// This class as the runtime sees it.
    public static var hostType: HostType {
        HostType(name: luaName, swiftType: self, properties: luaProperties.map(\.property), make: nil,
                 observeObject: { object, action in (object as! Self).luaObjectWillChange(action) },
                 lifetime: luaLifetime)
    }
}

extension LunetteRuntime {
    /// Makes an ObservableObject-style Swift class visible to Lua as `ui.types.<luaName>`.
    public func register<T: LuaExposedObject>(_ type: T.Type) throws {
        try register(type.hostType)
    }
}
