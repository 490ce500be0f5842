import Foundation
import W3CTraceContext

/// Spans as an OTLP/HTTP JSON export request (`ExportTraceServiceRequest` of opentelemetry-proto, in the protocol's
/// JSON encoding: ids in hex, nanoseconds as strings), what `containment-web traces` posts to a collector's
/// `/v1/traces`. Each process is a resource of its own — `service.name` `containment-client`, `containment-supervisor`
/// or `containment-host` (with `service.instance.id`, the host's name) — so Jaeger and Tempo tell them apart; the
/// spans keep their ids, so a trace found there has the ids `containment trace` prints.
public enum OTLPTraces {
    /// The export request's body for `spans`, grouped by process in the order each first appears.
    public static func json(_ spans: [TraceSpan], version: String) -> [UInt8] {
        var order: [String] = []
        var byProcess: [String: [TraceSpan]] = [:]
        for span in spans {
            if byProcess[span.process] == nil { order.append(span.process) }
            byProcess[span.process, default: []].append(span)
        }
        let request = ExportRequest(
            resourceSpans: order.map { process in
                ResourceSpans(
                    resource: Resource(attributes: resourceAttributes(of: process)),
                    scopeSpans: [
                        ScopeSpans(
                            scope: Scope(name: "containment", version: version),
                            spans: byProcess[process, default: []].map(Span.init)
                        )
                    ]
                )
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain structs of strings, numbers and arrays cannot fail: no floats that are not finite, no
        // custom `encode(to:)` that throws.
        return Array((try? encoder.encode(request)) ?? Data())
    }

    /// `service.name` (and the host's name as `service.instance.id`) of the process that kept a span.
    static func resourceAttributes(of process: String) -> [Attribute] {
        if process.hasPrefix("host ") {
            return [
                Attribute(key: "service.name", string: "containment-host"),
                Attribute(key: "service.instance.id", string: String(process.dropFirst(5))),
            ]
        }
        return [Attribute(key: "service.name", string: "containment-\(process)")]
    }

    /// OTLP's span kinds: the client's span a client's, the supervisor's a server's, a delivery a producer's and the
    /// host's dispatch of it a consumer's; every other hop internal.
    static func kind(of name: String) -> Int {
        switch name {
        case "client.command": 3
        case "supervisor.command": 2
        case "deliver": 4
        case "host.dispatch": 5
        default: 1
        }
    }

    struct ExportRequest: Encodable { var resourceSpans: [ResourceSpans] }
    struct ResourceSpans: Encodable {
        var resource: Resource
        var scopeSpans: [ScopeSpans]
    }
    struct Resource: Encodable { var attributes: [Attribute] }
    struct ScopeSpans: Encodable {
        var scope: Scope
        var spans: [Span]
    }
    struct Scope: Encodable {
        var name: String
        var version: String
    }

    struct Span: Encodable {
        var traceId: String
        var spanId: String
        var parentSpanId: String
        var name: String
        var kind: Int
        var startTimeUnixNano: String
        var endTimeUnixNano: String
        var attributes: [Attribute]

        init(_ span: TraceSpan) {
            traceId = "\(span.traceID)"
            spanId = "\(span.spanID)"
            parentSpanId = span.parentSpanID.map { "\($0)" } ?? ""
            name = span.name
            kind = OTLPTraces.kind(of: span.name)
            startTimeUnixNano = "\(span.startUnixNanos)"
            endTimeUnixNano = "\(span.endUnixNanos)"
            attributes = [Attribute(key: "containment.command_id", int: span.commandID)]
            if !span.detail.isEmpty { attributes.append(Attribute(key: "containment.detail", string: span.detail)) }
        }
    }

    struct Attribute: Encodable {
        struct Value: Encodable {
            var stringValue: String?
            /// An int64 as the JSON encoding writes it: a string.
            var intValue: String?
        }

        var key: String
        var value: Value

        init(key: String, string: String) {
            self.key = key
            value = Value(stringValue: string)
        }

        init(key: String, int: UInt64) {
            self.key = key
            value = Value(intValue: "\(int)")
        }
    }
}
