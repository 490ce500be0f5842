import ContainmentBus
import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentConfig
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

    /// `containment ARGUMENTS` run to completion against `runtime`.
    static func containment(_ runtime: TestRuntime, _ arguments: String...) async throws -> RuntimeFixture.Output {
        try await RuntimeFixture.run(
            RuntimeFixture.binary,
            arguments,
            environment: [
                "CONTAINMENT_RUN_DIR": runtime.environment["CONTAINMENT_RUN_DIR"],
                "CONTAINMENT_CONFIG": runtime.environment["CONTAINMENT_CONFIG"],
            ]
        )
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
            let invoked = try await Self.client(runtime).callbacks(of: "tally").compactMap { event -> [String]? in
                guard case .verbInvoked(_, _, let arguments, .system) = event else { return nil }
                return arguments
            }
            #expect(invoked.count == 23)
            #expect(invoked.prefix(2) == [["2"], ["3"]])
        }
    }

    @Test func methodsAreListedAndCalledByDeclaredNameFromAnyClientAndTheCommandLine() async throws {
        try await Self.withCounters { runtime in
            let client = try Self.client(runtime)
            // What h0 registered for `counter`: its methods by declared name, with schemas, and its verb.
            let listed = try await client.methods(of: "tally")
            #expect(listed.kind == "counter")
            #expect(listed.host == "h0")
            #expect(listed.verbs == ["add"])
            let add = try #require(listed.methods.first { $0.name == "add(_:)" })
            #expect(add.parameters == [.init(label: "_", schema: #"{"type":"integer"}"#)])
            #expect(add.result == #"{"type":"integer"}"#)
            // Called by that name with JSON arguments, as any language's client does.
            #expect(
                try await client.call("tally", method: "add(_:)", arguments: try add.arguments(fromJSON: "[2]")) == "2"
            )
            // A Swift reference's call travels under the same name: the journal and `watch` show `add(_:)`.
            let tally = try CounterController.resolve(id: "tally", using: Self.system(runtime))
            #expect(try await tally.add(3) == 5)
            let verbs = try await client.callbacks(of: "tally").compactMap { event -> String? in
                guard case .verbInvoked(_, let verb, _, _) = event else { return nil }
                return verb
            }
            #expect(verbs == ["add(_:)", "add(_:)"])
            // A name the host did not register is refused by the supervisor, before anything is journaled.
            let unknown = await Self.remoteError {
                _ = try await client.call("tally", method: "rotate(by:)", arguments: [])
            }
            #expect(unknown?.error.code == .unknownVerb)
            #expect(
                unknown?.error.message
                    == "tally, a counter run by host h0, has no method rotate(by:); its methods: "
                    + listed.methods.map(\.name).joined(separator: ", ") + "."
            )
            #expect(unknown?.commandID == 0)
            // The command line: `containment methods` lists them, `ctl call` calls one and prints its result.
            let methods = try await Self.containment(runtime, "methods", "tally")
            #expect(methods.status == 0)
            #expect(methods.lines.first == "tally: a counter on host h0")
            #expect(
                methods.stdout.contains(
                    "  pause(milliseconds:)\n    milliseconds: {\"type\":\"integer\"}\n    -> {\"type\":\"null\"}\n"
                )
            )
            #expect(methods.lines.last == "  verbs: add")
            let called = try await Self.containment(runtime, "ctl", "call", "tally", "add(_:)", #"{"0": -1}"#)
            #expect(called.status == 0)
            #expect(called.stdout == "4\n")
            let wrong = try await Self.containment(
                runtime,
                "ctl",
                "call",
                "tally",
                "pause(milliseconds:)",
                #"{"ms": 1}"#
            )
            #expect(wrong.status == 1)
            #expect(
                wrong.stderr == "malformed: pause(milliseconds:) has no parameter ms; its parameters: milliseconds.\n"
            )
            let thrown = try await Self.containment(runtime, "ctl", "call", "tally", "fail(_:)", #"["boom"]"#)
            #expect(thrown.status == 1)
            #expect(thrown.stderr == "methodFailed: CounterFailure: the counter failed: boom\n")
            let gone = try await Self.containment(runtime, "methods", "nobody")
            #expect(gone.status == 1)
            #expect(gone.stderr == "unknownController: No controller nobody exists.\n")
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
            #expect(content?.commandID == 0)  // refused by the supervisor, before anything is journaled
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
            let invoked = try await Self.client(runtime).callbacks(of: "tally").filter { $0.name == "verbInvoked" }
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
            try await Poll.until { try await client.snapshot().controller("tally")?.properties.title == "pausing" }
            #expect(try await client.snapshot().controller("tally")?.properties.title == "pausing")
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
            try await Poll.until { try await client.snapshot().controller("tally")?.properties.title == "pausing" }
            // A peer that is not the host answers every call the supervisor could be waiting for with an error.
            let context = try Context()
            let dealer = try context.socket(.dealer)
            try dealer.connect(try RuntimeConfig.load(from: nil, environment: runtime.environment).commandEndpoint)
            for seq in 1...(try await client.snapshot().seq) {
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
