import Lunette
import Observation

/// A Swift `@Observable` class that Lua may see.
///
/// Declare the properties Lua sees, by key path; nothing else is needed:
///
/// ```swift
/// @Observable final class Book: LuaExposed {
///     var title = "Sample Book Title"
///     var isAvailable = true
///     static let luaName = "Book"
///     static var luaProperties: [LuaProperty<Book>] {
///         [LuaProperty("title", \.title), LuaProperty("isAvailable", \.isAvailable)]
///     }
/// }
/// try runtime.register(Book.self)
/// ```
///
/// Lua reads are tracked per property through Observation; a change made in
/// Swift, on any thread, re-renders the Lua views that read it.
public protocol LuaExposed: LuaClass, Observable {
    /// The properties Lua sees.
    static var luaProperties: [LuaProperty<Self>] { get }
    /// The methods Lua may call (none by default).
    static var luaMethods: [LuaMethod<Self>] { get }
}

/// A `LuaExposed` class that Lua may create: `ui.types.Book()`.
public protocol LuaConstructible: LuaExposed {
    init()
}

extension LuaExposed {
    /// No methods unless the class declares them.
    public static var luaMethods: [LuaMethod<Self>] { [] }

    /// This class as the runtime sees it.
    public static var hostType: HostType {
        HostType(name: luaName, swiftType: self, properties: luaProperties.map(\.property),
                 methods: luaMethods.map(\.method), make: maker, lifetime: luaLifetime)
    }

    static var maker: (() -> AnyObject)? {
        (self as? any LuaConstructible.Type).map { constructible in { constructible.init() } }
    }
}

extension LunetteRuntime {
    /// Makes an exposed Swift class visible to Lua as `ui.types.<luaName>`.
    public func register<T: LuaExposed>(_ type: T.Type) throws {
        try register(type.hostType)
    }
}
