import ContainmentBus
import ContainmentModel
import Foundation
import Testing
import ZeroMQ

@testable import ContainmentRuntime

/// The attacks of issue 11 that need no keys, against real processes: an impostor Hello, oversized input, garbage.
@Suite(.serialized) struct IsolationRuntimeTests {
    static let topology = """
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: late, kind: content, host: h1}
        """

    @Test func anImpostorHelloIsRefusedAndTheRealActorKeepsItsCallbacks() async throws {
        let runtime = try await RuntimeFixture(topology: Self.topology)
        let realPID = HostSupervisionTests.hostPID("h1", in: runtime)
        let (context, impostor) = try runtime.rawDealer()
        let refused = try impostor.exchange(.hello("h1"))
        #expect(refused?.error.code == "unauthorized", "\(String(describing: refused))")
        #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,50,50", "--quiet").status == 0)
        var callbacks: [String] = []
        for _ in 0..<100 {
            callbacks = try await runtime.containment("inspect", "late").eventDescriptions
            if callbacks.count >= 4 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(
            callbacks == [
                "loadView(late)", "viewDidLoad(late)", "viewWillLayoutSubviews(late)", "viewDidLayoutSubviews(late)",
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
        #expect(try await runtime.stop().status == 0)
    }

    @Test func oversizedInputAndGarbageAreRefusedAndTheSupervisorServesOn() async throws {
        let runtime = try await RuntimeFixture(topology: Self.topology)
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
        for _ in 0..<20 { try garbage(500) }
        #expect(malformed == 10_000)
        // One more after a second: its line counts those held back.
        try await Task.sleep(for: .milliseconds(1_100))
        try garbage(1)
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
        let log = (try? String(contentsOfFile: runtime.runDirectory + "/logs/supervisor.log", encoding: .utf8)) ?? ""
        let lines = log.components(separatedBy: "dropped an undecodable request").count - 1
        #expect(lines >= 1 && lines < 20, "\(lines) lines for 10,000 garbage messages")
        #expect(log.contains("heldBack="), "the count of what was held back is logged")
        #expect(!log.contains(huge.prefix(1_000)), "the oversized id is never logged")
        #expect(try await runtime.stop().status == 0)
    }
}
