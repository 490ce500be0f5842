import ContainmentBus
import ContainmentModel
import Foundation
import Synchronization
import Testing
import ZeroMQ

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The supervisor's Prometheus metrics (`metricsPort`), read over HTTP from a real runtime and parsed: each series the
/// documentation names, with the values the commands sent must give.
@Suite struct MetricsTests {
    /// A TCP port nothing listens on now, below the kernel's range of ephemeral ports: a port from that range (what
    /// binding port 0 gives) may be taken by any outgoing connection before the test's daemon binds it (an etcd
    /// member once failed "address already in use" under a whole test run's load).
    static func freePort(pair: Bool = false) async throws -> Int {
        // The kernel may hand the same free port to two tests running at once (it is free again once the probe
        // closes it): a port is given to one test of this process only. `pair`: the next port is free too (a local
        // etcd member's peer port is its client port plus one).
        let probe = """
            import random, socket
            low = int(open('/proc/sys/net/ipv4/ip_local_port_range').read().split()[0])
            for _ in range(200):
                port = random.randrange(10000, low - 1) if low > 11000 else 0
                s, t = socket.socket(), socket.socket()
                try:
                    s.bind(('127.0.0.1', port))
                    if \(pair ? "True" : "False"):
                        t.bind(('127.0.0.1', s.getsockname()[1] + 1))
                    print(s.getsockname()[1])
                    break
                except OSError:
                    pass
                finally:
                    s.close()
                    t.close()
            """
        for _ in 0..<20 {
            let found = try await RuntimeFixture.run("/usr/bin/env", ["python3", "-c", probe])
            let port = try #require(Int(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            let ports = pair ? [port, port + 1] : [port]
            let given = givenPorts.withLock { given in
                guard ports.allSatisfy({ !given.contains($0) }) else { return false }
                given.formUnion(ports)
                return true
            }
            if given { return port }
        }
        throw FixtureError("no free port that no other test was given")
    }

    /// The ports ``freePort()`` gave out.
    static let givenPorts = Mutex<Set<Int>>([])

    /// Prometheus text: each sample's value by its name with labels (`name{label="value"}`), comments left out.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    @Test func theSupervisorServesItsCountersHistogramsAndGauges() async throws {
        let port = try await Self.freePort()
        try await RuntimeFixture.with(topology: DurabilityTests.menu, settings: "metricsPort: \(port)\n") { runtime in
            #expect(try await runtime.containment("ctl", "create", "counted", "--kind", "content").status == 0)
            #expect(try await runtime.containment("ctl", "create", "counted", "--kind", "content").status != 0)
            #expect(
                try await runtime.containment("ctl", "set-frame", "second", "0,0,10,10", "--by", "second").status != 0
            )
            let url = "http://127.0.0.1:\(port)/metrics"
            let fetched = try await RuntimeFixture.run(
                "/usr/bin/env",
                ["curl", "-sS", "--max-time", "5", "-D", "-", url]
            )
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(
                fetched.stdout.lowercased().contains("content-type: text/plain; version=0.0.4"),
                "\(fetched.stdout)"
            )
            let samples = Self.samples(fetched.stdout)
            func value(_ name: String) -> Double { samples[name] ?? -1 }
            // The topology's commands and the first create were accepted; a duplicate and a frame by the wrong party not.
            #expect(value("containment_commands_accepted_total") >= 2, "\(fetched.stdout)")
            #expect(value("containment_commands_rejected_total{code=\"duplicateID\"}") == 1)
            #expect(value("containment_commands_rejected_total{code=\"frameAuthority\"}") == 1)
            #expect(value("containment_events_published_total") > 10)
            #expect(value("containment_journal_bytes_total") > 100)
            // Histograms: request time, request size, the journal's write, a step's messages.
            for histogram in [
                "containment_request_duration_seconds", "containment_request_commands",
                "containment_journal_write_seconds",
                "containment_step_messages",
            ] {
                #expect(value("\(histogram)_count") >= 1, "\(histogram)")
                #expect(samples.keys.contains { $0.hasPrefix("\(histogram)_bucket{le=") }, "\(histogram)")
            }
            // Gauges: the menu topology's 4 controllers and the one created; its 4 hosts, all up, nothing pending.
            #expect(value("containment_controllers") == 5)
            #expect(value("containment_hosts") == 4 && value("containment_hosts_up") == 4)
            #expect(value("containment_host_pending_deliveries{host=\"menu-host\"}") == 0)

            // Subscribers: none at first, a watch connected, then gone.
            #expect(value("containment_subscribers") == 0)
            func subscribers() async throws -> Double {
                Self.samples(
                    try await RuntimeFixture.run("/usr/bin/env", ["curl", "-sS", "--max-time", "5", url]).stdout
                )[
                    "containment_subscribers"
                ] ?? -1
            }
            func waitFor(_ count: Double) async throws -> Double {
                var seen = try await subscribers()
                try await Poll.until {
                    seen = try await subscribers()
                    return seen == count
                }
                return seen
            }
            // It leaves after one event, which is sent once it is counted: no time in the test.
            let watch = try await runtime.startWatch(["--count", "1"])
            #expect(try await waitFor(1) == 1)
            #expect(try await runtime.containment("ctl", "create", "leaving", "--quiet").status == 0)
            _ = try await watch.value
            #expect(try await waitFor(0) == 0)
        }
    }

    @Test func aMetricsPortInUseStopsUpAndSaysWhy() async throws {
        let port = try await Self.freePort()
        // Something else listens on the port first (its ready file says when).
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(port).ready").path
        defer { try? FileManager.default.removeItem(atPath: ready) }
        let holder = Task {
            try await RuntimeFixture.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    "import signal, socket; s = socket.socket(); s.bind(('127.0.0.1', \(port))); s.listen(); "
                        + "open('\(ready)', 'w').close(); signal.pause()",
                ]
            )
        }
        defer { holder.cancel() }
        #expect(
            try await Poll.until { FileManager.default.fileExists(atPath: ready) },
            "the port holder never listened"
        )
        // It stopped by itself, leaving nothing behind: down.sh (at the end of `with`) finds nothing to stop or clean.
        try await RuntimeFixture.with(
            topology: DurabilityTests.menu,
            settings: "metricsPort: \(port)\n",
            requireUp: false
        ) { runtime in
            // containment-web metrics cannot listen: up.sh says why, and stops what it started.
            #expect(runtime.up.status == 1)
            #expect(runtime.up.stderr.contains("up: containment-web metrics did not start"), "\(runtime.up.stderr)")
            #expect(runtime.up.stderr.contains("Address already in use"), "\(runtime.up.stderr)\n\(runtime.logs())")
        }
    }

    @Test func withoutMetricsPortAScrapeGets503AndTheSupervisorsReason() async throws {
        let port = try await Self.freePort()
        try await RuntimeFixture.with(topology: DurabilityTests.menu) { runtime in
            let pidFile = runtime.runDirectory + "/metrics.pid"
            let server = Task {
                try await runtime.run(
                    "/usr/bin/timeout",
                    [
                        "-s", "TERM", "600", RuntimeFixture.webBinary, "metrics", "--port", "\(port)", "--pid-file",
                        pidFile,
                    ]
                )
            }
            // Its pid file is written once it serves.
            #expect(try await Poll.until { FileManager.default.fileExists(atPath: pidFile) })
            let url = "http://127.0.0.1:\(port)/metrics"
            let fetched = try await RuntimeFixture.run(
                "/usr/bin/env",
                ["curl", "-sS", "--max-time", "5", "-D", "-", url]
            )
            #expect(fetched.stdout.hasPrefix("HTTP/1.1 503"), "\(fetched.stdout)\(fetched.stderr)")
            #expect(fetched.stdout.contains("notConfigured: This supervisor keeps no metrics"), "\(fetched.stdout)")
            // The typed refusal, through the client itself.
            let context = try Context()
            let refusal = { () -> ContainmentError? in
                do {
                    let endpoint = RuntimeConfig(runDirectory: runtime.runDirectory).commandEndpoint
                    _ = try CommandClient(context: context, endpoint: endpoint).metrics()
                    return nil
                } catch let error as ContainmentError {
                    return error
                } catch {
                    return nil
                }
            }()
            context.terminate()
            #expect(refusal?.code == .notConfigured, "\(String(describing: refusal))")
            let stopped = try await runtime.run(
                "/bin/kill",
                [
                    "-TERM",
                    try String(contentsOfFile: pidFile, encoding: .utf8)
                        .trimmingCharacters(in: .whitespacesAndNewlines),
                ]
            )
            #expect(stopped.status == 0)
            let ended = try await server.value
            #expect(ended.status == 0 && ended.stdout.contains("metrics: \(url)"), "\(ended)")
            #expect(!FileManager.default.fileExists(atPath: pidFile))
        }
    }
}
