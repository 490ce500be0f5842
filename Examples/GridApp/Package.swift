// swift-tools-version: 6.2
import PackageDescription

// An app built on Containment as a user's would be: its own container (`grid`) and content (`tile`) kinds, its own
// host executable, a topology whose hosts the supervisor starts from that executable, and tests that run it.
let package = Package(
    name: "GridApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Containment", path: "../..")
    ],
    targets: [
        // The app's controller code: what its host runs.
        .target(
            name: "GridKit",
            dependencies: [
                .product(name: "ContainmentClient", package: "Containment"),
                .product(name: "ContainmentHost", package: "Containment"),
                .product(name: "ContainmentModel", package: "Containment"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]
        ),
        // The app's host process: `containment host` with the app's kinds registered.
        .executableTarget(
            name: "GridHost",
            dependencies: ["GridKit", .product(name: "ContainmentHost", package: "Containment")],
            swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "GridKitTests",
            dependencies: [
                "GridKit",
                .product(name: "ContainmentClient", package: "Containment"),
                .product(name: "ContainmentModel", package: "Containment"),
                .product(name: "ContainmentTestKit", package: "Containment"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]
        ),
    ]
)
