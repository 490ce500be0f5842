import Foundation
import Subprocess
import Testing

/// Issue 27, services: `containment systemd` writes units that systemd accepts (`systemd-analyze verify`, where it is
/// installed) and whose commands, run as systemd would run them (their Environment, `%S` expanded, ExecStartPre, then
/// ExecStart, ready when ExecStartPost returns, stopped by KillSignal), start the runtime and stop it, leaving nothing.
@Suite struct SystemdUnitTests {
    /// A unit file's `[Section]` → key → values, in order.
    struct Unit {
        var sections: [String: [(key: String, value: String)]] = [:]

        init(_ text: String) throws {
            var section: String?
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
                if line.hasPrefix("["), line.hasSuffix("]") {
                    section = String(line.dropFirst().dropLast())
                    continue
                }
                guard let section, let equals = line.firstIndex(of: "=") else {
                    throw FixtureError("line \(number + 1) is neither a section nor Key=Value: \(line)")
                }
                sections[section, default: []].append(
                    (String(line[..<equals]), String(line[line.index(after: equals)...]))
                )
            }
        }

        func values(_ section: String, _ key: String) -> [String] {
            sections[section, default: []].filter { $0.key == key }.map(\.value)
        }

        /// An Exec line's arguments, systemd's quoting undone and the specifiers expanded.
        static func arguments(_ line: String, state: String) -> [String] {
            var arguments: [String] = []
            var current = ""
            var quoted = false
            var escaped = false
            var any = false
            for character in line {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted.toggle()
                    any = true
                } else if character == " ", !quoted {
                    if any || !current.isEmpty { arguments.append(current) }
                    current = ""
                    any = false
                } else {
                    current.append(character)
                }
            }
            if any || !current.isEmpty { arguments.append(current) }
            return arguments.map { expand($0, state: state) }
        }

        static func expand(_ text: String, state: String) -> String {
            text.replacingOccurrences(of: "%%", with: "\u{0}").replacingOccurrences(of: "%S", with: state)
                .replacingOccurrences(of: "\u{0}", with: "%")
        }
    }

    static func write(_ arguments: [String]) async throws -> (directory: String, output: RuntimeFixture.Output) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("containment-units-\(UUID().uuidString.prefix(8))").path
        let output = try await RuntimeFixture.run(
            RuntimeFixture.binary,
            ["systemd", "--output", directory, "--binary", RuntimeFixture.binary] + arguments
        )
        return (directory, output)
    }

    static var systemdAnalyze: String? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func systemdAcceptsTheUnitsForTheSystemAndForAUser() async throws {
        for user in [false, true] {
            let (directory, written) = try await Self.write(
                ["--topology", "Config/topologies/menu.yaml"] + (user ? ["--user"] : [])
            )
            defer { try? FileManager.default.removeItem(atPath: directory) }
            #expect(written.status == 0, "\(written.stderr)")
            let unit = try Unit(String(contentsOfFile: directory + "/containment-supervisor.service", encoding: .utf8))
            #expect(unit.values("Install", "WantedBy") == [user ? "default.target" : "multi-user.target"])
            #expect(unit.values("Service", "Restart") == ["on-failure"])
            #expect(unit.values("Service", "KillSignal") == ["SIGTERM"])
            #expect(unit.values("Service", "StateDirectory") == ["containment"])
            guard let analyze = Self.systemdAnalyze else { continue }  // parsed above; verified where systemd is
            let runtime = directory + "/xdg"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let verified = try await RuntimeFixture.run(
                analyze,
                (user ? ["--user"] : []) + ["verify", "--man=no", directory + "/containment-supervisor.service"],
                environment: ["XDG_RUNTIME_DIR": runtime]
            )
            // verify exits 0 on an unknown key too, with a warning: silence is the pass.
            #expect(verified.status == 0 && verified.stdout.isEmpty && verified.stderr.isEmpty, "\(verified)")
        }
    }

    /// With metricsPort, containment-web serves the metrics beside the supervisor; with otlpEndpoint, it exports
    /// the traced commands' spans.
    @Test(arguments: [("metrics", "metricsPort: 9464"), ("traces", "otlpEndpoint: http://127.0.0.1:4318")])
    func containmentWebRunsBesideTheSupervisorForWhatTheSettingsAsk(role: String, setting: String) async throws {
        let config = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(role)-\(UUID().uuidString.prefix(8)).yaml").path
        try "\(setting)\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (directory, written) = try await Self.write(
            ["--topology", "Config/topologies/menu.yaml", "--config", config]
        )
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(written.status == 0, "\(written.stderr)")
        let other = role == "metrics" ? "traces" : "metrics"
        #expect(!FileManager.default.fileExists(atPath: directory + "/containment-\(other).service"), "not asked for")
        let unit = try Unit(String(contentsOfFile: directory + "/containment-\(role).service", encoding: .utf8))
        let start = Unit.arguments(try #require(unit.values("Service", "ExecStart").first), state: "/state")
        #expect(start == [RuntimeFixture.webBinary, role, "--pid-file", "/state/containment/\(role).pid"])
        #expect(unit.values("Unit", "BindsTo") == ["containment-supervisor.service"])
        #expect(unit.values("Service", "Environment").contains("CONTAINMENT_CONFIG=\(config)"))
        if let analyze = Self.systemdAnalyze {
            let verified = try await RuntimeFixture.run(
                analyze,
                [
                    "verify", "--man=no", directory + "/containment-supervisor.service",
                    directory + "/containment-\(role).service",
                ]
            )
            #expect(verified.status == 0 && verified.stdout.isEmpty && verified.stderr.isEmpty, "\(verified)")
        }
    }

    @Test func aRemoteHostGetsAUnitOfItsOwn() async throws {
        let topology = FileManager.default.temporaryDirectory
            .appendingPathComponent("remote-\(UUID().uuidString.prefix(8)).yaml").path
        try """
        window: {name: main, width: 100, height: 100, root: a}
        hosts: [local, {name: far, remote: true}]
        controllers: [{id: a, host: local}, {id: b, host: far}]
        """.write(toFile: topology, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: topology) }
        let (directory, written) = try await Self.write(["--topology", topology, "--run-dir", "/srv/containment 100%"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(written.status == 0, "\(written.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["containment-host-far.service", "containment-supervisor.service"])
        let host = try Unit(String(contentsOfFile: directory + "/containment-host-far.service", encoding: .utf8))
        let start = try #require(host.values("Service", "ExecStart").first)
        #expect(
            Unit.arguments(start, state: "/unused")
                == [RuntimeFixture.binary, "host", "--name", "far", "--pid-file", "/srv/containment 100%/host-far.pid"]
        )
        // A chosen run directory is not systemd's to make.
        #expect(host.values("Service", "StateDirectory").isEmpty)
        let supervisor = try Unit(
            String(contentsOfFile: directory + "/containment-supervisor.service", encoding: .utf8)
        )
        let post = try #require(supervisor.values("Service", "ExecStartPost").first)
        #expect(Unit.arguments(post, state: "/unused").suffix(2) == ["--hosts", "local"])
    }

    @Test func theUnitsCommandsStartTheRuntimeAndSIGTERMStopsItAll() async throws {
        let (directory, written) = try await Self.write(["--topology", "Config/topologies/menu.yaml"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(written.status == 0, "\(written.stderr)")
        let unit = try Unit(String(contentsOfFile: directory + "/containment-supervisor.service", encoding: .utf8))
        let state = directory + "/state"
        let runDirectory = state + "/containment"
        // What StateDirectory= makes.
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        var environment: [Environment.Key: String?] = ["CONTAINMENT_CONFIG": nil]
        for assignment in unit.values("Service", "Environment") {
            let pair = Unit.arguments(assignment, state: state)[0].split(separator: "=", maxSplits: 1)
            environment[Environment.Key(stringLiteral: String(pair[0]))] = String(pair[1])
        }
        #expect(environment["CONTAINMENT_RUN_DIR"] == runDirectory)
        func exec(_ key: String) throws -> [String] {
            Unit.arguments(try #require(unit.values("Service", key).first), state: state)
        }

        let pre = try exec("ExecStartPre")
        let checked = try await RuntimeFixture.run(pre[0], Array(pre.dropFirst()), environment: environment)
        #expect(checked.status == 0, "\(checked)")

        let start = try exec("ExecStart")
        let supervisor = Process()
        supervisor.executableURL = URL(fileURLWithPath: start[0])
        supervisor.arguments = Array(start.dropFirst())
        supervisor.currentDirectoryURL = URL(fileURLWithPath: "/")  // systemd's working directory
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["CONTAINMENT_CONFIG"] = nil
        for case (let key, let value?) in environment { processEnvironment[key.description] = value }
        supervisor.environment = processEnvironment
        supervisor.standardOutput = FileHandle.nullDevice
        supervisor.standardError = FileHandle.nullDevice
        try supervisor.run()
        var stopped = false
        defer {
            if !stopped {
                supervisor.terminate()
                supervisor.waitUntilExit()
            }
            _ = RuntimeFixture.down(runDirectory)?.waitUntilExit()
        }

        // Ready: ExecStartPost returns once the supervisor answers and every host is up.
        let post = try exec("ExecStartPost")
        let ready = try await RuntimeFixture.run(post[0], Array(post.dropFirst()), environment: environment)
        #expect(ready.status == 0, "\(ready)")
        let status = try await RuntimeFixture.run(RuntimeFixture.binary, ["status"], environment: environment)
        #expect(status.status == 0 && status.stdout.contains("healthy"), "\(status)")
        let hostPIDs = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
            .filter { $0.hasPrefix("host-") && $0.hasSuffix(".pid") }
            .compactMap { try? String(contentsOfFile: "\(runDirectory)/\($0)", encoding: .utf8) }
            .compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(hostPIDs.count == 4)

        // systemctl stop: KillSignal to the unit's processes (KillMode=control-group: the supervisor and its hosts).
        #expect(unit.values("Service", "KillMode") == ["control-group"])
        kill(supervisor.processIdentifier, SIGTERM)
        for pid in hostPIDs { kill(pid, SIGTERM) }
        supervisor.waitUntilExit()
        stopped = true
        #expect(supervisor.terminationReason == .exit && supervisor.terminationStatus == 0)
        for pid in hostPIDs {
            // Each host exits on its own SIGTERM.
            #expect(try await Poll.until { kill(pid, 0) != 0 }, "host pid \(pid) still runs")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
            .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") || $0.hasSuffix(".ipc") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aTopologyWithATypoIsRefusedWhenWrittenAndAtExecStartPre() async throws {
        let topology = FileManager.default.temporaryDirectory
            .appendingPathComponent("typo-\(UUID().uuidString.prefix(8)).yaml").path
        let good = "window: {name: main, width: 1, height: 1, root: a}\nhosts: [h]\ncontrollers: [{id: a, host: h}]\n"
        try good.replacingOccurrences(of: "host: h}", with: "host: h, titel: A}")
            .write(toFile: topology, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: topology) }
        let (refusedDirectory, refused) = try await Self.write(["--topology", topology])
        defer { try? FileManager.default.removeItem(atPath: refusedDirectory) }
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("did you mean \"title\"?"), "\(refused.stderr)")

        // Written for a good file that is edited afterwards: the unit does not start it.
        try good.write(toFile: topology, atomically: true, encoding: .utf8)
        let (directory, written) = try await Self.write(["--topology", topology])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(written.status == 0, "\(written.stderr)")
        try good.replacingOccurrences(of: "host: h}", with: "host: h, titel: A}")
            .write(toFile: topology, atomically: true, encoding: .utf8)
        let unit = try Unit(String(contentsOfFile: directory + "/containment-supervisor.service", encoding: .utf8))
        let pre = Unit.arguments(try #require(unit.values("Service", "ExecStartPre").first), state: directory)
        let checked = try await RuntimeFixture.run(
            pre[0],
            Array(pre.dropFirst()),
            environment: ["CONTAINMENT_CONFIG": nil]
        )
        #expect(checked.status == 1)
        #expect((checked.stdout + checked.stderr).contains("did you mean \"title\"?"), "\(checked)")
    }
}
