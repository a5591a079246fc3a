import Lunette

/// One method of a `LuaExposed` class that Lua may call: `library:add(book)`.
///
/// Any method declares the same way, by its unapplied reference: from no
/// argument to eight (`register` refuses more), returning nothing or a
/// `LuaConvertible` value, throwing or not.
///
/// ```swift
/// static var luaMethods: [LuaMethod<Inbox>] {
///     [LuaMethod("archiveAll", Inbox.archiveAll),         // () -> Void
///      LuaMethod("count", Inbox.count),                   // (Folder) -> Int
///      LuaMethod("move", Inbox.move),                     // (Int, Folder) throws -> Void
///      LuaMethod("compose", Inbox.compose)]               // (String, String, Folder, Bool) -> Message
/// }
/// ```
///
/// Arguments and results convert as properties do (`LuaConvertible`). The
/// call fails in Lua, naming the type and the method (`Inbox:move: ...`),
/// when Lua passes the wrong number of arguments, an argument that does not
/// convert (naming its position and the type expected), or when the method
/// throws (with the error's description).
///
/// Thread: a method runs on the runtime's thread while Lua waits for it. It
/// may change models (their readers re-render at the next flush) but must
/// not call the runtime.
public struct LuaMethod<Root: AnyObject> {
    let method: HostType.Method

    /// A method that returns nothing: `(Root) -> (A, B, ...) throws -> Void`.
    public init<each Argument: LuaConvertible>(_ name: String,
                                               _ method: @escaping (Root) -> (repeat each Argument) throws -> Void) {
        let arity = Self.count(of: (repeat (each Argument).self))
        self.method = HostType.Method(name: name, arity: arity) { object, arguments in
            var reader = Arguments(arguments)
            try reader.expect(count: arity)
            let values = (repeat try reader.next((each Argument).self))
            try method(object as! Root)(repeat each values)
            return .none
        }
    }

    /// A method that returns a value Lua receives: `(Root) -> (A, B, ...) throws -> Result`.
    public init<each Argument: LuaConvertible, Result: LuaConvertible>(
        _ name: String, _ method: @escaping (Root) -> (repeat each Argument) throws -> Result
    ) {
        let arity = Self.count(of: (repeat (each Argument).self))
        self.method = HostType.Method(name: name, arity: arity) { object, arguments in
            var reader = Arguments(arguments)
            try reader.expect(count: arity)
            let values = (repeat try reader.next((each Argument).self))
            return try method(object as! Root)(repeat each values).luaValue
        }
    }

    private static func count<each T>(of types: (repeat (each T).Type)) -> Int {
        var count = 0
        for _ in repeat each types { count += 1 }
        return count
    }
}

/// Lua's arguments to a method, converted one at a time in order.
private struct Arguments {
    private let values: [LuaValue]
    private var position = 0

    init(_ values: [LuaValue]) { self.values = values }

    func expect(count: Int) throws {
        guard values.count == count else {
            throw LuaConversionError(expected: "\(count) argument\(count == 1 ? "" : "s")", got: "\(values.count)")
        }
    }

    mutating func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
        defer { position += 1 }
        do {
            return try T.fromLua(values[position])
        } catch let error as LuaConversionError {
            throw LuaConversionError(expected: "\(error.expected) as argument \(position + 1)", got: error.got)
        }
    }
}
