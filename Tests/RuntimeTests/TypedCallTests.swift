import ContainmentBus
import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentRuntime
import ContainmentTestKit
import Foundation
import Testing
import ZeroMQ

/// Typed method calls (issue 25) through real processes, started by ContainmentTestKit: `counter`, a distributed
/// controller of `containment host`, called from this process through a ``ContainmentActorSystem``.
@Suite(.serialized) struct TypedCallTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        hosts:
          - {name: h0, command: [\(RuntimeFixture.binary), host]}
          - {name: h1, restart: temporary, command: [\(RuntimeFixture.binary), host]}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: tally, kind: counter, host: h0, parent: box}
          - {id: spare, kind: counter, host: h1, parent: box}
        """
    /// A method may take longer than a resend (1 s), and a killed host is noticed by its exit.
    static let settings = "requestTimeoutMs: 20000\n"

    /// Runs `body` on a runtime of the topology and settings above, files written for it and removed after.
    static func withCounters(_ body: (TestRuntime) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try topology.write(toFile: directory + "/topology.yaml", atomically: true, encoding: .utf8)
        try settings.write(toFile: directory + "/runtime.yaml", atomically: true, encoding: .utf8)
        try await withRuntime(
            topology: directory + "/topology.yaml",
            configPath: directory + "/runtime.yaml",
            timeout: TestKitTests.startTimeout,
            body
        )
    }

    static func system(_ runtime: TestRuntime) throws -> ContainmentActorSystem {
        try runtime.actorSystem()
    }

    static func client(_ runtime: TestRuntime) throws -> RuntimeClient {
        try runtime.client()
    }

    /// The error `body` throws, as a RemoteError.
    static func remoteError(_ body: () async throws -> Void) async -> RemoteError? {
        do {
            try await body()
            return nil
        } catch let error as RemoteError {
            return error
        } catch {
            Issue.record("not a RemoteError: \(error)")
            return nil
        }
    }

    @Test func callsReturnTheirResultsAndRunOneAtATimeInTheOrderTheSupervisorGaveThem() async throws {
        try await Self.withCounters { runtime in
            let tally = try CounterController.resolve(id: "tally", using: Self.system(runtime))
            #expect(try await tally.add(2) == 2)
            #expect(try await tally.add(3) == 5)
            // Twenty callers at once, each with its own connection: every call runs once, alone, so the totals they get
            // back are twenty distinct steps.
            let totals = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    let system = try Self.system(runtime)
                    group.addTask { try await CounterController.resolve(id: "tally", using: system).add(1) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(totals.sorted() == Array(6...25))
            #expect(try await tally.value() == 25)
            // Each call is an invoke the supervisor ordered and delivered: the actor received 23 of them, issued by the
            // system party, with their arguments as JSON.
            let invoked = try Self.client(runtime).callbacks(of: "tally").compactMap { event -> [String]? in
                guard case .verbInvoked(_, _, let arguments, .system) = event else { return nil }
                return arguments
            }
            #expect(invoked.count == 23)
            #expect(invoked.prefix(2) == [["2"], ["3"]])
        }
    }

    @Test func errorsAreTyped() async throws {
        try await Self.withCounters { runtime in
            let system = try Self.system(runtime)
            // What the method threw: an error of the app's own is methodFailed, with its type and text.
            let failed = await Self.remoteError {
                try await CounterController.resolve(id: "tally", using: system).fail("boom")
            }
            #expect(failed?.error.code == .methodFailed)
            #expect(failed?.error.message == "CounterFailure: the counter failed: boom")
            #expect(failed?.commandID != 0)
            // The controller is gone: the rules refuse the call, journaled as a rejection.
            let gone = await Self.remoteError {
                _ = try await CounterController.resolve(id: "gone", using: system).value()
            }
            #expect(gone?.error.code == .unknownController)
            #expect(gone?.seq != 0)
            // Its kind has no typed methods: its host says so.
            let content = await Self.remoteError {
                _ = try await CounterController.resolve(id: "box", using: system).value()
            }
            #expect(content?.error.code == .unknownVerb)
            #expect(content?.error.message == "box, a content, has no typed methods.")
            // The counter still counts: nothing above touched it.
            #expect(try await CounterController.resolve(id: "tally", using: system).value() == 0)
        }
    }

    @Test func aResendWhileTheMethodRunsIsAnsweredOnceAndNotRunAgain() async throws {
        try await Self.withCounters { runtime in
            let tally = try CounterController.resolve(id: "tally", using: Self.system(runtime))
            // 2.5 s: the client sends the request again after 1 s and 2 s without an answer.
            try await tally.pause(milliseconds: 2_500)
            #expect(try await tally.add(1) == 1)
            // Applied again, the resend would have been a second invoke, with a seq of its own, delivered to the actor.
            let invoked = try Self.client(runtime).callbacks(of: "tally").filter { $0.name == "verbInvoked" }
            #expect(invoked.count == 2)
        }
    }

    @Test func aHostKilledWhileItsMethodRunsAnswersHostUnavailable() async throws {
        try await Self.withCounters { runtime in
            let system = try Self.system(runtime)
            let pid = try #require(runtime.pid(ofHost: "h0"))
            let call = Task {
                await Self.remoteError {
                    try await CounterController.resolve(id: "tally", using: system).pause(milliseconds: 15_000)
                }
            }
            // Killed at the worst moment: once its actor is running the method (which titles the counter first).
            let client = try Self.client(runtime)
            try await Poll.until { try client.snapshot().controller("tally")?.properties.title == "pausing" }
            #expect(try client.snapshot().controller("tally")?.properties.title == "pausing")
            kill(pid, SIGKILL)
            let error = await call.value
            #expect(error?.error.code == .hostUnavailable)
            #expect(
                error?.error.message.hasPrefix("Host h0, which runs tally, went down before the method answered")
                    == true
            )
            #expect(error?.commandID != 0)
            // Started again by its policy, the host answers the next call from the restored state.
            try await runtime.wait(until: "h0 is up again in a new process") { snapshot in
                snapshot.hosts.contains { $0.name == "h0" && $0.up && $0.pid != pid }
            }
            #expect(try await CounterController.resolve(id: "tally", using: system).add(4) == 4)
        }
    }

    @Test func aCallToAControllerWhoseHostIsDownIsRefusedBeforeItIsJournaled() async throws {
        try await Self.withCounters { runtime in
            let pid = try #require(runtime.pid(ofHost: "h1"))
            kill(pid, SIGKILL)
            try await runtime.wait(until: "h1 is down") { snapshot in
                snapshot.hosts.contains { $0.name == "h1" && !$0.up }
            }
            let error = await Self.remoteError {
                _ = try await CounterController.resolve(id: "spare", using: Self.system(runtime)).value()
            }
            #expect(error?.error.code == .hostUnavailable)
            #expect(
                error?.error.message
                    == "Host h1, which runs spare, is not up: nothing can answer a call of its methods now."
            )
            #expect(error?.commandID == 0)
        }
    }

    @Test func aForgedResultIsDroppedAndTheCallerGetsTheMethodsOwn() async throws {
        try await Self.withCounters { runtime in
            let system = try Self.system(runtime)
            let call = Task {
                await Self.remoteError {
                    try await CounterController.resolve(id: "tally", using: system).pause(milliseconds: 1_500)
                }
            }
            let client = try Self.client(runtime)
            try await Poll.until { try client.snapshot().controller("tally")?.properties.title == "pausing" }
            // A peer that is not the host answers every call the supervisor could be waiting for with an error.
            let context = try Context()
            let dealer = try context.socket(.dealer)
            try dealer.connect(try RuntimeConfig.load(from: nil, environment: runtime.environment).commandEndpoint)
            for seq in 1...(try client.snapshot().seq) {
                let forged = MethodCallMessage.result(
                    seq: seq,
                    controller: "tally",
                    .failure(RemoteError(ContainmentError(.methodFailed, "forged")))
                )
                _ = try dealer.send([forged.bytes])
            }
            // The caller gets the method's own outcome: it returned.
            #expect(await call.value == nil)
            dealer.close()
            context.terminate()
        }
    }
}
