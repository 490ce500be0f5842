import ArgumentParser
import Foundation

extension Lifecycle {
    /// Stops every daemon: containment-web's servers; the supervisors (which stop the hosts they started) — a
    /// replicated runtime's standbys first and its leader last, since a stopped leader hands over to a standby at
    /// once; any host left; any daemon of the run directory without a pid file; the local etcd cluster (its data
    /// stays); then removes what was left behind. What it stopped, and each thing that was not as it should be.
    func stopAll() -> (stopped: [String], problems: [String]) {
        var stopped: [String] = []
        var problems: [String] = []
        let files = (try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? []
        let hostFiles = files.filter { $0.hasPrefix("host-") && $0.hasSuffix(".pid") }.sorted()
        func hostName(_ file: String) -> String { String(file.dropFirst("host-".count).dropLast(".pid".count)) }
        for web in ["inspector", "metrics", "traces"] where files.contains("\(web).pid") {
            stop(pidFile: "\(runDirectory)/\(web).pid", name: web, stopped: &stopped, problems: &problems)
        }
        let running = hostFiles.filter { Self.livePID("\(runDirectory)/\($0)") != nil }
        let supervisorFiles = supervisorFilesInStoppingOrder(files)
        for file in supervisorFiles {
            let name = file == "supervisor.pid" ? "supervisor" : "supervisor \(file.dropFirst(11).dropLast(4))"
            stop(pidFile: "\(runDirectory)/\(file)", name: name, stopped: &stopped, problems: &problems)
        }
        if !supervisorFiles.isEmpty {
            let byThem = running.filter { !FileManager.default.fileExists(atPath: "\(runDirectory)/\($0)") }
            if !byThem.isEmpty {
                stopped.append("the hosts it stopped (\(byThem.map(hostName).joined(separator: ", ")))")
            }
        }
        for file in hostFiles where FileManager.default.fileExists(atPath: "\(runDirectory)/\(file)") {
            stop(
                pidFile: "\(runDirectory)/\(file)",
                name: "host \(hostName(file))",
                stopped: &stopped,
                problems: &problems
            )
        }
        let etcd = runDirectory + "/etcd"
        let members = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: etcd)) ?? []).filter { $0.hasSuffix(".pid") }
                .compactMap { Self.livePID("\(etcd)/\($0)") }
        )
        for (pid, role) in daemonsWithoutPIDFile() where !members.contains(pid) {
            problems.append("\(role) (pid \(pid)) ran without a pid file; stopped")
            terminate(pid)
        }
        let stoppedMembers = LocalEtcdCluster.stop(directory: etcd)
        if stoppedMembers > 0 { stopped.append("etcd (\(stoppedMembers) local members; their data stays)") }
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? [])
            .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }.sorted()
        if !left.isEmpty {
            problems.append("left behind, now removed: \(left.joined(separator: ", "))")
            for file in left { try? FileManager.default.removeItem(atPath: "\(runDirectory)/\(file)") }
        }
        return (stopped, problems)
    }

    /// The supervisors' pid files in the order to stop them: a replicated runtime's standbys, then those whose log's
    /// last word is that they lead, then the one of a runtime journaling to a directory.
    private func supervisorFilesInStoppingOrder(_ files: [String]) -> [String] {
        let named = files.filter { $0.hasPrefix("supervisor-") && $0.hasSuffix(".pid") }.sorted()
        let leaders = named.filter { leads(log: "\(runDirectory)/logs/\($0.dropLast(4)).log") }
        return named.filter { !leaders.contains($0) } + leaders + files.filter { $0 == "supervisor.pid" }
    }

    /// Whether a replicated supervisor's log says last that it leads (`supervisor leads`, not followed by `no longer
    /// leads`). The log is mapped, not read: a long-running supervisor's may be large.
    private func leads(log: String) -> Bool {
        guard let text = try? Data(contentsOf: URL(fileURLWithPath: log), options: .alwaysMapped) else { return false }
        guard let led = text.range(of: Data("supervisor leads".utf8), options: .backwards) else { return false }
        guard let stepped = text.range(of: Data("no longer leads".utf8), options: .backwards) else { return true }
        return led.lowerBound > stepped.lowerBound
    }

    private func stop(pidFile: String, name: String, stopped: inout [String], problems: inout [String]) {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        guard Self.alive(pid) else {
            problems.append("\(name) (pid \(pid)) was not running; removed its stale pid file")
            try? FileManager.default.removeItem(atPath: pidFile)
            return
        }
        if terminate(pid) {
            stopped.append("\(name) (pid \(pid))")
        } else {
            problems.append("\(name) (pid \(pid)) ignored SIGTERM for 10 s; killed")
            try? FileManager.default.removeItem(atPath: pidFile)
        }
    }

    /// SIGTERM, then SIGKILL after 10 s; whether it stopped on its own. Polled every 0.1 s.
    @discardableResult
    private func terminate(_ pid: Int32) -> Bool {
        kill(pid, SIGTERM)
        for _ in 0..<100 {
            if !Self.alive(pid) { return true }
            usleep(100_000)
        }
        Self.killAndWait([pid])
        return false
    }

    /// This run directory's daemons (by their environment) that no pid file names: their pid and role.
    private func daemonsWithoutPIDFile() -> [(Int32, String)] {
        let mine = "CONTAINMENT_RUN_DIR=\(runDirectory)"
        var found: [(Int32, String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(), Self.alive(pid),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == mine }),
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let program = words.first ?? ""
            if words.contains(where: { $0.hasPrefix("\(runDirectory)/host-") }) {
                found.append((pid, "host"))  // an app's own host executable too
            } else if program.hasSuffix("/etcd") || program == "etcd" {
                found.append((pid, "etcd member"))
            } else if ["containment", "containment-etcd", "containment-web"].contains(where: { program.hasSuffix($0) }),
                let role = words.dropFirst().first,
                ["supervisor", "host", "inspector", "metrics", "traces"].contains(role)
            {
                found.append((pid, role))
            }
        }
        return found
    }
}

extension Lifecycle {
    /// Stops every daemon of the run directory (``stopAll()``) and says what it stopped, on standard output, and each
    /// problem, on standard error; exit 1 when there was one.
    func stopAndSay() throws {
        let report = stopAll()
        for line in report.problems { FileHandle.standardError.write(Data("down: \(line)\n".utf8)) }
        if report.stopped.isEmpty && report.problems.isEmpty {
            print("down: nothing runs in \(runDirectory)")
        } else if !report.stopped.isEmpty {
            print(
                "down: stopped \(report.stopped.joined(separator: ", ")); nothing left in \(runDirectory) "
                    + "but logs, the journal and the lock file"
            )
        }
        if !report.problems.isEmpty { throw ExitCode(1) }
    }
}
