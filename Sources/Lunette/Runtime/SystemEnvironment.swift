import CLunette

extension LunetteRuntime {
    /// Sets a value the system gives every view, as SwiftUI does from the
    /// device's settings and the scene's state: `colorScheme` ("light",
    /// "dark"), `locale` ("fr_FR") or `scenePhase` ("active", "inactive",
    /// "background"). The views that read it render again (this flushes);
    /// an `:environment(key, value)` above a view still wins for it. A
    /// value the key cannot hold is an error naming it, as `:environment`
    /// gives; so is any other key. Issue 19: "SwiftUI automatically sets
    /// or updates many environment values, like pixelLength, scenePhase,
    /// or locale" (https://developer.apple.com/documentation/swiftui/environmentvalues).
    public func setEnvironment(_ key: String, to value: String) throws {
        let status = value.withCString { lun_env_system_set(L, key, $0, value.utf8.count) }
        guard status == LUN_OK else { throw LunetteError.script(lastError) }
        flush()
    }
}
