import ContainmentBus
import Foundation
import Subprocess
import Synchronization
import Testing
import ZeroMQ

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// A replicated runtime (`journal: etcd`, docs/DURABILITY.md "Replicated") with real processes: three etcd members,
/// supervisors `a` and `b`, a host. The leader's `kill -9` is survived: the standby takes over with the tree as it
/// was, its host registers with it and a client of the dead one fails over to it; a supervisor that comes back stands
/// by and answers `notLeader`, naming the leader.
@Suite(.serialized) struct FailoverTests {
    @Test func theStandbyTakesOverAfterTheLeadersKillWithTheTreeUnchanged() async throws {
        try await ReplicatedRuntime.with { runtime in
            try await runtime.startSupervisor("a")
            #expect(try await Poll.until { runtime.leads("a") }, "a did not lead:\n\(runtime.log("a"))")
            try await runtime.startSupervisor("b")
            #expect(!runtime.leads("b"))
            _ = try runtime.start("host", "main")
            #expect(try await runtime.containment(via: "a", "wait", "--hosts", "main", "--timeout", "20").status == 0)
            for command in [["create", "root", "--kind", "content"], ["create", "child", "--kind", "content"]] {
                let created = try await runtime.containment(
                    via: "a",
                    "ctl",
                    command[0],
                    command[1],
                    command[2],
                    command[3]
                )
                #expect(created.status == 0, "\(created.stderr)")
            }
            #expect(try await runtime.containment(via: "a", "ctl", "add-child", "root", "child").status == 0)
            let before = try await runtime.containment(via: "a", "tree", "--json")
            #expect(before.status == 0)

            // The standby answers, but does not serve: a client that knows only it is told where the leader is.
            let refused = try await runtime.containment(via: "b-alone", "ctl", "create", "other", "--kind", "content")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("notLeader") && refused.stderr.contains("a leads at"), "\(refused.stderr)")

            runtime.kill("a", SIGKILL)
            let after = try await Poll.value(within: .seconds(20), every: .milliseconds(100)) {
                () -> RuntimeFixture.Output? in
                let tree = try await runtime.containment(via: "b", "tree", "--json")
                return tree.status == 0 ? tree : nil
            }
            #expect(runtime.leads("b"), "\(runtime.log("b"))")
            #expect(try Self.controllers(after?.stdout) == Self.controllers(before.stdout))
            #expect(try Self.controllers(after?.stdout).count == 2)

            // The host registers with the new leader, and a client that knew a first fails over to b: the command is
            // applied once.
            let waited = try await runtime.containment(via: "b", "wait", "--hosts", "main", "--timeout", "20")
            #expect(waited.status == 0, "\(waited.stderr)\n\(runtime.log("main"))")
            let created = try await runtime.containment(via: "a", "ctl", "create", "third", "--kind", "content")
            #expect(created.status == 0, "\(created.stderr)")
            let tree = try await runtime.containment(via: "b", "tree", "--json")
            #expect(try Self.controllers(tree.stdout).count == 3)

            // a, back, stands by behind b.
            try await runtime.startSupervisor("a")
            let standby = try await runtime.containment(via: "a-alone", "ctl", "create", "late", "--kind", "content")
            #expect(standby.stderr.contains("notLeader") && standby.stderr.contains("b leads at"), "\(standby.stderr)")
            #expect(!runtime.leads("a") || runtime.log("a").contains("no longer leads"))
            // `status` names the leader and the standby, with its pid and how many batches it has yet to apply.
            let pidOfA = try #require(runtime.daemons["a"]?.processIdentifier)
            let status = try await Poll.value(within: .seconds(10)) { () -> String? in
                let text = try await runtime.containment(via: "a", "status").stdout
                return text.contains("standby a  pid \(pidOfA)") ? text : nil
            }
            #expect(status?.contains("leader b  pid") == true, "\(status ?? "")")
            #expect(status?.firstMatch(of: /standby a  pid \d+  applied batch \d+  lag \d+ batch/) != nil)
        }
    }

    /// Issue 42: a leader that took over places a create on the host its journal shows registered — stopped, so it has
    /// not greeted the new leader yet — instead of refusing `hostUnavailable`; continued, the host greets it as the
    /// same process (`hostUp`, not `hostRestarted`) and runs the controller. (The heartbeat timeout, which bounds how
    /// long the leader counts on the host, is long here so that a loaded machine cannot outlast it.)
    @Test func aNewLeaderPlacesOnItsHostBeforeTheHostGreetsIt() async throws {
        try await ReplicatedRuntime.with(settings: "heartbeatTimeoutMs: 60000\n") { runtime in
            try await runtime.startLeaderStandbyAndHost()
            runtime.kill("main", SIGSTOP)
            defer { runtime.kill("main", SIGCONT) }
            runtime.kill("a", SIGKILL)
            #expect(try await Poll.until(within: .seconds(30)) { runtime.leads("b") }, "\(runtime.log("b"))")

            let created = try await runtime.containment(via: "b", "ctl", "create", "early", "--kind", "content")
            #expect(created.status == 0, "refused while its host was on its way: \(created.stderr)")
            runtime.kill("main", SIGCONT)
            let waited = try await runtime.containment(via: "b", "wait", "--hosts", "main", "--timeout", "30")
            #expect(waited.status == 0, "\(waited.stderr)\n\(runtime.log("main"))")
            let tree = try await runtime.containment(via: "b", "tree", "--json")
            let controllers = try Self.controllers(tree.stdout)
            #expect(controllers.count == 1 && controllers[0].contains("early"), "\(controllers)")
            let log = runtime.log("b")
            #expect(log.contains("host up") && !log.contains("host restarted"), "\(log)")
        }
    }

    /// The leader frozen (SIGSTOP) past its lease: the standby takes over; the old leader, resumed, neither answers a
    /// command it took in while frozen nor publishes anything, and stands by.
    @Test func aLeaderFrozenPastItsLeaseNeitherAcknowledgesNorPublishesWhenItResumes() async throws {
        try await ReplicatedRuntime.with { runtime in
            try await runtime.startLeaderStandbyAndHost()
            #expect(try await runtime.containment(via: "a", "ctl", "create", "root", "--kind", "content").status == 0)
            // What a publishes from now on, heard on its own events endpoint only.
            let published = PublishedCounter(endpoint: "ipc://\(runtime.runDirectory)/a-events.sock")
            defer { published.stop() }
            #expect(try await Poll.until { published.heartbeats > 0 }, "a's publisher was not heard")

            runtime.kill("a", SIGSTOP)
            // A command sent to a alone while it is frozen: queued in its socket.
            let environment: [Environment.Key: String?] = [
                "CONTAINMENT_RUN_DIR": runtime.runDirectory, "CONTAINMENT_CONFIG": runtime.configPath("a-alone"),
            ]
            async let frozen = RuntimeFixture.run(
                RuntimeFixture.etcdBinary,
                ["ctl", "create", "while-frozen", "--kind", "content"],
                environment: environment
            )
            #expect(try await Poll.until(within: .seconds(20)) { runtime.leads("b") }, "\(runtime.log("b"))")
            // The host finds the new leader though its connection to the frozen one never dropped.
            let waited = try await runtime.containment(via: "b", "wait", "--hosts", "main", "--timeout", "20")
            #expect(waited.status == 0, "\(waited.stderr)\n\(runtime.log("main"))")
            let after = try await runtime.containment(via: "b", "ctl", "create", "after", "--kind", "content")
            #expect(after.status == 0, "\(after.stderr)")
            published.mark()
            runtime.kill("a", SIGCONT)
            #expect(try await Poll.until(within: .seconds(20)) { runtime.log("a").contains("no longer leads") })
            let answer = try await frozen
            #expect(answer.status != 0, "a command a took in while frozen was acknowledged: \(answer.stdout)")
            let tree = try await runtime.containment(via: "b", "tree", "--json")
            let ids = try Self.controllers(tree.stdout).compactMap {
                $0.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) }
            }
            #expect(ids.contains("after") && ids.contains("root") && !ids.contains("while-frozen"), "\(ids)")
            // a stands by: it names b.
            let standby = try await runtime.containment(via: "a-alone", "ctl", "create", "late", "--kind", "content")
            #expect(standby.stderr.contains("b leads at"), "\(standby.stderr)")
            #expect(published.eventsSinceMark == 0, "a published \(published.eventsSinceMark) events after it resumed")
        }
    }

    /// etcd losing members: with one of three gone the runtime serves on; with two gone (no majority) the leader can
    /// no longer journal, stops leading within its lease, and every request is refused `notLeader`, saying etcd has no
    /// majority. Once the members are back a supervisor leads again, with everything acknowledged and nothing else.
    @Test func aMajorityOfEtcdLostRefusesCommandsAndLosesNothingAcknowledged() async throws {
        try await ReplicatedRuntime.with { runtime in
            try await runtime.startLeaderStandbyAndHost()
            #expect(try await runtime.containment(via: "a", "ctl", "create", "root", "--kind", "content").status == 0)

            try runtime.cluster.signal(SIGKILL, member: 3)
            let one = try await runtime.containment(via: "a", "ctl", "create", "one", "--kind", "content")
            #expect(one.status == 0, "one member of three lost: \(one.stderr)")

            try runtime.cluster.signal(SIGKILL, member: 2)
            // Refused, typed, once the leader has given up (within its lease). Until then a request times out: its
            // outcome is unknown (the proposal may still be committed once etcd is back), and so is not asserted.
            var attempts = 0
            let refused = try await Poll.value(within: .seconds(30), every: .milliseconds(200)) {
                () -> (id: String, output: RuntimeFixture.Output)? in
                attempts += 1
                let id = "two-\(attempts)"
                let attempt = try await runtime.containment(via: "a", "ctl", "create", id, "--kind", "content")
                return attempt.stderr.contains("notLeader") ? (id, attempt) : nil
            }
            #expect(refused?.output.status != 0)
            #expect(
                refused?.output.stderr.contains("majority of etcd") == true,
                "\(refused?.output.stderr ?? "no refusal")"
            )
            // `status` says what is wrong, names the leader and standby as a member last knew them, and exits 1 —
            // not 3, "is it running?" (issue 42).
            let status = try await runtime.containment(via: "a", "status")
            #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
            #expect(status.stdout.contains("etcd: no majority of its 3 members answers"), "\(status.stdout)")
            #expect(status.stdout.contains("(stale)") && status.stdout.contains("  leader a  pid"), "\(status.stdout)")

            try await runtime.cluster.start()
            let tree = try await Poll.value(within: .seconds(30), every: .milliseconds(200)) {
                () -> RuntimeFixture.Output? in
                let tree = try await runtime.containment(via: "a", "tree", "--json")
                return tree.status == 0 ? tree : nil
            }
            let ids = try Self.controllers(tree?.stdout).compactMap {
                $0.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) }
            }
            // Everything acknowledged; nothing refused.
            #expect(ids.contains("root") && ids.contains("one"), "\(ids)")
            #expect(!ids.contains(refused?.id ?? "two-?"), "refused, yet applied: \(ids)")
        }
    }

    /// Under CURVE a standby answers only the keys the leader admits: an operator's is told who leads; a stranger's,
    /// though it knows the server's key, gets nothing.
    @Test func aStandbyUnderCurveAnswersOnlyAdmittedKeys() async throws {
        guard hasCurve else { return }
        try await ReplicatedRuntime.with(settings: try CurveRuntimeTests.secureSettings()) { runtime in
            let keygen = try await runtime.containment(via: "a", "keygen")
            #expect(keygen.status == 0, "\(keygen.stderr)")
            try await runtime.startSupervisor("a")
            #expect(try await Poll.until { runtime.leads("a") }, "a did not lead:\n\(runtime.log("a"))")
            try await runtime.startSupervisor("b")
            #expect(try await Poll.until { runtime.log("b").contains("supervisor standing by") }, "\(runtime.log("b"))")

            let refused = try await runtime.containment(via: "b-alone", "ctl", "create", "x", "--kind", "content")
            #expect(refused.stderr.contains("notLeader") && refused.stderr.contains("a leads at"), "\(refused.stderr)")

            let context = try Context()
            defer { context.terminate() }
            let keys = runtime.runDirectory + "/keys/"
            let operatorKeys = CurveClientKeys(
                server: try CurveSettings.key(keys + "server.public"),
                publicKey: try CurveSettings.key(keys + "operator.public"),
                secretKey: try CurveSettings.key(keys + "operator.secret")
            )
            let pair = try Curve.keyPair()
            var strangerKeys = operatorKeys
            strangerKeys.publicKey = try CurveKey(z85: pair.publicKey)
            strangerKeys.secretKey = try CurveKey(z85: pair.secretKey)
            let snapshot = ClientMessage.with {
                $0.requestID = 5
                $0.snapshot = .init()
            }
            for (keys, admitted) in [(operatorKeys, true), (strangerKeys, false)] {
                let socket = try context.socket(.dealer)
                defer { socket.close() }
                try socket.makeCurveClient(keys)
                try socket.set(.receiveTimeout, to: .seconds(2))
                try socket.connect("ipc://\(runtime.runDirectory)/b-command.sock")
                let reply = try socket.exchange(snapshot)
                if admitted {
                    #expect(reply?.error.code == "notLeader", "\(String(describing: reply))")
                } else {
                    #expect(reply == nil, "a stranger's key was answered: \(String(describing: reply))")
                }
            }
        }
    }

    /// The controllers of `tree --json`, as JSON objects compared by their text.
    static func controllers(_ json: String?) throws -> [String] {
        let data = Data((json ?? "").utf8)
        let tree = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let controllers = try #require(tree["controllers"] as? [[String: Any]])
        return try controllers.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self)
        }
    }
}

/// Counts what a supervisor's PUB socket publishes (events and heartbeats), on a thread of its own.
final class PublishedCounter: Sendable {
    private struct Counts {
        var heartbeats = 0
        var events = 0
        var eventsAtMark: Int?
        var stopped = false
    }

    private let counts = Mutex(Counts())

    init(endpoint: String) {
        Thread.detachNewThread { [self] in
            guard let context = try? Context(), let socket = try? context.socket(.sub) else { return }
            defer {
                socket.close()
                context.terminate()
            }
            try? socket.connect(endpoint)
            try? socket.subscribe("")
            try? socket.set(.receiveTimeout, to: .milliseconds(50))
            while !counts.withLock({ $0.stopped }) {
                guard let frames = try? socket.receive() else { continue }
                let heartbeat = frames.first == Publication.heartbeatFrame
                counts.withLock { counts in
                    if heartbeat {
                        counts.heartbeats += 1
                    } else {
                        counts.events += 1
                    }
                }
            }
        }
    }

    var heartbeats: Int { counts.withLock { $0.heartbeats } }

    /// Events since ``mark()``.
    var eventsSinceMark: Int { counts.withLock { $0.events - ($0.eventsAtMark ?? $0.events) } }

    func mark() { counts.withLock { $0.eventsAtMark = $0.events } }

    func stop() { counts.withLock { $0.stopped = true } }
}
