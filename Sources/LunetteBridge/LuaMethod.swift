import Lunette

/// One method of a `LuaExposed` class that Lua may call: `library:add(book)`.
/// Arguments and results convert as properties do (`LuaConvertible`); a
/// wrong argument fails the call naming it and the type expected.
///
/// ```swift
/// static var luaMethods: [LuaMethod<Library>] {
///     [LuaMethod("add", Library.add), LuaMethod("count", Library.count)]
/// }
/// ```
///
/// A method runs while Lua waits for it: it may change models (their
/// readers re-render at the next flush) but must not call the runtime.
public struct LuaMethod<Root: AnyObject> {
    let method: HostType.Method

    /// A method with no arguments and no result.
    public init(_ name: String, _ fn: @escaping (Root) -> () -> Void) {
        method = HostType.Method(name: name) { object, arguments in
            try Self.check(arguments, count: 0, name)
            fn(object as! Root)()
            return .none
        }
    }

    /// A method with no arguments that returns a value.
    public init<R: LuaConvertible>(_ name: String, _ fn: @escaping (Root) -> () -> R) {
        method = HostType.Method(name: name) { object, arguments in
            try Self.check(arguments, count: 0, name)
            return fn(object as! Root)().luaValue
        }
    }

    /// A method with one argument and no result.
    public init<A: LuaConvertible>(_ name: String, _ fn: @escaping (Root) -> (A) -> Void) {
        method = HostType.Method(name: name) { object, arguments in
            try Self.check(arguments, count: 1, name)
            fn(object as! Root)(try Self.argument(A.self, arguments[0], 1, name))
            return .none
        }
    }

    /// A method with one argument that returns a value.
    public init<A: LuaConvertible, R: LuaConvertible>(_ name: String, _ fn: @escaping (Root) -> (A) -> R) {
        method = HostType.Method(name: name) { object, arguments in
            try Self.check(arguments, count: 1, name)
            return fn(object as! Root)(try Self.argument(A.self, arguments[0], 1, name)).luaValue
        }
    }

    /// A method with two arguments that returns a value.
    public init<A: LuaConvertible, B: LuaConvertible, R: LuaConvertible>(_ name: String,
                                                                         _ fn: @escaping (Root) -> (A, B) -> R) {
        method = HostType.Method(name: name) { object, arguments in
            try Self.check(arguments, count: 2, name)
            return fn(object as! Root)(try Self.argument(A.self, arguments[0], 1, name),
                                       try Self.argument(B.self, arguments[1], 2, name)).luaValue
        }
    }

    private static func check(_ arguments: [LuaValue], count: Int, _ name: String) throws {
        guard arguments.count == count else {
            throw LuaConversionError(expected: "\(count) argument\(count == 1 ? "" : "s")", got: "\(arguments.count)")
        }
    }

    private static func argument<T: LuaConvertible>(_ type: T.Type, _ value: LuaValue, _ position: Int,
                                                    _ name: String) throws -> T {
        do {
            return try T.fromLua(value)
        } catch let error as LuaConversionError {
            throw LuaConversionError(expected: "\(error.expected) as argument \(position)", got: error.got)
        }
    }
}
