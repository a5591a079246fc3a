import Lunette

/// A Swift class Lua sees under a name: what `LuaExposed` (@Observable) and
/// `LuaExposedObject` (ObservableObject-style) share. Its instances convert
/// to and from Lua as objects.
public protocol LuaClass: AnyObject, LuaConvertible {
    /// The name Lua uses (`ui.types.<luaName>`, `Book#3`, environment type keys).
    static var luaName: String { get }
    /// Whether Lua's handles keep instances alive: `.retained` (the default)
    /// or `.borrowed`, where a handle to an instance Swift destroyed answers
    /// "object destroyed".
    static var luaLifetime: HostType.Lifetime { get }
}

extension LuaClass {
    /// `.retained`: Lua's handles keep instances alive.
    public static var luaLifetime: HostType.Lifetime { .retained }

    /// The object itself: Lua gets a handle to it (shared, not copied).
    public var luaValue: LuaValue { .object(self) }

    /// The class's `luaName`.
    public static var luaTypeName: String { luaName }

    /// The object behind a Lua handle; throws `LuaConversionError` for anything else (another type included).
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard case .object(let object) = value, let typed = object as? Self else {
            throw LuaConversionError(expected: luaName, got: value.typeName)
        }
        return typed
    }
}
