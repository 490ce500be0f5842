import ContainmentEtcd
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Testing

/// One etcd member secured as a production cluster is: TLS with a certificate of a CA made for the test, client
/// certificates required (`--client-cert-auth`), and etcd's authentication on, with user `root` (password in
/// `password.txt`). The client certificate's name is no etcd user, so the password is what authenticates. Its files
/// (`ca.pem`, `client.pem`, `client.key`, `other-client.*` of another CA) are in `directory`; the member is stopped
/// and the directory removed when the test ends.
struct SecuredEtcd: Sendable {
    let directory: String
    let clientPort: Int

    var endpoint: String { "https://127.0.0.1:\(clientPort)" }

    /// `journal: etcd` over TLS with the client certificate and the user, as runtime.yaml says it.
    func settings(prefix: String) -> String {
        """
        journal: etcd
        etcd:
          endpoints: [\(endpoint)]
          prefix: \(prefix)
          leaseSeconds: 3
          caFile: \(directory)/ca.pem
          certFile: \(directory)/client.pem
          keyFile: \(directory)/client.key
          user: root
          passwordFile: \(directory)/password.txt

        """
    }

    /// The settings of a client: `certificate` (`client`, `other-client`, nil: none) and `password` (nil: no user).
    func clientSettings(certificate: String? = "client", password: String? = "password.txt") -> EtcdSettings {
        var settings = EtcdSettings(endpoints: [endpoint])
        settings.requestTimeout = .seconds(45)
        settings.caFile = directory + "/ca.pem"
        if let certificate {
            settings.certFile = "\(directory)/\(certificate).pem"
            settings.keyFile = "\(directory)/\(certificate).key"
        }
        if let password {
            settings.user = "root"
            settings.passwordFile = "\(directory)/\(password)"
        }
        return settings
    }

    /// Makes the certificates, starts the member, turns authentication on, and runs `body`.
    static func with<Result>(_ body: (SecuredEtcd) async throws -> Result) async throws -> Result {
        let clientPort = try await MetricsTests.freePort()
        let peerPort = try await MetricsTests.freePort()
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = "\(base)/etcd-test-tls-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let etcd = SecuredEtcd(directory: directory, clientPort: clientPort)
        defer {
            if let text = try? String(contentsOfFile: directory + "/member.pid", encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
        let started = try await RuntimeFixture.run(
            "/bin/bash",
            ["-c", Self.script, "secured-etcd", directory, String(clientPort), String(peerPort)]
        )
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/member.log", encoding: .utf8)) ?? ""
            throw FixtureError("the secured etcd did not start: \(started.stderr)\n\(log.suffix(2_000))")
        }
        return try await body(etcd)
    }

    /// `secured-etcd DIR CLIENT-PORT PEER-PORT`: certificates (a CA, the member's for 127.0.0.1, a client's, and a
    /// client's of another CA), the member (its pid in DIR/member.pid), then user root with the root role, and auth
    /// enabled.
    private static let script = #"""
        set -euo pipefail
        dir="$1" client="$2" peer="$3"
        cd "$dir"
        certificate() {  # certificate NAME CA SUBJECT EXTENSIONS
            openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "$3" 2>/dev/null
            printf '%s\n' "$4" >"$1.ext"
            openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -out "$1.pem" -days 1 \
                -extfile "$1.ext" 2>/dev/null
        }
        for ca in ca other-ca; do
            openssl req -x509 -newkey rsa:2048 -nodes -keyout "$ca.key" -out "$ca.pem" -days 1 \
                -subj "/CN=containment-test-$ca" 2>/dev/null
        done
        certificate member ca /CN=127.0.0.1 \
            $'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth'
        certificate client ca /CN=containment-client extendedKeyUsage=clientAuth
        certificate other-client other-ca /CN=containment-client extendedKeyUsage=clientAuth
        printf 's3cret' >password.txt
        printf 'wrong' >wrong-password.txt
        setsid etcd --name member1 --data-dir "$dir/member1.data" \
            --listen-client-urls "https://127.0.0.1:$client" --advertise-client-urls "https://127.0.0.1:$client" \
            --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
            --initial-cluster "member1=http://127.0.0.1:$peer" --initial-cluster-token "tls-$client" \
            --cert-file member.pem --key-file member.key --trusted-ca-file ca.pem --client-cert-auth \
            >member.log 2>&1 </dev/null &
        echo $! >member.pid
        ctl() {
            ETCDCTL_API=3 etcdctl --endpoints "https://127.0.0.1:$client" --cacert ca.pem --cert client.pem \
                --key client.key --dial-timeout 2s "$@"
        }
        for _ in $(seq 1 200); do
            if ctl endpoint health >/dev/null 2>&1; then break; fi
            sleep 0.1
        done
        ctl user add root:s3cret --interactive=false >/dev/null
        ctl role add root >/dev/null
        ctl user grant-role root root >/dev/null
        ctl auth enable >/dev/null
        """#
}
