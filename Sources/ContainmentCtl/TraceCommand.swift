import ArgumentParser
import ContainmentHost
import ContainmentBus
import ContainmentTracing
import Foundation

/// `containment trace COMMAND-ID`: the waterfall of one traced command — the client's span, the supervisor's hops
/// (decode, admission, model, journal, publish, reply, deliver) and each host's dispatch and actor callbacks — from
/// the spans each process keeps (docs/PROTOCOL.md, "Tracing").
package struct TraceCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Show where one traced command spent its time, hop by hop, from the client to the actors' callbacks.",
        discussion: """
            Commands sent by `containment ctl` are traced; `ctl --json` prints their command id (`ctl --trace` prints \
            this waterfall at once). Each process keeps its latest 4,096 spans: an old command's may be gone.
            """
    )

    @Argument(help: "The command's id (an `accepted` reply's commandId, or an event's command_id).")
    var commandID: UInt64

    @Flag(help: "One JSON object per span, in the waterfall's order, with its depth.")
    var json = false

    @OptionGroup var runtime: RuntimeOptions

    package init() {}

    package func run() async throws {
        let connection = try Connection(runtime)
        try TraceOutput.show(commandID, through: connection, json: json)
    }
}

/// The trace of a command as `containment trace` and `ctl --trace` print it.
enum TraceOutput {
    static func show(_ commandID: UInt64, through connection: Connection, json: Bool) throws {
        let report: TraceReport
        do {
            report = try connection.client.trace(commandID)
        } catch {
            FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
            throw ExitStatus.of(error.code)
        }
        guard !report.spans.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "notFound: no spans of command \(commandID): it was not traced, or its spans were overwritten\n"
                        .utf8
                )
            )
            throw ExitStatus.rejected
        }
        let waterfall = TraceWaterfall(report.spans)
        if json {
            for row in waterfall.rows { print(JSONText.encode(object(row))) }
        } else {
            print("command \(commandID)")
            print(waterfall.rendered())
        }
        if !report.unanswered.isEmpty {
            FileHandle.standardError.write(
                Data("hosts that did not answer in time: \(report.unanswered.joined(separator: ", "))\n".utf8)
            )
        }
    }

    static func object(_ row: TraceWaterfall.Row) -> [String: Any] {
        let span = row.span
        var object: [String: Any] = [
            "traceId": span.traceID.description, "spanId": span.spanID.description, "name": span.name,
            "process": span.process, "startUnixNanos": span.startUnixNanos, "endUnixNanos": span.endUnixNanos,
            "commandId": span.commandID, "depth": row.depth,
        ]
        if let parent = span.parentSpanID { object["parentSpanId"] = parent.description }
        if !span.detail.isEmpty { object["detail"] = span.detail }
        return object
    }
}
