import Foundation
import Logging
import Synchronization
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The daemons' logs: constant messages with dotted metadata keys in every log call of the sources, one JSON object
/// a line with `logFormat: json`, from the supervisor and from the hosts it starts.
@Suite struct LoggingTests {
    @Test func aJSONLineHasTheTimeLevelLoggerMessageAndEveryMetadataKey() throws {
        let lines = Mutex<[String]>([])
        var handler = JSONLogHandler(label: "containment.test") { line in lines.withLock { $0.append(line) } }
        handler[metadataKey: "host.name"] = "h1"
        var logger = Logger(label: "containment.test") { _ in handler }
        logger.logLevel = .debug
        logger.warning(
            "host down",
            metadata: ["error.message": "a \"quoted\"\nreason", "host.tags": ["a", "b"], "peer": ["id": "7f"]]
        )
        logger.trace("not logged: below the level")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix("}\n") && line.dropLast().contains("\n") == false, "one line: \(line)")
        #expect(line.hasPrefix("{\"time\":\""), "time first: \(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["logger"] as? String == "containment.test")
        #expect(object["message"] as? String == "host down")
        #expect(object["host.name"] as? String == "h1")
        #expect(object["error.message"] as? String == "a \"quoted\"\nreason")
        #expect(object["host.tags"] as? [String] == ["a", "b"])
        #expect((object["peer"] as? [String: Any])?["id"] as? String == "7f")
        let time = try #require(object["time"] as? String)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time) <= Date())
    }

    /// Every `logger.<level>(…)` call and `warn(…)` of the runtime's sources: its message a literal with no
    /// interpolation, each metadata key dotted (`host.name`, not `host`).
    @Test func everyLogCallHasAConstantMessageAndDottedKeys() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.contains("Generated") }
        let call = /(logger\.(trace|debug|info|notice|warning|error|critical)|[^a-zA-Z.]warn)\(/
        var calls = 0
        for file in files {
            let text = try String(contentsOfFile: sources.path + "/" + file, encoding: .utf8)
            for match in text.matches(of: call) where !text[..<match.range.lowerBound].hasSuffix("func") {
                let arguments = Self.arguments(in: text[match.range.upperBound...])
                calls += 1
                // `warn` itself passes on its caller's message, a `Logger.Message` its callers give as a literal.
                if arguments.hasPrefix("message,") { continue }
                guard let message = arguments.firstMatch(of: /"((?:[^"\\]|\\.)*)"/) else {
                    // A message chosen between two literals (`restarted ? "host restarted" : "host up"`) is constant.
                    Issue.record("\(file): a log call without a literal message: \(arguments.prefix(120))")
                    continue
                }
                #expect(!message.output.1.contains("\\("), "\(file): an interpolated log message: \(message.output.1)")
                for key in arguments.matches(of: /"([A-Za-z_][A-Za-z0-9_.]*)":/) {
                    #expect(key.output.1.contains("."), "\(file): the metadata key \(key.output.1) is not dotted")
                }
            }
        }
        #expect(calls > 30, "the scan found the log calls (\(calls))")
    }

    /// The text of a call's arguments: up to the parenthesis that closes it (strings skipped).
    static func arguments(in text: Substring) -> Substring {
        var depth = 1
        var inString = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return text[text.startIndex..<index] }
            }
            index = text.index(after: index)
        }
        return text
    }

    @Test func withLogFormatJSONEveryDaemonWritesJSONLines() async throws {
        // The logs are read once every daemon stopped (their last lines are about stopping).
        let runDirectory = try await RuntimeFixture.with(
            keep: true,
            topology: DurabilityTests.menu,
            settings: "logFormat: json\n"
        ) { (runtime: RuntimeFixture) async throws -> String in
            #expect(try await runtime.containment("ctl", "create", "logged", "--kind", "content").status == 0)
            return runtime.runDirectory
        }
        let directory = runDirectory + "/logs"
        defer { try? FileManager.default.removeItem(atPath: runDirectory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files.contains("supervisor.log") && files.contains { $0.hasPrefix("host-") }, "\(files)")
        var messages: Set<String> = []
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let object = JSON.object(String(line))
                #expect(object != nil, "\(file): not a JSON object: \(line)")
                guard let object else { continue }
                #expect(object["time"] is String && object["level"] is String && object["logger"] is String)
                if let message = object["message"] as? String { messages.insert(message) }
                for key in object.keys where !["time", "level", "logger", "message"].contains(key) {
                    #expect(key.contains("."), "\(file): \(key)")
                }
            }
        }
        #expect(messages.isSuperset(of: ["supervisor serving", "host registered", "host up", "supervisor stopped"]))
    }
}
