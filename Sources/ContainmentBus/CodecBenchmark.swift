import ContainmentModel
import Foundation

/// The hand-written protobuf paths (the supervisor's `PreEncoded` and `ClientMessage.decodeBatch`, the clients'
/// `ProtobufScan`) beside SwiftProtobuf doing the same work on the same messages, one thread, no sockets: a hand-written path is kept only while this
/// figure shows it pays (docs/BENCH.md, "One codec").
///
/// The messages are those of a stream of steps (`bench` gives the model's recorded random stream): every step as a
/// request, the events of every accepted step, their replies and journal records. It lives with the codec it
/// measures: `bench codec` reports it. Each pair is checked to produce the same bytes
/// (or the same commands) before it is timed; the median of three passes of each.
package struct CodecFigure: Codable, Sendable {
    package struct Pair: Codable, Sendable {
        /// What is done, once per `unit`.
        package var work: String
        package var unit: String
        package var count: Int
        package var handWrittenPerSecond: Double
        package var swiftProtobufPerSecond: Double
        /// Hand-written / SwiftProtobuf.
        package var speedup: Double
    }

    package var pairs: [Pair]

    /// A hand-written path that does not produce what SwiftProtobuf does: the figure is not measured.
    package struct Mismatch: Error, CustomStringConvertible {
        package let description: String
    }

    /// The inputs: requests, and per accepted step its events and commands.
    private struct Messages {
        var requests: [[UInt8]] = []
        var events: [Event] = []
        /// Per accepted step: its events' range in `events`, its commands, and their bytes as received.
        var accepted: [Accepted] = []
    }

    private struct Accepted {
        var events: Range<Int>
        var commands: [WireCommand]
        var encoded: [ArraySlice<UInt8>]
    }

    /// Measures the pairs on `steps`, each a transaction of the model's requests.
    package static func measure(steps: [[Request]]) throws(Mismatch) -> CodecFigure {
        let messages = Self.messages(of: steps)
        let wireEvents = messages.events.enumerated().map {
            WireEvent($1, seq: UInt64($0 + 1), timeUnixNanos: 1, commandID: 0)
        }
        let encoded = messages.events.enumerated().map {
            PreEncoded.event($1, seq: UInt64($0 + 1), timeUnixNanos: 1, commandID: 0)
        }
        var pairs: [Pair] = []

        // A request: its request id and commands.
        for (index, request) in messages.requests.enumerated() {
            let fast = ClientMessage.decodeBatch(request)?.commands.map(\.wire)
            let slow = (try? ClientMessage(serializedBytes: request))?.commands.commands
            guard let slow, fast == slow else {
                throw Mismatch(description: "decodeBatch differs from SwiftProtobuf on request \(index)")
            }
        }
        pairs.append(
            pair("decode a request", "requests", messages.requests.count) {
                var commands = 0
                for request in messages.requests { commands += ClientMessage.decodeBatch(request)?.commands.count ?? 0 }
                return commands
            } slow: {
                var commands = 0
                for request in messages.requests {
                    commands += (try? ClientMessage(serializedBytes: request))?.commands.commands.count ?? 0
                }
                return commands
            }
        )

        // An event, to publish.
        guard encoded == wireEvents.map({ $0.bytes }) else {
            throw Mismatch(description: "PreEncoded.event differs from SwiftProtobuf")
        }
        pairs.append(
            pair("encode an event", "events", messages.events.count) {
                var bytes = 0
                for (index, event) in messages.events.enumerated() {
                    bytes += PreEncoded.event(event, seq: UInt64(index + 1), timeUnixNanos: 1, commandID: 0).count
                }
                return bytes
            } slow: {
                var bytes = 0
                for (index, event) in messages.events.enumerated() {
                    bytes += WireEvent(event, seq: UInt64(index + 1), timeUnixNanos: 1, commandID: 0).bytes.count
                }
                return bytes
            }
        )

        // A subscriber reading an event's seq (the bench's subscribers, `stress`'s event collector).
        pairs.append(
            pair("read an event's seq", "events", encoded.count) {
                encoded.reduce(0) { $0 &+ Int(ProtobufScan.field1(of: $1) ?? 0) }
            } slow: {
                encoded.reduce(0) { $0 &+ Int((try? WireEvent(serializedBytes: $1))?.seq ?? 0) }
            }
        )

        // The reply to an accepted request, around its events already encoded to publish them (or, with
        // SwiftProtobuf alone, around their messages, which it serializes again).
        func reply(_ step: Int, _ range: Range<Int>) -> [UInt8] {
            PreEncoded.accepted(
                requestID: UInt64(step + 1),
                commandID: UInt64(step + 1),
                events: encoded[range].map { $0[...] }
            )
        }
        func slowReply(_ step: Int, _ range: Range<Int>) -> [UInt8] {
            ServerMessage.with {
                $0.requestID = UInt64(step + 1)
                $0.accepted = .with {
                    $0.commandID = UInt64(step + 1)
                    $0.events = Array(wireEvents[range])
                }
            }.bytes
        }
        pairs.append(
            try perAccepted(messages, "encode an accepted reply", "replies", "PreEncoded.accepted") {
                reply($0, $1.events)
            } slow: {
                slowReply($0, $1.events)
            }
        )

        // The journal record of an accepted request, around its commands' bytes as received (or, with SwiftProtobuf
        // alone, around their messages).
        func record(_ step: Int, _ commands: [ArraySlice<UInt8>]) -> [UInt8] {
            PreEncoded.journalRecord(
                commandID: UInt64(step + 1),
                timeUnixNanos: 1,
                commands: commands,
                firstSeq: UInt64(step + 1),
                eventCount: 1,
                clientID: "bench",
                requestID: UInt64(step + 1)
            )
        }
        func slowRecord(_ step: Int, _ commands: [WireCommand]) -> [UInt8] {
            Containment_V1_JournalRecord.with {
                $0.commandID = UInt64(step + 1)
                $0.timeUnixNanos = 1
                $0.commands = commands
                $0.firstSeq = UInt64(step + 1)
                $0.eventCount = 1
                $0.clientID = "bench"
                $0.requestID = UInt64(step + 1)
            }.bytes
        }
        pairs.append(
            try perAccepted(messages, "encode a journal record", "records", "PreEncoded.journalRecord") {
                record($0, $1.encoded)
            } slow: {
                slowRecord($0, $1.commands)
            }
        )
        return CodecFigure(pairs: pairs)
    }

    /// The stream's steps as requests, and the events and commands of the accepted ones.
    private static func messages(of steps: [[Request]]) -> Messages {
        var messages = Messages()
        var state = ContainmentState()
        for (index, step) in steps.enumerated() {
            let commands = step.map { WireCommand($0) }
            messages.requests.append(
                ClientMessage.with {
                    $0.requestID = UInt64(index + 1)
                    $0.commands = .with { $0.commands = commands }
                }.bytes
            )
            guard let events = try? state.apply(batch: step) else { continue }
            let start = messages.events.count
            messages.events += events
            messages.accepted.append(
                Accepted(
                    events: start..<messages.events.count,
                    commands: commands,
                    encoded: commands.map { $0.bytes[...] }
                )
            )
        }
        return messages
    }

    /// A message made for each accepted step both ways: checked to be the same bytes at every step, then timed.
    private static func perAccepted(
        _ messages: Messages,
        _ work: String,
        _ unit: String,
        _ writer: String,
        fast: (Int, Accepted) -> [UInt8],
        slow: (Int, Accepted) -> [UInt8]
    ) throws(Mismatch) -> Pair {
        for (step, accepted) in messages.accepted.enumerated() where fast(step, accepted) != slow(step, accepted) {
            throw Mismatch(description: "\(writer) differs from SwiftProtobuf at step \(step)")
        }
        return pair(work, unit, messages.accepted.count) {
            messages.accepted.enumerated().reduce(0) { $0 + fast($1.offset, $1.element).count }
        } slow: {
            messages.accepted.enumerated().reduce(0) { $0 + slow($1.offset, $1.element).count }
        }
    }

    /// Times both ways (the median of three passes each, alternating); each returns a checksum so nothing is
    /// optimized away, and both must agree.
    private static func pair(
        _ work: String,
        _ unit: String,
        _ count: Int,
        fast: () -> Int,
        slow: () -> Int
    ) -> Pair {
        let clock = ContinuousClock()
        var fastTimes: [Duration] = []
        var slowTimes: [Duration] = []
        for _ in 0..<3 {
            var start = clock.now
            let fastSum = fast()
            fastTimes.append(clock.now - start)
            start = clock.now
            let slowSum = slow()
            slowTimes.append(clock.now - start)
            precondition(fastSum == slowSum, "\(work): the hand-written and SwiftProtobuf paths disagree")
        }
        func rate(_ times: [Duration]) -> Double {
            let median = times.sorted()[1].components
            return Double(count) / (Double(median.seconds) + Double(median.attoseconds) / 1e18)
        }
        let (fast, slow) = (rate(fastTimes), rate(slowTimes))
        return Pair(
            work: work,
            unit: unit,
            count: count,
            handWrittenPerSecond: fast,
            swiftProtobufPerSecond: slow,
            speedup: slow > 0 ? fast / slow : 0
        )
    }
}
