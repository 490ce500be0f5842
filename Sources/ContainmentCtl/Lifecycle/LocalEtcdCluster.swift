import ContainmentConfig
import Foundation

/// The local etcd cluster of a replicated runtime whose endpoints are all on this machine, as `up` starts it and
/// `down` stops it: each member an `etcd` process on loopback, its data (`memberN.data`), log and pid file in the run
/// directory's `etcd/`. Its data outlives a stop: the next `up` starts the same cluster again.
struct LocalEtcdCluster {
    let directory: String
    let members: [LocalEtcdMember]

    /// The pid of a member that runs, by its pid file.
    func runningPID(_ member: LocalEtcdMember) -> Int32? { Lifecycle.livePID(pidFile(member)) }
    private func pidFile(_ member: LocalEtcdMember) -> String { "\(directory)/\(member.name).pid" }
    func log(_ member: LocalEtcdMember) -> String { "\(directory)/\(member.name).log" }

    /// Starts each member that does not run already (those that do are left as they are) and returns them. Whether
    /// the cluster serves is the supervisors' to find out: each stands by only once it has read the journal from it.
    func start(environment: [String: String]) throws -> [(member: LocalEtcdMember, process: Process)] {
        guard let etcd = LocalEtcdMember.executable else {
            throw Lifecycle.failure("up: etcd is not installed (bash scripts/setup.sh etcd installs it)")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var started: [(LocalEtcdMember, Process)] = []
        for member in members where runningPID(member) == nil {
            let data = "\(directory)/\(member.name).data"
            let process = Process()
            // Its signals at their default: started with this thread's mask, it would ignore `down`'s SIGTERM.
            process.setCommandWithDefaultSignals(
                etcd,
                member.arguments(
                    dataDirectory: data,
                    cluster: members,
                    token: token,
                    existing: FileManager.default.fileExists(atPath: data + "/member")
                )
            )
            // The run directory in its environment: a member whose pid file is gone is still found as the runtime's.
            process.environment = environment
            _ = FileManager.default.createFile(atPath: log(member), contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log(member)))
            defer { try? output.close() }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = output
            // Foundation starts it in a process group of its own: a Ctrl-C meant for `up` or `run` does not reach it.
            try process.run()
            try String(process.processIdentifier).write(toFile: pidFile(member), atomically: true, encoding: .utf8)
            started.append((member, process))
        }
        return started
    }

    /// The cluster's token: derived from its directory, so that two clusters on one machine never join each other.
    private var token: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in directory.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "containment-\(String(hash, radix: 16))"
    }

    /// The last lines of a member's log, indented, for a report.
    func logEnd(_ member: LocalEtcdMember, lines: Int = 5) -> String {
        let text = (try? String(contentsOfFile: log(member), encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).suffix(lines).map { "    \($0)" }.joined(separator: "\n")
    }

    /// SIGTERM to every member found by a pid file in `directory`, then SIGKILL to those still running after 2 s (a
    /// member whose peers are stopping may wait ~7 s to hand over its leadership, and etcd's write-ahead log makes a
    /// kill as safe as a stop: nothing committed is lost); pid files removed. How many it stopped.
    static func stop(directory: String) -> Int {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("member") && $0.hasSuffix(".pid") }
        let pids = files.compactMap { Lifecycle.livePID("\(directory)/\($0)") }
        for pid in pids { kill(pid, SIGTERM) }
        // Polled every 0.05 s.
        for _ in 0..<40 where pids.contains(where: Lifecycle.alive) { usleep(50_000) }
        Lifecycle.killAndWait(pids)
        for file in files { try? FileManager.default.removeItem(atPath: "\(directory)/\(file)") }
        return pids.count
    }
}
