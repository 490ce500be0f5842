import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Testing

/// `Config/runtime.yaml`: every key read, every value out of range refused with the key named.
@Suite struct RuntimeConfigTests {
    static func load(_ yaml: String) throws -> RuntimeConfig {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runtime-\(UUID().uuidString.prefix(8)).yaml"
        ).path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try RuntimeConfig.load(from: path, environment: ["CONTAINMENT_RUN_DIR": "/tmp/run-config-test"])
    }

    @Test func theDurabilityKeysAreRead() throws {
        let config = try Self.load(
            "journal: \"{run}/j\"\njournalSync: interval\njournalSyncIntervalMs: 20\njournalSegmentBytes: 8192\n"
                + "checkpointEvery: 0\njournalRetain: 5\ndedupWindow: 3\ndedupClients: 9\n"
        )
        #expect(config.journalPath == "/tmp/run-config-test/j")
        #expect(config.journalSync == .interval && config.journalSyncInterval == .milliseconds(20))
        #expect(config.journalSegmentBytes == 8192 && config.checkpointEvery == 0 && config.journalRetain == 5)
        #expect(config.dedupWindow == 3 && config.dedupClients == 9)
        #expect(try Self.load("animationDurationMs: 120\n").animationDuration == .milliseconds(120))
        #expect(try Self.load("").animationDuration == .milliseconds(350))
    }

    /// Found by scripts/fuzz.sh: a mapping key that is itself a collection trapped inside Yams's `load`.
    @Test func aCollectionAsAKeyDoesNotCrashTheReader() throws {
        let config = try Self.load("{n}: 10\n[a]: 2\n")
        #expect(config.maxBatch == 1_000)
    }

    @Test func aTCPEndpointIsBoundOnlyWhenInsecureIsSaid() throws {
        let open = try Self.load("command: tcp://127.0.0.1:5599\n")
        #expect(open.insecure == false)
        #expect {
            try open.checkBindable()
        } throws: { error in
            "\(error)".hasPrefix("tcp://127.0.0.1:5599 would be open to anyone who reaches it, without CURVE")
        }
        try Self.load("command: tcp://127.0.0.1:5599\ninsecure: true\n").checkBindable()
        try Self.load("maxBatch: 5\n").checkBindable()
    }

    @Test func theHostKeysAreRead() throws {
        let config = try Self.load(
            "hostRestart: transient\nmaxRestarts: 2\nrestartWindowMs: 700\nmailboxCapacity: 8\npendingDeliveries: 3\n"
        )
        #expect(config.hostRestart == .transient && config.maxRestarts == 2)
        #expect(config.restartWindow == .milliseconds(700))
        #expect(config.mailboxCapacity == 8 && config.pendingDeliveries == 3)
    }

    /// Every numeric setting is range-checked against what it feeds: a socket option (a 32-bit millisecond count), a
    /// timer, memory. (Found by a probe: `requestTimeoutMs: 9223372036854775807` made every client fail with EINVAL
    /// from zmq_setsockopt; `heartbeatTimeoutMs: 1` made hosts flap.)
    @Test(arguments: [
        ("heartbeatIntervalMs: 0", "heartbeatIntervalMs must be a whole number from 10 to 60000 (a minute), not 0."),
        ("requestTimeoutMs: -5", "requestTimeoutMs must be a whole number from 1 to 3600000 (an hour), not -5."),
        (
            "requestTimeoutMs: 9223372036854775807",
            "requestTimeoutMs must be a whole number from 1 to 3600000 (an hour), not 9223372036854775807."
        ),
        (
            "heartbeatTimeoutMs: 1",
            "heartbeatTimeoutMs (1) must be at least twice heartbeatIntervalMs (500): a live host would be declared "
                + "down between two of its heartbeats."
        ),
        (
            "heartbeatIntervalMs: 2000",
            "heartbeatTimeoutMs (2000) must be at least twice heartbeatIntervalMs (2000): a live host would be "
                + "declared down between two of its heartbeats."
        ),
        ("checkpointEvery: -1", "checkpointEvery must be a whole number from 0 to 100000000 (0: never), not -1."),
        (
            "journalSegmentBytes: 100",
            "journalSegmentBytes must be a whole number from 4096 to 4294967296 (4 GiB), not 100."
        ),
        ("journalSync: always", "journalSync must be batch, interval or none, not always."),
        ("pendingDeliveries: 0", "pendingDeliveries must be a whole number from 1 to 10000000, not 0."),
        (
            "maxMessageBytes: 1073741824",
            "maxMessageBytes must be a whole number from 1024 to 67108864 (64 MiB), not 1073741824."
        ),
        ("subscriberQueue: 0", "subscriberQueue must be a whole number from 1 to 1000000, not 0."),
        ("maxSubscribers: 100000", "maxSubscribers must be a whole number from 1 to 10000, not 100000."),
        ("maxRestarts: 99999999", "maxRestarts must be a whole number from 0 to 10000, not 99999999."),
        // Past 64 bits, a fraction, a word: the same message, not a decoder's type mismatch (issue 42).
        (
            "maxBatch: 99999999999999999999999",
            "maxBatch must be a whole number from 1 to 100000, not 99999999999999999999999."
        ),
        ("maxBatch: 2.5", "maxBatch must be a whole number from 1 to 100000, not 2.5."),
        ("dedupWindow: lots", "dedupWindow must be a whole number from 1 to 65536, not lots."),
        ("metricsPort: 1e9", "metricsPort must be a TCP port (1 to 65535), or 0 for none, not 1e9."),
        (
            "otlpEndpoint: collector:4318",
            "otlpEndpoint must be an http:// or https:// URL, or \"\" for none, not collector:4318."
        ),
    ])
    func aValueOutOfRangeIsRefusedNamingItsKey(yaml: String, message: String) {
        #expect {
            try Self.load(yaml + "\n")
        } throws: { error in
            "\(error)".hasSuffix(message)
        }
    }
}

/// A topology's `hosts`: names, or entries with a restart policy of their own, or remote hosts the supervisor does not
/// start.
@Suite struct TopologyHostTests {
    static let controllers =
        "controllers:\n  - {id: a, kind: content, host: h0}\n  - {id: b, kind: content, host: h3}\n"

    @Test func aHostEntrySetsItsOwnPolicyOverRuntimeYAMLs() throws {
        let topology = try Topology.parse(
            """
            hosts:
              - h0
              - {name: h1, restart: temporary}
              - {name: h2, maxRestarts: 9, restartWindowMs: 1500}
              - {name: remote-1, remote: true}

            """ + Self.controllers
        )
        #expect(topology.hosts == ["h0", "h1", "h2", "remote-1", "h3"])
        #expect(topology.localHosts == ["h0", "h1", "h2", "h3"])
        var config = RuntimeConfig(runDirectory: "/tmp/x")
        config.hostRestart = .transient
        config.maxRestarts = 4
        let h0 = topology.restartPolicy(of: "h0", config: config)
        #expect(h0.mode == .transient && h0.maxRestarts == 4 && h0.window == config.restartWindow)
        let h1 = topology.restartPolicy(of: "h1", config: config)
        #expect(h1.mode == .temporary && h1.maxRestarts == 4)
        let h2 = topology.restartPolicy(of: "h2", config: config)
        #expect(h2.mode == .transient && h2.maxRestarts == 9 && h2.window == .milliseconds(1500))
    }

    /// SPEC §11–§13's properties have their topology keys.
    @Test func aControllerEntrySetsItsItemsDelegateAndOrientations() throws {
        let topology = try Topology.parse(
            """
            controllers:
              - {id: list, kind: content, host: h0, title: List, navigationItem: All, backTitle: Back, leftItems: [edit],
                 rightItems: [add, share], tabItem: Recipes, badge: "3", toolbarItems: [sort], delegate: app,
                 handles: [tap, done], orientations: [portrait, landscapeLeft], preferredContentSize: [300, 400]}
            """
        )
        let properties = try #require(topology.controllers.first?.properties)
        #expect(properties.title == "List")
        #expect(
            properties.navigationItem
                == NavigationItem(title: "All", backTitle: "Back", leftItems: ["edit"], rightItems: ["add", "share"])
        )
        #expect(properties.tabItem == TabItem(title: "Recipes", badge: "3"))
        #expect(
            properties.toolbarItems == ["sort"] && properties.delegate == "app"
                && properties.handles == ["tap", "done"]
        )
        #expect(properties.supportedOrientations == [.portrait, .landscapeLeft])
        #expect(properties.preferredContentSize == Size(width: 300, height: 400))
        #expect {
            try Topology.parse("controllers: [{id: a, host: h, orientations: [sideways]}]")
        } throws: { error in
            "\(error)"
                == "controller a: Unknown orientation \"sideways\"; one of portrait, portraitUpsideDown, landscapeLeft, landscapeRight."
        }
    }

    /// A custom container is handed its children not asked to embed, all at once, in file order, where the first
    /// stands (its code's `setViewControllers`); one asked to embed is embedded for it; a content container's child is
    /// added, as before.
    @Test func aCustomContainersChildrenAreHandedToItsCode() throws {
        let topology = try Topology.parse(
            """
            controllers:
              - {id: ring, kind: carousel, host: h}
              - {id: a, host: h, parent: ring}
              - {id: x, host: h, parent: ring, embed: [0, 0, 10, 10]}
              - {id: b, host: h, parent: ring}
              - {id: plain, host: h}
              - {id: c, host: h, parent: plain}
            """
        )
        let structure = topology.requests().map(\.request).filter { request in
            if case .create = request.command { false } else { true }
        }
        #expect(
            structure == [
                .system(ChildAssignment.command("ring", ["a", "b"])),
                .by("ring", .addChild("x", to: "ring")),
                .by("ring", .setFrame(.root("x"), Rect(x: 0, y: 0, width: 10, height: 10))),
                .by("ring", .addSubview(.root("x"), to: .root("ring"))),
                .by("ring", .didMove("x", toParent: "ring")),
                .by("plain", .addChild("c", to: "plain")),
            ]
        )
        // The model takes it before any host registered (every kind answers the verb): a's code is told nothing, a
        // has no parent until ring's code embeds it.
        var state = ContainmentState()
        var events: [Event] = []
        for (request, _) in topology.requests() { events += try state.apply(batch: [request]) }
        #expect(events.contains(.verbInvoked("ring", verb: "setViewControllers", arguments: ["a", "b"], by: .system)))
        #expect(state.controllers["a"]?.parent == nil && state.controllers["x"]?.parent == "ring")
    }

    /// `embed: true` fills the parent (the window's size under its root, then each embedded parent's); a frame given
    /// is kept as given, `[0, 0, 0, 0]` included (it stood for "fill the parent" before, so an empty view got the
    /// window's size).
    @Test func anEmbedFrameIsKeptAsGivenEvenEmptyAndTrueFillsTheParent() throws {
        let topology = try Topology.parse(
            """
            window: {name: main, width: 320, height: 480, root: shell}
            controllers:
              - {id: shell, host: h}
              - {id: full, host: h, parent: shell, embed: true}
              - {id: inner, host: h, parent: full, embed: true}
              - {id: empty, host: h, parent: shell, embed: [0, 0, 0, 0]}
            """
        )
        #expect(topology.controllers.map(\.embedding) == [nil, .fillingParent, .fillingParent, .frame(.zero)])
        let frames = topology.requests().compactMap { request -> [String: Rect]? in
            guard case .setFrame(let view, let frame) = request.request.command else { return nil }
            return [view.owner.rawValue: frame]
        }
        #expect(
            frames == [
                ["full": Rect(x: 0, y: 0, width: 320, height: 480)],
                ["inner": Rect(x: 0, y: 0, width: 320, height: 480)],
                ["empty": .zero],
            ]
        )
    }

    /// A host's program: a relative path is the topology file's directory's, an absolute one stays; its arguments
    /// follow it unchanged.
    @Test func aHostsCommandIsResolvedAgainstTheTopologysDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("topology-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("config"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config/app.yaml")
        try """
        hosts: [{name: h0, command: [../.build/debug/AppHost, --verbose]}, {name: h3, command: [/usr/bin/env]}]
        """.appending("\n" + Self.controllers).write(to: file, atomically: true, encoding: .utf8)
        let topology = try Topology.load(path: file.path)
        #expect(topology.hostSettings["h0"]?.command == [directory.path + "/.build/debug/AppHost", "--verbose"])
        #expect(topology.hostSettings["h3"]?.command == ["/usr/bin/env"])
        #expect(topology.localHosts == ["h0", "h3"])
    }

    @Test(arguments: [
        (
            "[{name: h1, restart: sometimes}]",
            "host h1: restart must be permanent, transient or temporary, not sometimes"
        ),
        ("[{name: h1, maxRestarts: -1}]", "host h1: maxRestarts must be from 0 to 10000"),
        ("[{name: h1, restartWindowMs: 0}]", "host h1: restartWindowMs must be from 1 to 86400000 (a day)"),
        ("[h1, {name: h1, remote: true}]", "host h1 appears twice in hosts"),
        ("[{name: h1, command: []}]", "host h1: command names the program first ([path, arguments…])"),
        ("[{name: h1, command: [\"\"]}]", "host h1: command names the program first ([path, arguments…])"),
        (
            "[{name: h1, remote: true, command: [./app]}]",
            "host h1: a remote host is started elsewhere, so it has no command"
        ),
    ])
    func aBadHostEntryIsRefused(hosts: String, message: String) {
        #expect {
            try Topology.parse("hosts: \(hosts)\n" + Self.controllers)
        } throws: { error in
            "\(error)" == message
        }
    }
}
