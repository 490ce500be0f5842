import ContainmentBus
import ContainmentLoad
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import ZeroMQ

/// What durability costs (docs/BENCH.md, "Durability"): recovery from a long journal and from a large checkpoint, and
/// the round trip and pipelined figures under each `journalSync` mode.
struct DurabilityFigures: Codable, Sendable {
    /// Round trips and pipelined commands through a supervisor whose journal is synced per `mode`.
    struct SyncMode: Codable, Sendable {
        var mode: String
        var roundTrip: Latency
        var pipelinedPerSecond: Double
    }

    var journalRecovery: RecoveryBenchmark.Figure
    var checkpointRecovery: RecoveryBenchmark.Figure
    /// Recovery of a journal whose answers are large: memory warnings to many controllers, each from its own client.
    var answersRecovery: RecoveryBenchmark.Figure
    var diskSync: DiskSyncFigure
    var syncModes: [SyncMode]
}

extension BenchRunner {
    /// Recovery of `settings.recoveryEvents` events from segments alone and of `settings.recoveryControllers`
    /// controllers from a checkpoint; then one supervisor per `journalSync` mode, each measured alike.
    func durability() throws -> DurabilityFigures {
        progress("recovery: writing a journal of \(settings.recoveryEvents) events")
        let journal = directory + "/recovery-journal"
        try RecoveryBenchmark.writeJournal(events: settings.recoveryEvents, directory: journal)
        progress("recovery: recovering it")
        let journalRecovery = try RecoveryBenchmark.recover(directory: journal)
        try? FileManager.default.removeItem(atPath: journal)

        progress("recovery: writing a checkpoint of \(settings.recoveryControllers) controllers")
        let checkpoint = directory + "/recovery-checkpoint"
        try RecoveryBenchmark.writeCheckpoint(controllers: settings.recoveryControllers, directory: checkpoint)
        progress("recovery: recovering it")
        let checkpointRecovery = try RecoveryBenchmark.recover(directory: checkpoint)
        try? FileManager.default.removeItem(atPath: checkpoint)

        let (warnings, warned) = settings.quick ? (40, 1_000) : (400, 10_000)
        progress("recovery: writing \(warnings) memory warnings to \(warned) controllers, each from its own client")
        let answers = directory + "/recovery-answers"
        try RecoveryBenchmark.writeLargeAnswers(controllers: warned, warnings: warnings, directory: answers)
        progress("recovery: recovering it")
        let answersRecovery = try RecoveryBenchmark.recover(directory: answers)
        try? FileManager.default.removeItem(atPath: answers)

        progress("the disk: one fdatasync after a write, appending and over reserved space")
        let diskSync = try DiskSyncFigure.measure(directory: directory, count: settings.quick ? 100 : 500)

        var modes: [DurabilityFigures.SyncMode] = []
        for mode in JournalSync.allCases {
            progress("journalSync \(mode.rawValue): round trips and pipelined requests")
            modes.append(try syncMode(mode))
        }
        return DurabilityFigures(
            journalRecovery: journalRecovery,
            checkpointRecovery: checkpointRecovery,
            answersRecovery: answersRecovery,
            diskSync: diskSync,
            syncModes: modes
        )
    }

    /// The figures of ``journalFigures(endpoint:)`` through a fresh supervisor.
    private func syncMode(_ mode: JournalSync) throws -> DurabilityFigures.SyncMode {
        let runtime = try LocalRuntime(hosts: 1, settings: Self.benchSettings + "journalSync: \(mode.rawValue)\n")
        defer { runtime.stop() }
        let figures = try journalFigures(endpoint: runtime.config.commandEndpoint)
        return .init(mode: mode.rawValue, roundTrip: figures.roundTrip, pipelinedPerSecond: figures.pipelinedPerSecond)
    }

    /// Creates each client's controller (`b0`, `b1`, …) with its view loaded, so its `set_alpha` is accepted.
    func prepareClients(endpoint: String) throws {
        let client = try CommandClient(context: context, endpoint: endpoint, timeout: .seconds(30))
        for index in 0..<settings.clients {
            let id = ControllerID(BenchMessages.controller(index))
            _ = try client.submit(
                [.system(.create(id, kind: .content)), Request(.loadView(id), by: .natural)],
                hosts: [id: "h0"]
            )
        }
    }
}
