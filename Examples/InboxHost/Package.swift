// swift-tools-version:6.0
import PackageDescription

// A Swift program that runs its users' view scripts over its own models.
// It depends on Lunette by path; a host elsewhere uses
// .package(url: "<where Lunette lives>", branch: "main").
let package = Package(
    name: "InboxHost",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Lunette", path: "../..")],
    targets: [
        .executableTarget(
            name: "InboxHost",
            dependencies: [
                .product(name: "Lunette", package: "Lunette"),          // the runtime and the bridge, Lua linked in
                .product(name: "LunetteStorage", package: "Lunette"),   // app storage in SQLite (optional)
            ]),
    ],
    swiftLanguageModes: [.v6]
)
