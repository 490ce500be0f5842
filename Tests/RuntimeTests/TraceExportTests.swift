import Foundation
import Testing

/// `containment-web traces` over real processes (issue 45): `containment up` starts it when runtime.yaml sets
/// `otlpEndpoint`; a traced command's spans reach an OTLP/HTTP collector (a stand-in that writes each export request
/// it is posted to a file) with the ids, parents and times `containment trace` prints, each process a service of its
/// own — also when the collector was not there yet when the command ran, and `containment down` stops it.
@Suite(.serialized) struct TraceExportTests {
    /// An OTLP/HTTP collector's stand-in: each POST's body on a line of `argv[2]`, answered 200.
    static let collector = """
        import http.server, sys
        port, out = int(sys.argv[1]), sys.argv[2]
        class Collector(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                with open(out, 'ab') as f:
                    f.write(self.path.encode() + b' ' + body.replace(b'\\n', b' ') + b'\\n')
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', '2')
                self.end_headers()
                self.wfile.write(b'{}')
            def log_message(self, *arguments):
                pass
        http.server.HTTPServer(('127.0.0.1', port), Collector).serve_forever()
        """

    struct Exported {
        var service: String
        var instance: String?
        var span: [String: Any]
    }

    /// Every span of the export requests in `file`, with the service of its resource.
    static func exported(_ file: String) -> [Exported] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        var spans: [Exported] = []
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("/v1/traces "), let request = JSON.object(String(line.dropFirst(11))) else { continue }
            for resource in request["resourceSpans"] as? [[String: Any]] ?? [] {
                let attributes = (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
                func attribute(_ key: String) -> String? {
                    attributes.first { $0["key"] as? String == key }
                        .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String }
                }
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        spans.append(
                            Exported(
                                service: attribute("service.name") ?? "",
                                instance: attribute("service.instance.id"),
                                span: span
                            )
                        )
                    }
                }
            }
        }
        return spans
    }

    @Test func aTracedCommandReachesTheCollectorAsContainmentTracePrintsIt() async throws {
        let port = try await MetricsTests.freePort()
        let received = FileManager.default.temporaryDirectory.appendingPathComponent(
            "otlp-\(UUID().uuidString.prefix(8)).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: received) }
        try await RuntimeFixture.with(
            topology: DurabilityTests.menu,
            settings: "otlpEndpoint: http://127.0.0.1:\(port)\n"
        ) { runtime in
            #expect(
                FileManager.default.fileExists(atPath: runtime.runDirectory + "/traces.pid"),
                "containment up started containment-web traces"
            )
            // Traced (every ctl command is) while no collector listens: the export waits for one.
            let select = try await runtime.containment("ctl", "select", "menu", "2", "--json")
            try #require(select.status == 0, "\(select)")
            let reply = try #require(JSON.object(select.stdout))
            let commandID = try #require((reply["commandId"] as? NSNumber)?.uint64Value)

            // It tried, and found no collector: the command waits for the next round.
            let log = runtime.runDirectory + "/logs/traces.log"
            let refused = try await Poll.until {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("cannot reach the collector")
            }
            #expect(refused, "the exporter never tried the collector before it was there")
            let collector = Task {
                try await runtime.run(
                    "/usr/bin/timeout",
                    ["-s", "TERM", "600", "python3", "-c", Self.collector, "\(port)", received]
                )
            }
            defer { collector.cancel() }
            do {
                let arrived = try await Poll.value {
                    let spans = Self.exported(received)
                    return spans.contains {
                        $0.span["name"] as? String == "supervisor.command"
                            && ($0.span["attributes"] as? [[String: Any]])?.contains {
                                ($0["value"] as? [String: Any])?["intValue"] as? String == "\(commandID)"
                            } == true
                    } ? spans : nil
                }
                let exported = try #require(arrived, "the command's spans never reached the collector")
                let trace = try await runtime.containment("trace", "\(commandID)", "--json")
                try #require(trace.status == 0, "\(trace)")
                let printed = try TraceCommandTests.spans(trace.stdout)
                let traceID = try #require(
                    exported.first { $0.span["name"] as? String == "supervisor.command" }?.span["traceId"] as? String
                )
                let ofCommand = exported.filter { $0.span["traceId"] as? String == traceID }
                #expect(
                    Set(ofCommand.map { $0.span["name"] as? String ?? "" }).isSuperset(of: [
                        "supervisor.command", "decode", "admission", "model", "journal", "reply", "deliver",
                        "host.dispatch", "actor.callback",
                    ])
                )
                for entry in ofCommand {
                    let id = entry.span["spanId"] as? String ?? ""
                    let match = try #require(printed.first { $0.id == id }, "exported span \(id) is not kept")
                    #expect(entry.span["name"] as? String == match.name)
                    #expect((entry.span["parentSpanId"] as? String ?? "") == (match.parent ?? ""), "\(match.name)")
                    #expect(entry.span["startTimeUnixNano"] as? String == "\(match.start)", "\(match.name)")
                    #expect(entry.span["endTimeUnixNano"] as? String == "\(match.end)", "\(match.name)")
                    let (service, instance): (String, String?) =
                        match.process.hasPrefix("host ")
                        ? ("containment-host", String(match.process.dropFirst(5)))
                        : ("containment-\(match.process)", nil)
                    #expect(entry.service == service && entry.instance == instance, "\(match.name) in \(match.process)")
                    let kind = entry.span["kind"] as? Int
                    switch match.name {
                    case "client.command": #expect(kind == 3)
                    case "supervisor.command": #expect(kind == 2)
                    case "deliver": #expect(kind == 4)
                    case "host.dispatch": #expect(kind == 5)
                    default: #expect(kind == 1, "\(match.name)")
                    }
                }
                // Exported once: a command's spans are not posted again in a later round.
                #expect(Set(ofCommand.map { $0.span["spanId"] as? String ?? "" }).count == ofCommand.count)
            } catch {
                _ = try? await runtime.run("/usr/bin/pkill", ["-TERM", "-f", received])
                throw error
            }
            #expect(try await runtime.run("/usr/bin/pkill", ["-TERM", "-f", received]).status == 0)
            _ = try? await collector.value
        }
    }
}
