import ContainmentHost
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Subprocess
import Testing

/// Issue 27, strict configuration: an unknown key in a topology or runtime.yaml is refused with its line and the
/// nearest known key, by the loaders, by `containment config check` and by `scripts/up.sh`.
@Suite struct StrictConfigTests {
    static func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            Issue.record("accepted")
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func aTopologysTyposAreRefusedWithTheirLinesAndTheKeysMeant() {
        let message = Self.refusal {
            _ = try Topology.parse(
                """
                window: {name: main, width: 800, height: 600, root: a}
                hosts:
                  - {name: h0, executable: [./app]}
                controllers:
                  - {id: a, host: h0, titel: A}
                  - id: b
                    host: h0
                    parnet: a
                """
            )
        }
        let lines = message.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(message)")
        #expect(
            lines.first?.hasPrefix("line 3: unknown key \"executable\" in host h0 (its keys: name, restart") == true
        )
        #expect(
            lines.dropFirst().first?.hasPrefix("line 5: unknown key \"titel\" in controller a; did you mean \"title\"?")
                == true
        )
        #expect(
            lines.last?.hasPrefix("line 8: unknown key \"parnet\" in controller b; did you mean \"parent\"?") == true
        )
    }

    @Test func theWindowAndTheTopLevelAreCheckedToo() {
        let message = Self.refusal {
            _ = try Topology.parse(
                "windw: {name: main, width: 1, height: 1, root: a}\ncontrollers: [{id: a, host: h}]\n"
            )
        }
        #expect(message.hasPrefix("line 1: unknown key \"windw\" in the top level; did you mean \"window\"?"))
        let window = Self.refusal {
            _ = try Topology.parse(
                "window: {name: main, width: 1, hieght: 1, root: a}\ncontrollers: [{id: a, host: h}]\n"
            )
        }
        #expect(window.hasPrefix("line 1: unknown key \"hieght\" in the window; did you mean \"height\"?"), "\(window)")
    }

    @Test func runtimeSettingsTyposAreRefusedWithTheFileAndLine() throws {
        let message = Self.refusal {
            _ = try RuntimeConfigTests.load("maxBatch: 5\nheartbeatIntervalMS: 200\ncurve: {server: x, alow: []}\n")
        }
        #expect(
            message.contains(
                ".yaml: line 2: unknown key \"heartbeatIntervalMS\" in the runtime configuration; did you mean \"heartbeatIntervalMs\"?"
            ),
            "\(message)"
        )
        #expect(message.contains("line 3: unknown key \"alow\" in curve; did you mean \"allow\"?"), "\(message)")
        // Every key of the shipped file is known.
        for name in ["runtime.yaml", "runtime-secure.yaml"] {
            let shipped = RuntimeFixture.repository.appendingPathComponent("Config/\(name)").path
            _ = try RuntimeConfig.load(from: shipped, environment: ["CONTAINMENT_RUN_DIR": "/tmp/run-config-test"])
        }
    }

    @Test func everyShippedTopologyHoldsOnlyKnownKeys() throws {
        let config = RuntimeFixture.repository.appendingPathComponent("Config")
        var files = try FileManager.default.contentsOfDirectory(
            atPath: config.appendingPathComponent("topologies").path
        )
        .filter { $0.hasSuffix(".yaml") }.map { config.appendingPathComponent("topologies/\($0)").path }
        files.append(RuntimeFixture.repository.appendingPathComponent("Examples/GridApp/Config/grid.yaml").path)
        #expect(files.count > 3)
        for file in files {
            try Topology.load(path: file).checkKinds(standardHost: BehaviorRegistry.builtIn.kinds)
        }
    }

    /// Issue 42, item 7: a topology naming a kind its host does not run (`wormhole` on `containment host`) passed
    /// `config check` and `up.sh`, and the controller ran as plain content. A host of the app's own (`command:`) or one
    /// started elsewhere (`remote`) may run any kind; `containment host` runs its own and the standard containers.
    @Test func aKindItsHostDoesNotRunIsRefused() throws {
        let kinds = BehaviorRegistry.builtIn.kinds
        let message = Self.refusal {
            try Topology.parse(
                """
                hosts: [h0, {name: app, command: [./AppHost]}, {name: far, remote: true}]
                controllers:
                  - {id: tabs, kind: tab, host: h0}
                  - {id: s, kind: split, host: h0}
                  - {id: c, kind: counter, host: h0}
                  - {id: g, kind: grid, host: app}
                  - {id: r, kind: ring, host: far}
                  - {id: hole, kind: wormhole, host: h0}
                """
            ).checkKinds(standardHost: kinds)
        }
        #expect(
            message.hasPrefix("controller hole is of kind \"wormhole\", which its host h0 does not run: "),
            "\(message)"
        )
        #expect(message.contains("runs book, busy, content, counter,") && message.contains("{name: h0, command: "))
        try Topology.parse("hosts: [h0]\ncontrollers: [{id: c, kind: stack, host: h0}]\n").checkKinds(
            standardHost: kinds
        )
    }

    @Test func configCheckAndUpRefuseATypoWithItsLineAndPassAGoodFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strict-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.yaml").path
        try "window: {name: main, width: 800, height: 600, root: a}\ncontrollers:\n  - {id: a, host: h0, titel: A}\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let good = RuntimeFixture.repository.appendingPathComponent("Config/topologies/tabs.yaml").path

        let refused = try await RuntimeFixture.run(RuntimeFixture.binary, ["config", "check", "--topology", bad])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("bad.yaml: line 3: unknown key \"titel\" in controller a; did you mean \"title\"?"),
            "\(refused.stderr)"
        )
        let passed = try await RuntimeFixture.run(RuntimeFixture.binary, ["config", "check", "--topology", good])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stdout.contains("topology \(good): ok"))

        let environment: [Environment.Key: String?] = [
            "CONTAINMENT_RUN_DIR": directory.appendingPathComponent("run").path
        ]
        let up = try await RuntimeFixture.run(
            "/bin/bash",
            [RuntimeFixture.repository.appendingPathComponent("scripts/up.sh").path, bad],
            environment: environment
        )
        #expect(up.status != 0)
        #expect((up.stdout + up.stderr).contains("did you mean \"title\"?"), "\(up.stdout)\(up.stderr)")

        // A kind its host does not run: refused by both, naming it.
        let wormhole = directory.appendingPathComponent("wormhole.yaml").path
        try "hosts: [h0]\ncontrollers:\n  - {id: hole, kind: wormhole, host: h0}\n"
            .write(toFile: wormhole, atomically: true, encoding: .utf8)
        let unknown = try await RuntimeFixture.run(RuntimeFixture.binary, ["config", "check", "--topology", wormhole])
        #expect(unknown.status == 1 && unknown.stderr.contains("kind \"wormhole\", which its host h0 does not run"))
        let upUnknown = try await RuntimeFixture.run(
            "/bin/bash",
            [RuntimeFixture.repository.appendingPathComponent("scripts/up.sh").path, wormhole],
            environment: environment
        )
        #expect(upUnknown.status != 0 && upUnknown.stderr.contains("which its host h0 does not run"), "\(upUnknown)")
    }
}
