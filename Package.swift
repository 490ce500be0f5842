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
        // The same commands with etcd's gRPC client linked (gRPC, SwiftNIO, BoringSSL): what a runtime with
        // `journal: etcd` runs. Kept out of `containment`, so its first build compiles none of that.
        .executable(name: "containment-etcd", targets: ["containment-etcd"]),
        // The inspector and the metrics over HTTP: the only users of the HTTP stack (hummingbird, swift-nio), built
        // when asked (`swift build --product containment-web`, `scripts/up.sh --inspector`, a metricsPort).
        .executable(name: "containment-web", targets: ["ContainmentWeb"]),
        .library(name: "ContainmentModel", targets: ["ContainmentModel"]),
        // What an app's controller code and its own host executable need: behaviors, references, and the host's entry
        // point. Its public API holds model types only (scripts/check-public-api.sh).
        .library(name: "ContainmentHost", targets: ["ContainmentHost"]),
        // What a program that drives or watches a runtime needs: commands and the tree, in model types.
        .library(name: "ContainmentClient", targets: ["ContainmentClient"]),
        // Runs an app's own hosts under a supervisor inside a test, and tears them down.
        .library(name: "ContainmentTestKit", targets: ["ContainmentTestKit"]),
        .library(name: "ContainmentWorkload", targets: ["ContainmentWorkload"]),
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The supervisor's metrics (swift-metrics, the API its code records with), kept as Prometheus text
        // (swift-prometheus) with `metricsPort`, served over HTTP by containment-web (hummingbird).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The replicated journal's store (journal: etcd): etcd's gRPC API, in ContainmentEtcd only, which the
        // `containment-etcd` executable links (docs/DURABILITY.md says why gRPC and not etcd's JSON gateway).
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        // Tracing (docs/PROTOCOL.md, "Tracing"): W3C trace context's ids and `traceparent` (swift-w3c-trace-context),
        // and the instrument an app bootstraps, whose trace a client continues (swift-distributed-tracing).
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-service-context", from: "1.5.1"),
        // `containment bench` only: latency percentiles.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The simulator's queue of what happens next (HeapModule; already built for swift-nio).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Tests only: runs the daemons, scripts and clients as real processes.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // `swift package generate-documentation`: the DocC catalogs of the library products (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // An incremental Cassowary solver (linear constraints, required or by priority, edit variables): imports nothing.
        // Layout by constraints (SPEC §16) solves with it; tested against kiwisolver (scripts/test-solver-oracle.sh).
        .target(name: "Cassowary", swiftSettings: strict),
        // Reads a script of solver operations and prints the values after each: the Swift side of the comparison with
        // kiwisolver (scripts/solver-oracle.py).
        .executableTarget(
            name: "cassowary-script",
            dependencies: ["Cassowary"],
            path: "Sources/CassowaryScript",
            swiftSettings: strict
        ),

        // The pure rules of SPEC.md: value types, no I/O, no clocks.
        .target(name: "ContainmentModel", dependencies: ["Cassowary"], swiftSettings: strict),

        // Seeded random commands over pools of ids, and checks of an event history that do not trust the model's code:
        // shared by the model's randomized tests, `containment stress` and `containment bench`.
        .target(name: "ContainmentWorkload", dependencies: ["ContainmentModel"], swiftSettings: strict),

        // libzmq, found through pkg-config. Only the ZeroMQ target imports it.
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // The safe Swift wrapper over libzmq: the only code that touches C pointers.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: strict),

        // A traced command's spans (docs/PROTOCOL.md, "Tracing"): their values, the ring a process keeps them in, the
        // context a client starts or continues, and the waterfall `containment trace` prints.
        .target(
            name: "ContainmentTracing",
            dependencies: [
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
            ],
            swiftSettings: strict
        ),

        // The wire protocol (proto/containment.proto, generated code committed), its codec, topics, the read model of
        // the tree that snapshots and events build, and the client side of the command socket.
        .target(
            name: "ContainmentBus",
            dependencies: [
                "ContainmentModel",
                "ContainmentTracing",
                "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
        // What every process of a runtime reads: runtime.yaml, topologies, the log format, the thread helpers. The host
        // and client products link this, not the supervisor's ContainmentRuntime.
        .target(
            name: "ContainmentConfig",
            dependencies: [
                "ContainmentBus",
                "ContainmentModel",
                "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        // The supervisor: its core, loop and service, the journal (local and in etcd, over the `EtcdStore` protocol),
        // the hosts it starts, systemd units, its benchmarks.
        .target(
            name: "ContainmentRuntime",
            dependencies: [
                "ContainmentBus",
                "ContainmentConfig",
                "ContainmentModel",
                "ContainmentTracing",
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                "ZeroMQ",
                // The answers kept for resends, oldest first (ClientReplies).
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),

        // etcd's v3 API over gRPC (proto/etcd/, trimmed from etcd's own; generated code committed): the runtime's
        // `EtcdStore`, given to the supervisor by the `containment` executable.
        .target(
            name: "ContainmentEtcd",
            dependencies: [
                "ContainmentConfig",
                "ContainmentRuntime",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strict
        ),

        // The host side: controller behaviors and their actors, the host's socket loop and its entry point
        // (`containment host`, and an app's own host executable through `HostApp`).
        .target(
            name: "ContainmentHost",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentConfig",
                "ContainmentModel",
                "ContainmentTracing",
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // The client side: commands to the supervisor and the tree, in model types.
        .target(
            name: "ContainmentClient",
            dependencies: [
                "ContainmentBus", "ContainmentConfig", "ContainmentModel", "ContainmentTracing", "ZeroMQ",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // A runtime inside a test: the supervisor in the test's process, the topology's hosts as real processes.
        .target(
            name: "ContainmentTestKit",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentHost",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentRuntime",
                "ContainmentWorkload",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // Untrusted bytes into every decoder (scripts/fuzz.sh): libFuzzer's entry point when built with
        // `-DFUZZING -sanitize=fuzzer`; otherwise a replayer of the seed corpus (Fuzz/corpus), which the tests run.
        .executableTarget(
            name: "ContainmentFuzz",
            dependencies: ["ContainmentBus", "ContainmentConfig", "ContainmentModel", "ContainmentRuntime"],
            swiftSettings: strict
        ),

        // `stress` and `bench`'s machinery: a runtime of child processes, concurrent clients, subscribers, and the
        // checks of a run against the model.
        .target(
            name: "ContainmentLoad",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentRuntime",
                "ContainmentWorkload",
                "ZeroMQ",
            ],
            swiftSettings: strict
        ),

        // `simulate`: the whole runtime in one thread under a seeded scheduler of faults — the real supervisor and host
        // cores on a simulated network, disk and clock, checked as `stress` checks a run (docs/SIMULATION.md).
        .target(
            name: "ContainmentSimulation",
            dependencies: [
                "ContainmentBus",
                "ContainmentHost",
                "ContainmentLoad",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentRuntime",
                "ContainmentWorkload",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // `bench`'s drivers and report: the figures of docs/BENCH.md, measured (the executable parses its options).
        .target(
            name: "ContainmentBench",
            dependencies: [
                "Cassowary",
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentHost",
                "ContainmentLoad",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentRuntime",
                "ContainmentWorkload",
                "ZeroMQ",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),

        // `ctl`'s grammar: each verb's arguments and the model requests it stands for, batch files, and the submission
        // of a transaction; the command line's connection and exit statuses. A library so its verbs are tested without
        // a process (CtlGrammarTests).
        .target(
            name: "ContainmentCtl",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentHost",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentTracing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Every subcommand of `containment`: the daemons, the clients, stress, bench, simulate. A library so that two
        // executables share it; the etcd journal's client is handed in by `containment-etcd` (`EtcdSupport`).
        .target(
            name: "ContainmentCommands",
            dependencies: [
                "ContainmentBench",
                "ContainmentCtl",
                "ContainmentModel",
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentConfig",
                "ContainmentHost",
                "ContainmentLoad",
                "ContainmentRuntime",
                "ContainmentSimulation",
                "ContainmentWorkload",
                "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict,
            plugins: ["VersionStamp"]
        ),
        // `containment`: the commands without etcd's client, so its first build compiles no gRPC or SwiftNIO.
        .executableTarget(
            name: "containment",
            dependencies: ["ContainmentCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // `containment-etcd`: the same commands with the etcd journal's gRPC client (ContainmentEtcd).
        .executableTarget(
            name: "containment-etcd",
            dependencies: ["ContainmentCommands", "ContainmentEtcd", "ContainmentRuntime"],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "ContainmentWeb",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentHost",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentTracing",
                "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict,
            plugins: ["VersionStamp"]
        ),

        // `containment --version`: the git commit the binary is built from.
        .plugin(name: "VersionStamp", capability: .buildTool()),

        // What every test target shares: the CPU lane of CPU-bound tests (Tests/Support/CPULane.swift).
        .target(
            name: "ContainmentTestSupport",
            dependencies: [
                "ContainmentConfig", "ContainmentRuntime",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
            ],
            path: "Tests/Support",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CassowaryTests",
            dependencies: ["Cassowary", "ContainmentTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContainmentModelTests",
            dependencies: ["ContainmentModel", "ContainmentTestSupport", "ContainmentWorkload"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContainmentLoadTests",
            dependencies: [
                "ContainmentBus", "ContainmentConfig", "ContainmentLoad", "ContainmentModel", "ContainmentRuntime",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: strict),
        .testTarget(
            name: "ContainmentSimulationTests",
            dependencies: ["ContainmentSimulation", "ContainmentTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContainmentBusTests",
            dependencies: [
                "ContainmentBus", "ContainmentModel", "ContainmentTestSupport", "ContainmentTracing",
                "ContainmentWorkload", "ZeroMQ",
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContainmentCtlTests",
            dependencies: ["ContainmentBus", "ContainmentCtl", "ContainmentModel"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "ContainmentBus",
                "ContainmentClient",
                "ContainmentEtcd",
                "ContainmentTestKit",
                "ContainmentHost",
                "ContainmentModel",
                "ContainmentConfig",
                "ContainmentRuntime",
                "ContainmentTestSupport",
                "ContainmentTracing",
                "ContainmentWorkload",
                "ZeroMQ",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
    ]
)
