import ContainmentEtcd
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// `journal: etcd` against a secured member (``SecuredEtcd``: TLS, client certificates, etcd's users): the settings
/// runtime.yaml gives (`caFile`, `certFile`, `keyFile`, `user`, `passwordFile`) reach it, streams included; a client
/// short of any of them is refused with a typed error; a supervisor journals through them.
@Suite(.serialized) struct SecuredEtcdTests {
    @Test func keysLeasesAndWatchesWorkOverTLSWithACertificateAndAUser() async throws {
        try await SecuredEtcd.with { etcd in
            let settings = etcd.clientSettings()
            try await runOnThread(named: "etcd-test") {
                let store = try GRPCEtcdStore(settings: settings)
                defer { store.close() }
                let written = try store.put("/t/a", [1, 2])
                #expect(try store.range("/t/a").kvs.map(\.value) == [[1, 2]])
                // Streams carry the token too: a lease's renewal, a watch. (A lease long enough that no load lets it
                // lapse before its renewal's stream has made its TLS handshake: 2 s once did, in CI.)
                let lease = try store.grantLease(seconds: 30)
                #expect(try store.keepAlive(lease.id) >= 2)
                let watch = try store.watch("/t/", end: "/t0", from: written)
                defer { watch.cancel() }
                try store.put("/t/b", [3], lease: lease.id)
                var seen: [String] = []
                let deadline = ContinuousClock.now + .seconds(10)
                while seen.count < 2, ContinuousClock.now < deadline {
                    seen += try watch.next(timeout: .milliseconds(200)).compactMap { $0.put?.key }
                }
                #expect(seen == ["/t/a", "/t/b"])
            }
        }
    }

    @Test func aClientShortOfTheCertificateOrThePasswordIsRefusedTyped() async throws {
        try await SecuredEtcd.with { etcd in
            var quick = [
                "wrong password": etcd.clientSettings(password: "wrong-password.txt"),
                "no user": etcd.clientSettings(password: nil),
                "no password file": etcd.clientSettings(password: "absent.txt"),
                "another CA's certificate": etcd.clientSettings(certificate: "other-client"),
                "no certificate": etcd.clientSettings(certificate: nil),
            ]
            for key in quick.keys { quick[key]?.requestTimeout = .seconds(3) }
            let cases = quick
            let outcomes = try await runOnThread(named: "etcd-test") { () -> [String: EtcdError.Kind?] in
                cases.mapValues { settings in
                    do {
                        let store = try GRPCEtcdStore(settings: settings)
                        defer { store.close() }
                        _ = try store.put("/t/refused", [1])
                        return nil
                    } catch let error as EtcdError {
                        return error.kind
                    } catch {
                        return .malformed
                    }
                }
            }
            // etcd refuses a wrong password as an invalid argument (gRPC 3), a request without a user as denied
            // (7); a password that cannot be read is refused before any request; without a certificate it trusts,
            // no connection is made.
            #expect(outcomes["wrong password"] == .refused(code: 3), "\(outcomes)")
            #expect(outcomes["no user"] == .refused(code: 7), "\(outcomes)")
            #expect(outcomes["no password file"] == .refused(code: 16), "\(outcomes)")
            #expect(outcomes["another CA's certificate"] == .unreachable, "\(outcomes)")
            #expect(outcomes["no certificate"] == .unreachable, "\(outcomes)")
        }
    }

    @Test func aSupervisorJournalsToASecuredEtcd() async throws {
        try await SecuredEtcd.with { etcd in
            let run = "/tmp/containment-test-tls-\(UUID().uuidString.prefix(6))"
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: run) }
            let prefix = "/containment/tls"
            try (etcd.settings(prefix: prefix) + "acceptUnknownHosts: true\n")
                .write(toFile: run + "/runtime.yaml", atomically: true, encoding: .utf8)
            let environment = ["CONTAINMENT_RUN_DIR": run, "CONTAINMENT_CONFIG": run + "/runtime.yaml"]
            let supervisor = Process()
            supervisor.executableURL = URL(fileURLWithPath: RuntimeFixture.etcdBinary)
            supervisor.arguments = ["supervisor", "--pid-file", run + "/supervisor.pid"]
            supervisor.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            let log = run + "/supervisor.log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            supervisor.standardOutput = output
            supervisor.standardError = output
            try supervisor.run()
            defer {
                supervisor.terminate()
                supervisor.waitUntilExit()
            }
            func containment(_ arguments: String...) async throws -> RuntimeFixture.Output {
                try await RuntimeFixture.run(
                    RuntimeFixture.etcdBinary,
                    arguments,
                    environment: ["CONTAINMENT_RUN_DIR": run, "CONTAINMENT_CONFIG": run + "/runtime.yaml"]
                )
            }
            let created = try await Poll.value(within: .seconds(30), every: .milliseconds(100)) {
                () -> RuntimeFixture.Output? in
                let created = try await containment("ctl", "create", "root", "--kind", "content")
                return created.status == 0 ? created : nil
            }
            let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(created != nil, "\(logged)")
            #expect(logged.contains("supervisor leads"), "\(logged)")
            let tree = try await containment("tree", "--json")
            #expect(try FailoverTests.controllers(tree.stdout).count == 1, "\(tree.stdout)")
            // Its journal is in etcd, read through the same secured settings.
            let settings = etcd.clientSettings()
            let entries = try await runOnThread(named: "etcd-test") {
                let store = try GRPCEtcdStore(settings: settings)
                defer { store.close() }
                return try JournalReplay.entries(from: store, keys: EtcdKeys(prefix: prefix)).count
            }
            #expect(entries >= 1)
        }
    }
}
