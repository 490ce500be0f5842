import ContainmentTracing
import Foundation
import Testing
import W3CTraceContext

/// The export request `containment-web traces` posts: OTLP/HTTP's JSON encoding, a resource per process, the spans'
/// own ids and times.
struct OTLPTracesTests {
    @Test func spansAreGroupedByProcessWithTheirIdsKindsAndTimes() throws {
        let trace = try #require(TraceID(byteArray: Array(1...16)))
        let ids = (1...4).map { n in SpanID(byteArray: [0, 0, 0, 0, 0, 0, 0, UInt8(n)])! }
        func span(_ n: Int, parent: Int?, _ name: String, _ process: String, detail: String = "") -> TraceSpan {
            TraceSpan(
                traceID: trace,
                spanID: ids[n],
                parentSpanID: parent.map { ids[$0] },
                name: name,
                process: process,
                startUnixNanos: Int64(1_000 * n),
                endUnixNanos: Int64(1_000 * n + 500),
                commandID: 42,
                detail: detail
            )
        }
        let spans = [
            span(0, parent: nil, "client.command", "client"),
            span(1, parent: 0, "supervisor.command", "supervisor"),
            span(2, parent: 1, "deliver", "supervisor", detail: "h1"),
            span(3, parent: 2, "host.dispatch", "host h1"),
        ]
        let body = OTLPTraces.json(spans, version: "1.2.3")
        let request = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let resources = try #require(request["resourceSpans"] as? [[String: Any]])
        func service(_ resource: [String: Any]) -> [String: String] {
            let attributes = (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
            var found: [String: String] = [:]
            for attribute in attributes {
                found[attribute["key"] as? String ?? ""] =
                    (attribute["value"] as? [String: Any])?["stringValue"] as? String
            }
            return found
        }
        #expect(
            resources.map(service) == [
                ["service.name": "containment-client"], ["service.name": "containment-supervisor"],
                ["service.name": "containment-host", "service.instance.id": "h1"],
            ]
        )
        func spansOf(_ resource: [String: Any]) -> [[String: Any]] {
            let scopes = resource["scopeSpans"] as? [[String: Any]] ?? []
            #expect((scopes.first?["scope"] as? [String: Any])?["name"] as? String == "containment")
            #expect((scopes.first?["scope"] as? [String: Any])?["version"] as? String == "1.2.3")
            return scopes.flatMap { $0["spans"] as? [[String: Any]] ?? [] }
        }
        let supervisor = spansOf(resources[1])
        #expect(supervisor.map { $0["name"] as? String } == ["supervisor.command", "deliver"])
        let deliver = supervisor[1]
        #expect(deliver["traceId"] as? String == "0102030405060708090a0b0c0d0e0f10")
        #expect(deliver["spanId"] as? String == "0000000000000003")
        #expect(deliver["parentSpanId"] as? String == "0000000000000002")
        #expect(deliver["startTimeUnixNano"] as? String == "2000" && deliver["endTimeUnixNano"] as? String == "2500")
        #expect(deliver["kind"] as? Int == 4)
        let attributes = deliver["attributes"] as? [[String: Any]] ?? []
        #expect(attributes.map { $0["key"] as? String } == ["containment.command_id", "containment.detail"])
        #expect((attributes[0]["value"] as? [String: Any])?["intValue"] as? String == "42")
        #expect((attributes[1]["value"] as? [String: Any])?["stringValue"] as? String == "h1")
        let client = spansOf(resources[0])
        #expect(client.first?["parentSpanId"] as? String == "" && client.first?["kind"] as? Int == 3)
        #expect(supervisor[0]["kind"] as? Int == 2 && spansOf(resources[2]).first?["kind"] as? Int == 5)
    }
}
