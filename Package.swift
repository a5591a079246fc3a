// swift-tools-version:6.0
import PackageDescription

// Lua is linked into executables and tests, never into the loadable module:
// the stock lua5.4 interpreter exports its own Lua, and a second copy in
// lunette.so would split the state's globals (ARCHITECTURE.md). A host
// linking the `Lunette` product gets Lua through `LunetteLinksLua`, which
// the loadable module's targets never depend on.
let linkLua: [LinkerSetting] = [.linkedLibrary("lua5.4")]

let package = Package(
    name: "Lunette",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lunette", targets: ["LunetteCLI"]),
        .executable(name: "lunette-fuzz", targets: ["LunetteFuzz"]),
        .executable(name: "lunette-reliability", targets: ["LunetteReliability"]),
        // What a Swift host depends on: the runtime, the bridge, and Lua linked in.
        .library(name: "Lunette", targets: ["Lunette", "LunetteBridge", "LunetteLinksLua"]),
        // The live preview and inspector in a browser: a host links it only if it wants it.
        .library(name: "LunettePreview", targets: ["LunettePreview"]),
        // App storage in a SQLite file: a host links it to make `appStorage` last.
        .library(name: "LunetteStorage", targets: ["LunetteStorage"]),
        // 6. The loadable module for the stock lua5.4 interpreter (and busted):
        //    libLunetteLua.so, installed as lunette.so on LUA_CPATH.
        .library(name: "LunetteLua", type: .dynamic, targets: ["LuaModule", "LuaModuleHost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // HTTP and WebSocket for the preview only (see README, "Previewing").
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // SQLite for app storage only (see README, "App storage").
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // 1. Lua 5.4's headers (Debian's liblua5.4-dev), no link.
        .systemLibrary(name: "CLua", path: "Sources/CLua"),
        // Line editing for the REPL (Debian's libedit-dev).
        .systemLibrary(name: "CEditLine", path: "Sources/CEditLine"),
        // 2. The C module: luaopen_lunette, every Lua-facing metatable. Its
        //    files live in rooms (core, model, life, view, drive), each with
        //    one header a file includes as "room/room.h".
        .target(name: "CLunette", dependencies: ["CLua"], cSettings: [.headerSearchPath(".")]),
        // 3. The Swift runtime: graph, units, scheduler, trees, embedding API.
        .target(name: "Lunette", dependencies: ["CLunette", "CLua"], resources: [.embedInCode("Lua/prelude.lua"), .embedInCode("Lua/snapshots.lua")]),
        // 4. Swift @Observable classes exposed to Lua by key paths.
        .target(name: "LunetteBridge", dependencies: ["Lunette"]),
        // The `Lunette` product's link to liblua5.4 (nothing else): a host adds
        // the product and builds, with no linker settings of its own.
        .target(name: "LunetteLinksLua", dependencies: ["Lunette", "LunetteBridge"], linkerSettings: linkLua),
        // 7. `lunette preview` and `runtime.servePreview(port:)`: the page, its
        //    server (FlyingFox, out of the core runtime), the session on the runtime's thread.
        .target(name: "LunettePreview",
                dependencies: ["Lunette", .product(name: "FlyingFox", package: "FlyingFox")],
                resources: [.embedInCode("Resources/preview.html")]),
        // 8. `appStorage` kept in SQLite (GRDB, out of the core runtime): one
        //    row per key, safe for several processes sharing a file.
        .target(name: "LunetteStorage",
                dependencies: ["Lunette", .product(name: "GRDB", package: "GRDB.swift")]),
        // 6. require("lunette") in the stock interpreter: luaopen_lunette (C)
        //    starts a runtime that adopts the interpreter's state (Swift).
        //    -z nodelete: lua_close unloads C modules, the Swift runtime cannot be.
        .target(name: "LuaModule", dependencies: ["CLunette", "CLua"],
                linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]),
        .target(name: "LuaModuleHost", dependencies: ["Lunette", "BookModels", "CLua"]),
        // The seeds' models: Library, Book, Author.
        .target(name: "BookModels", dependencies: ["LunetteBridge"]),
        // 5. The command line: run, test.
        .executableTarget(
            name: "LunetteCLI",
            dependencies: ["Lunette", "LunetteBridge", "LunettePreview", "LunetteStorage", "BookModels", "CEditLine",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            resources: [.embedInCode("Lua/spec_runner.lua")],
            linkerSettings: linkLua),
        // Generated scripts against the whole API (scripts/fuzz, and a short
        // fixed-seed run in scripts/test).
        .executableTarget(
            name: "LunetteFuzz",
            dependencies: ["Lunette", "BookModels"],
            linkerSettings: linkLua),
        // TARGETS.md's reliability figures, measured (scripts/reliability).
        .executableTarget(
            name: "LunetteReliability",
            dependencies: ["Lunette", "LunetteStorage"],
            linkerSettings: linkLua),
        .testTarget(
            name: "LunetteTests",
            dependencies: ["Lunette", "LunetteBridge", "LunetteStorage", "BookModels"],
            linkerSettings: linkLua),
    ],
    swiftLanguageModes: [.v5]
)
