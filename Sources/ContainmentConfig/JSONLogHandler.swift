import ContainmentBus
import Foundation
import Logging

/// How the daemons write their log lines (`--log-format`, runtime.yaml `logFormat`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's `StreamLogHandler`: a timestamp, the level, the message and `key=value` metadata.
    case text
    /// One JSON object a line, for log shippers (``JSONLogHandler``).
    case json
}

/// A swift-log handler that writes one JSON object a line to standard error: `time` (ISO 8601, UTC, milliseconds),
/// `level`, `logger` (the label), `message`, then every metadata key as a field of its own (the daemons' keys are
/// dotted: `host.name`, `peer.id`, `command.id`, …), a nested dictionary as an object and a list as an array. Each line
/// is written with one `write`, so the lines of concurrent tasks do not interleave.
public struct JSONLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error.
    public init(label: String) {
        self.init(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A handler handing each line (with its newline) to `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        for (key, value) in metadata { fields[key] = Self.json(value) }
        for (key, value) in event.metadata ?? [:] { fields[key] = Self.json(value) }
        fields["time"] = Self.timestamp(Date())
        fields["level"] = event.level.rawValue
        fields["logger"] = label
        fields["message"] = event.message.description
        write(Self.line(fields))
    }

    /// The fields as one line: `time`, `level`, `logger` and `message` first, then the rest by key.
    package static func line(_ fields: [String: Any]) -> String {
        let first = ["time", "level", "logger", "message"]
        let keys = first.filter { fields[$0] != nil } + fields.keys.filter { !first.contains($0) }.sorted()
        let members = keys.map { key in "\(JSONText.encodeString(key)):\(JSONText.encode(fragment: fields[key] ?? ""))"
        }
        return "{" + members.joined(separator: ",") + "}\n"
    }

    package static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .dictionary(let dictionary): dictionary.mapValues(json)
        case .array(let array): array.map(json)
        }
    }

    package static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}
