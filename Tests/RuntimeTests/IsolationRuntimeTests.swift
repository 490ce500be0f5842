import ContainmentBus
import ContainmentModel
import Foundation
import Testing
import ZeroMQ

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The attacks of issue 11 that need no keys, against real processes: an impostor Hello, oversized input, garbage.
@Suite(.serialized) struct IsolationRuntimeTests {
    static let topology = """
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: late, kind: content, host: h1}
        """

    @Test func anImpostorHelloIsRefusedAndTheRealActorKeepsItsCallbacks() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let realPID = HostSupervisionTests.hostPID("h1", in: runtime)
            let (context, impostor) = try runtime.rawDealer()
            let refused = try impostor.exchange(.hello("h1"))
            #expect(refused?.error.code == "unauthorized", "\(String(describing: refused))")
            #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,50,50", "--quiet").status == 0)
            let callbacks = try await runtime.callbacks(of: "late") { $0.count >= 4 }
            #expect(
                callbacks == [
                    "loadView(late)", "viewDidLoad(late)", "viewWillLayoutSubviews(late)",
                    "viewDidLayoutSubviews(late)",
                ]
            )
            // The impostor got none of them, and the registration never flapped.
            #expect(try impostor.receive(dontWait: true) == nil)
            let state = try await HostSupervisionTests.hostState("h1", in: runtime)
            #expect(state?.up == true && state?.pid == realPID.map(Int.init))
            #expect(!runtime.logs().contains("host restarted"), "\(runtime.logs())")
            // The sockets are the owner's only.
            for socket in ["command.sock", "events.sock"] {
                let mode = try FileManager.default.attributesOfItem(atPath: runtime.runDirectory + "/" + socket)[
                    .posixPermissions
                ]
                #expect((mode as? Int).map { $0 & 0o777 } == 0o600, "\(socket): \(String(describing: mode))")
            }
            impostor.close()
            context.terminate()
        }
    }

    @Test func oversizedInputAndGarbageAreRefusedAndTheSupervisorServesOn() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let (context, client) = try runtime.rawDealer()
            try client.set(.receiveTimeout, to: .seconds(2))
            // A 100 KB id: refused, naming the limit, without the id.
            let huge = String(repeating: "x", count: 100_000)
            let create = WireCommand(.system(.create(ControllerID(huge), kind: .content)))
            let refused = try client.exchange(
                .with {
                    $0.requestID = 1
                    $0.commands = .with { $0.commands = [create] }
                }
            )
            #expect(refused?.error.code == "limitExceeded" && refused?.error.message.contains("maxTextBytes") == true)
            #expect((refused?.error.message.count ?? .max) < 200)
            // 2,000 commands in one request: refused whole.
            let many = (0..<2_000).map { WireCommand(.system(.create(ControllerID("m\($0)"), kind: .content))) }
            let batch = try client.exchange(
                .with {
                    $0.requestID = 2
                    $0.commands = .with { $0.commands = many }
                }
            )
            #expect(batch?.error.code == "limitExceeded" && batch?.error.message.contains("maxBatch") == true)
            // 10,000 garbage messages: each answered malformed, logged a few times, not 10,000.
            var malformed = 0
            func garbage(_ count: Int) throws {
                for index in 0..<count { _ = try client.send([[0xFF, 0xFF, UInt8(index & 0xFF)]]) }
                for _ in 0..<count {
                    guard let reply = try client.receiveServerMessage() else { break }
                    if reply.error.code == "malformed" { malformed += 1 }
                }
            }
            let start = ContinuousClock.now
            for _ in 0..<20 { try garbage(500) }
            #expect(malformed == 10_000)
            // Time under test: one more after the log's one-second window, whose line counts those held back.
            try await Task.sleep(for: .milliseconds(1_100))
            try garbage(1)
            // The log keeps a line a second at most: however long a loaded machine took to send them.
            let seconds = Int((ContinuousClock.now - start).components.seconds)
            // A 2 MB message (over maxMessageBytes): its connection is dropped, and nothing is answered.
            let (bigContext, big) = try runtime.rawDealer()
            try big.set(.receiveTimeout, to: .seconds(1))
            _ = try big.send([[UInt8](repeating: 0x0A, count: 2 << 20)])
            #expect(try big.receive() == nil)
            big.close()
            bigContext.terminate()
            client.close()
            context.terminate()
            // Still serving, and none of it applied.
            #expect(try await runtime.containment("ctl", "set-alpha", "box", "0.5", "--quiet").status == 0)
            let tree = try await runtime.treeJSON()
            #expect((tree["controllers"] as? [Any])?.count == 2, "\(tree)")
            let log =
                (try? String(contentsOfFile: runtime.runDirectory + "/logs/supervisor.log", encoding: .utf8)) ?? ""
            let lines = log.components(separatedBy: "dropped an undecodable request").count - 1
            #expect(
                lines >= 1 && lines <= seconds + 2 && lines < 1_000,
                "\(lines) lines for 10,000 garbage messages in \(seconds) s"
            )
            #expect(log.contains("peer.held_back_count="), "the count of what was held back is logged")
            #expect(!log.contains(huge.prefix(1_000)), "the oversized id is never logged")
        }
    }
}

/// With `Config/runtime-secure.yaml`: CURVE on both sockets, an allow-list of keys, each with a role.
@Suite(.serialized) struct CurveRuntimeTests {
    /// `Config/runtime-secure.yaml`, the settings of a runtime under CURVE.
    static func secureSettings() throws -> String {
        try String(
            contentsOf: RuntimeFixture.repository.appendingPathComponent("Config/runtime-secure.yaml"),
            encoding: .utf8
        )
    }

    static func keys(_ runtime: RuntimeFixture, _ pair: String) throws -> CurveClientKeys {
        let directory = runtime.runDirectory + "/keys/"
        return CurveClientKeys(
            server: try CurveSettings.key(directory + "server.public"),
            publicKey: try CurveSettings.key(directory + pair + ".public"),
            secretKey: try CurveSettings.key(directory + pair + ".secret")
        )
    }

    static func dealer(_ context: Context, _ runtime: RuntimeFixture, keys: CurveClientKeys?) throws -> Socket {
        let socket = try context.socket(.dealer)
        if let keys { try socket.makeCurveClient(keys) }
        try socket.set(.receiveTimeout, to: .seconds(1))
        try socket.connect(RuntimeConfig(runDirectory: runtime.runDirectory).commandEndpoint)
        return socket
    }

    @Test func onlyAdmittedKeysGetAnythingAndEachActsOnlyAsItsRoleAllows() async throws {
        guard hasCurve else { return }
        try await RuntimeFixture.with(
            topology: IsolationRuntimeTests.topology,
            settings: try Self.secureSettings()
        ) { runtime in
            // The operator's key, from the configuration: the CLI works.
            #expect(try await runtime.containment("tree").status == 0)
            let context = try Context()
            defer { context.terminate() }
            let snapshot = ClientMessage.with {
                $0.requestID = 5
                $0.snapshot = .init()
            }
            // No key: no reply at all.
            let stranger = try Self.dealer(context, runtime, keys: nil)
            #expect(try stranger.exchange(snapshot) == nil)
            stranger.close()
            // A CURVE key that knows the server's, but is not on the allow-list: no reply either.
            let pair = try Curve.keyPair()
            var unknownKeys = try Self.keys(runtime, "operator")
            unknownKeys.publicKey = try CurveKey(z85: pair.publicKey)
            unknownKeys.secretKey = try CurveKey(z85: pair.secretKey)
            let unknown = try Self.dealer(context, runtime, keys: unknownKeys)
            #expect(try unknown.exchange(snapshot) == nil)
            unknown.close()
            // No key on the events socket: no event; an admitted one gets them.
            let events = RuntimeConfig(runDirectory: runtime.runDirectory).eventEndpoint
            let deaf = try context.socket(.sub)
            try deaf.set(.receiveTimeout, to: .seconds(1))
            try deaf.connect(events)
            try deaf.subscribe("")
            let listener = try context.socket(.sub)
            try listener.makeCurveClient(try Self.keys(runtime, "observer"))
            try listener.set(.receiveTimeout, to: .seconds(5))
            try listener.connect(events)
            try listener.subscribe("")
            // Subscribed once the idle publisher's heartbeat comes through (the handshake done).
            #expect(try listener.receive() != nil, "an observer's key gets the heartbeats")
            #expect(try await runtime.containment("ctl", "set-alpha", "box", "0.5", "--quiet").status == 0)
            #expect(try listener.receive() != nil, "an observer's key gets the events")
            #expect(try deaf.receive() == nil, "no key, no event")
            deaf.close()
            listener.close()
            // An observer reads, and does not act.
            let observer = try Self.dealer(context, runtime, keys: try Self.keys(runtime, "observer"))
            #expect(try observer.exchange(snapshot)?.snapshot.controllers.count == 2)
            let act = ClientMessage.with {
                $0.requestID = 6
                $0.commands = .with {
                    $0.commands = [WireCommand(Request(.setAlpha(.root("box"), 0.25), by: .natural))]
                }
            }
            let refused = try observer.exchange(act)
            #expect(
                refused?.error.code == "unauthorized" && refused?.error.message == "An observer reads; it does not act."
            )
            #expect(try observer.exchange(.hello("h9"))?.error.code == "unauthorized")
            observer.close()
            // A host's key registers that host only, and acts only once registered.
            let h0 = try Self.dealer(context, runtime, keys: try Self.keys(runtime, "host-h0"))
            let impostor = try h0.exchange(.hello("h1", requestID: 7))
            #expect(impostor?.error.message == "This key registers host h0 only.", "\(String(describing: impostor))")
            let early = try h0.exchange(act)
            #expect(early?.error.message == "Host h0's key acts only once that host is registered.")
            h0.close()
            // An operator's key acts as any party, but registers no host.
            let operatorKeys = try Self.keys(runtime, "operator")
            let admin = try Self.dealer(context, runtime, keys: operatorKeys)
            #expect(try admin.exchange(act)?.accepted.events.isEmpty == false)
            #expect(try admin.exchange(.hello("h1", requestID: 8))?.error.code == "unauthorized")
            admin.close()
            #expect(runtime.logs().contains("refused a peer: its key is not allowed"), "\(runtime.logs())")
        }
    }
}
