import Foundation
import Testing

/// A topology's host entry may name the program the supervisor runs as that host (`command`): an app's own host
/// executable. Real processes: the supervisor started with `--config` alone (no CONTAINMENT_CONFIG), its hosts
/// started from the entry's program with that config, one killed with `kill -9` and started again by its policy, one
/// whose program does not exist given up on.
@Suite(.serialized) struct HostCommandTests {
    static func text(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    static func pid(_ path: String) -> Int32? {
        Int32(text(path).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aHostsCommandIsStartedWithTheSupervisorsConfigAndRestartedAfterAKillNine() async throws {
        let runtime = try Scratch()
        defer { runtime.remove() }
        let dir = runtime.directory
        // Endpoints other than the defaults: a host that did not get this config would never find the supervisor.
        let config = try runtime.file(
            "elsewhere.yaml",
            "command: ipc://{run}/elsewhere-command.sock\nevents: ipc://{run}/elsewhere-events.sock\n"
        )
        // The app's own host program: here a script that says how it was called, then runs `containment host`.
        let program = try runtime.file(
            "app-host.sh",
            "#!/bin/sh\necho \"app-host: $* (config $CONTAINMENT_CONFIG)\"\nexec '\(RuntimeFixture.binary)' host \"$@\"\n"
        )
        #expect(chmod(program, 0o755) == 0)
        let topology = try runtime.file(
            "topology.yaml",
            """
            hosts:
              - {name: app, command: [./app-host.sh], maxRestarts: 3, restartWindowMs: 60000}
              - {name: missing, command: [bin/no-such-host], maxRestarts: 1}
            controllers:
              - {id: a, kind: content, host: app}
            """
        )
        let started = try await runtime.run(
            "/bin/bash",
            [
                "-c",
                "\"$CONTAINMENT_BIN\" supervisor --start-hosts --config '\(config)' --topology '\(topology)' "
                    + "--pid-file '\(dir)/supervisor.pid' >>'\(dir)/logs/supervisor.log' 2>&1 &",
            ]
        )
        #expect(started.status == 0)
        let waited = try await runtime.run(
            RuntimeFixture.binary,
            ["wait", "--hosts", "app", "--timeout", "30", "--config", config]
        )
        #expect(waited.status == 0, "\(waited.stderr)\n\(Self.text(dir + "/logs/supervisor.log"))")
        let hostLog = Self.text(dir + "/logs/host-app.log")
        #expect(
            hostLog.contains(
                "app-host: --name app --pid-file \(dir)/host-app.pid --log-format text (config \(config))"
            ),
            "\(hostLog)"
        )

        // kill -9: started again from the same program, by its policy.
        let first = try #require(Self.pid(dir + "/host-app.pid"))
        #expect(kill(first, SIGKILL) == 0)
        let second = try await Poll.value {
            Self.pid(dir + "/host-app.pid").flatMap { $0 != first ? $0 : nil }
        }
        #expect(second != nil, "\(Self.text(dir + "/logs/supervisor.log"))")
        let again = try await runtime.run(
            RuntimeFixture.binary,
            ["wait", "--hosts", "app", "--timeout", "30", "--config", config]
        )
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.text(dir + "/logs/host-app.log").components(separatedBy: "app-host: --name app").count == 3)
        let log = Self.text(dir + "/logs/supervisor.log")
        #expect(log.contains("killed by signal 9 (SIGKILL)"), "\(log)")

        // A program that is not there: given up on, saying so.
        #expect(log.contains("could not be started (\(dir)/bin/no-such-host"), "\(log)")
        #expect(log.contains("host failed: not restarted again") && log.contains("host.name=missing"), "\(log)")
    }
}
