import Foundation
import W3CTraceContext

/// One command's spans as a tree, each child under its parent in the order it began: what `containment trace` prints.
public struct TraceWaterfall: Sendable {
    /// A span and how deep it stands (0: a root).
    public struct Row: Sendable, Equatable {
        public var span: TraceSpan
        public var depth: Int
    }

    /// Depth first: each root, then its children by start time (then by name, for spans that began together).
    public let rows: [Row]

    public init(_ spans: [TraceSpan]) {
        let ids = Set(spans.map(\.spanID))
        var children: [SpanID: [TraceSpan]] = [:]
        var roots: [TraceSpan] = []
        for span in spans {
            // A span whose parent is not kept (a client's that kept nothing, say) stands as a root.
            if let parent = span.parentSpanID, ids.contains(parent) {
                children[parent, default: []].append(span)
            } else {
                roots.append(span)
            }
        }
        func ordered(_ list: [TraceSpan]) -> [TraceSpan] {
            list.sorted { ($0.startUnixNanos, $0.name, $0.detail) < ($1.startUnixNanos, $1.name, $1.detail) }
        }
        var rows: [Row] = []
        var seen: Set<SpanID> = []
        func visit(_ span: TraceSpan, depth: Int) {
            guard seen.insert(span.spanID).inserted else { return }
            rows.append(Row(span: span, depth: depth))
            for child in ordered(children[span.spanID] ?? []) { visit(child, depth: depth + 1) }
        }
        for root in ordered(roots) { visit(root, depth: 0) }
        self.rows = rows
    }

    /// The rows as text: name and where it ran, when it began after the first span (µs), how long it took (µs), and
    /// a bar of `width` columns over the whole trace.
    public func rendered(width: Int = 40) -> String {
        guard let first = rows.map(\.span.startUnixNanos).min(), let last = rows.map(\.span.endUnixNanos).max() else {
            return "no spans"
        }
        let total = max(1, last - first)
        let labels = rows.map { row in
            String(repeating: "  ", count: row.depth) + row.span.name
                + (row.span.detail.isEmpty ? "" : " \(row.span.detail)")
        }
        let labelWidth = labels.map(\.count).max() ?? 0
        let processWidth = rows.map(\.span.process.count).max() ?? 0
        var lines: [String] = []
        if let trace = rows.first?.span.traceID { lines.append("trace \(trace)") }
        for (row, label) in zip(rows, labels) {
            let offset = row.span.startUnixNanos - first
            let length = row.span.endUnixNanos - row.span.startUnixNanos
            let from = Int(Int64(width) * offset / total)
            let columns = max(1, Int(Int64(width) * length / total))
            let bar =
                String(repeating: " ", count: min(from, width - 1))
                + String(repeating: "█", count: min(columns, width - min(from, width - 1)))
            lines.append(
                label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  "
                    + row.span.process.padding(toLength: processWidth, withPad: " ", startingAt: 0) + "  "
                    + Self.micros(offset, width: 9) + "  " + Self.micros(length, width: 9) + "  |"
                    + bar.padding(toLength: width, withPad: " ", startingAt: 0) + "|"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds as microseconds with one decimal, right-aligned.
    static func micros(_ nanos: Int64, width: Int) -> String {
        let tenths = (nanos + 50) / 100
        let text = "\(tenths / 10).\(abs(tenths % 10)) µs"
        return String(repeating: " ", count: max(0, width + 3 - text.count)) + text
    }
}
