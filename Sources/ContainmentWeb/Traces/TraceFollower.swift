import ContainmentBus
import ContainmentConfig
import ContainmentModel
import ContainmentTracing
import Foundation
import Logging
import ServiceLifecycle

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows the supervisor's traced commands and exports each one's spans over OTLP/HTTP: every `interval` it asks for
/// the commands traced since the last it saw (`tracedCommands(after:)`), and gathers the spans of those it saw one
/// round earlier (`trace(_:)`: the supervisor's, the client's and the hosts' — a round's wait lets the client's
/// report and the hosts' actors finish), then posts them as one export request. Each command is gathered once: spans
/// a collector refuses or cannot be reached for wait for the next round (at most ``maxUnposted``, the oldest given
/// up first), and commands the supervisor did not answer for wait to be gathered (at most ``maxWaiting``). On a
/// graceful shutdown the commands listed so far are gathered and posted once more.
struct TraceFollower: Service {
    let supervisor: SupervisorLink
    let endpoint: URL
    let interval: Duration
    let logger: Logger

    /// The most commands kept waiting for a supervisor that does not answer.
    static let maxWaiting = 10_000
    /// The most gathered spans kept for a collector that does not take them.
    static let maxUnposted = 100_000

    /// `http://collector:4318` → `http://collector:4318/v1/traces`; an endpoint with a path is used as it is (as
    /// OpenTelemetry's `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).
    static func tracesURL(_ endpoint: String) -> URL? {
        guard var components = URLComponents(string: endpoint),
            components.scheme == "http" || components.scheme == "https",
            components.host != nil
        else { return nil }
        if components.path.isEmpty || components.path == "/" { components.path = "/v1/traces" }
        return components.url
    }

    func run() async throws {
        var cursor: UInt64 = 0
        var listed: [UInt64] = []
        var toGather: [UInt64] = []
        var unposted: [TraceSpan] = []
        var answered = true
        while !Task.isShuttingDownGracefully {
            toGather += listed
            (listed, answered) = await list(after: &cursor)
            await gather(&toGather, into: &unposted)
            await post(&unposted)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        // The last round, unless the supervisor stopped answering (a stop would wait out its timeouts).
        if answered {
            toGather += listed + (await list(after: &cursor)).ids
            await gather(&toGather, into: &unposted)
        }
        await post(&unposted)
    }

    /// The commands traced since `cursor`, which moves past them, and whether the supervisor answered.
    private func list(after cursor: inout UInt64) async -> (ids: [UInt64], answered: Bool) {
        let after = cursor
        switch await supervisor.ask({ client throws(ContainmentError) in try client.tracedCommands(after: after) }) {
        case .success(let ids):
            cursor = ids.last ?? cursor
            return (ids, true)
        case .failure(let error):
            logger.warning("cannot list traced commands", metadata: ["error.message": "\(error.message)"])
            return ([], false)
        }
    }

    /// Gathers the spans of the commands in `ids`, in order, into `spans`; each one gathered leaves the list. At the
    /// supervisor's first failure to answer the rest wait for the next round (asking on would wait out a timeout
    /// each); past ``maxWaiting`` the oldest are given up. A command without spans is no longer kept (the
    /// processes' rings moved on): nothing to wait for.
    private func gather(_ ids: inout [UInt64], into spans: inout [TraceSpan]) async {
        var gathered = 0
        asking: for id in ids {
            switch await supervisor.ask({ client throws(ContainmentError) in try client.trace(id) }) {
            case .success(let report):
                spans += report.spans
                gathered += 1
                if !report.unanswered.isEmpty {
                    logger.notice(
                        "gathered a command without some hosts' spans",
                        metadata: ["command.id": "\(id)", "host.names": "\(report.unanswered.joined(separator: ","))"]
                    )
                }
            case .failure(let error):
                logger.warning(
                    "cannot gather a command's spans",
                    metadata: ["command.id": "\(id)", "error.message": "\(error.message)"]
                )
                break asking
            }
        }
        ids.removeFirst(gathered)
        if ids.count > Self.maxWaiting {
            logger.warning("gave up exporting commands", metadata: ["command.count": "\(ids.count - Self.maxWaiting)"])
            ids.removeFirst(ids.count - Self.maxWaiting)
        }
    }

    /// Posts `spans` as one export request: emptied once the collector took them; kept for the next round when it
    /// did not, past ``maxUnposted`` the oldest given up — gathered once, however long the collector is away.
    private func post(_ spans: inout [TraceSpan]) async {
        guard !spans.isEmpty else { return }
        if await post(OTLPTraces.json(spans, version: ContainmentRelease.number)) {
            spans.removeAll()
        } else if spans.count > Self.maxUnposted {
            logger.warning("gave up exporting spans", metadata: ["span.count": "\(spans.count - Self.maxUnposted)"])
            spans.removeFirst(spans.count - Self.maxUnposted)
        }
    }

    /// Posts one export request; whether the collector took it.
    private func post(_ body: [UInt8]) async -> Bool {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        request.timeoutInterval = 10
        do {
            let (answer, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard (200..<300).contains(status) else {
                logger.warning(
                    "the collector refused spans",
                    metadata: [
                        "http.status": "\(status)",
                        "error.message": "\(String(decoding: answer.prefix(200), as: UTF8.self))",
                    ]
                )
                return false
            }
            return true
        } catch {
            logger.warning(
                "cannot reach the collector",
                metadata: ["endpoint.otlp": "\(endpoint)", "error.message": "\(error)"]
            )
            return false
        }
    }
}
