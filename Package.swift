// swift-tools-version: 6.2
import PackageDescription

/// Every target of the project is built in Swift 6 language mode with all warnings treated as errors.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Containment",
    products: [
        .executable(name: "containment", targets: ["containment"]),
        .library(name: "ContainmentModel", targets: ["ContainmentModel"]),
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // The pure rules of SPEC.md: value types, no I/O, no clocks.
        .target(name: "ContainmentModel", swiftSettings: strict),

        // libzmq, found through pkg-config. Only the ZeroMQ target imports it.
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // The safe Swift wrapper over libzmq: the only code that touches C pointers.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: strict),

        // The wire protocol and socket roles (grows in the runtime issue).
        .target(name: "ContainmentBus", dependencies: ["ContainmentModel", "ZeroMQ"], swiftSettings: strict),
        // Supervisor, hosts and controller actors (grows in the runtime issue).
        .target(
            name: "ContainmentRuntime",
            dependencies: ["ContainmentBus", "ContainmentModel"],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "containment",
            dependencies: [
                "ContainmentModel",
                "ContainmentRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "ContainmentModelTests", dependencies: ["ContainmentModel"], swiftSettings: strict),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: strict),
    ]
)
