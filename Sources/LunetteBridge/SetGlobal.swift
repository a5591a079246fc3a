import Lunette

extension LunetteRuntime {
    /// Sets the Lua global `name` to a copy of a Swift value: a `String`, an
    /// `Int`, a `Double`, a `Bool`, a `Date` (seconds), an enum with a raw
    /// value, an `Optional`, arrays and `[String: V]` dictionaries of them, a
    /// `LuaCodable` struct, or an exposed object (shared, not copied).
    ///
    /// ```swift
    /// try runtime.setGlobal("appName", to: "Inbox")
    /// try runtime.setGlobal("folders", to: [Folder.inbox, .archive])
    /// try runtime.setGlobal("limits", to: ["unread": 50])
    /// ```
    ///
    /// Thread: the runtime's. Throws `LunetteError.setup` for an object of a
    /// type not registered or a value nested more than 100 levels deep.
    public func setGlobal<Value: LuaConvertible>(_ name: String, to value: Value) throws {
        try setGlobal(name, to: value.luaValue)
    }
}
