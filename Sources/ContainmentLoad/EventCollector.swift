import ContainmentBus
import ContainmentClient
import Foundation
import Synchronization
import ZeroMQ

/// Counters the clients and subscribers bump and the progress line reads.
final class StressProgress: Sendable {
    private let operations = Atomic<Int>(0)
    private let acceptedCount = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let stop = Atomic<Bool>(false)

    func count(accepted: Bool) {
        operations.add(1, ordering: .relaxed)
        if accepted { acceptedCount.add(1, ordering: .relaxed) }
    }

    func failed() { failures.add(1, ordering: .relaxed) }
    func requestStop() { stop.store(true, ordering: .relaxed) }
    var stopping: Bool { stop.load(ordering: .relaxed) }
    var done: Int { operations.load(ordering: .relaxed) }
    var accepted: Int { acceptedCount.load(ordering: .relaxed) }
    var transportFailures: Int { failures.load(ordering: .relaxed) }
}

/// A subscriber to every event, on its own thread: it records each sequence number it sees (and, for the one the
/// replay compares with, each event's bytes), and counts duplicates and gaps.
package final class EventCollector: Sendable {
    /// What a subscriber saw, from its first event on.
    package struct Seen: Sendable {
        package var first: UInt64 = 0
        package var last: UInt64 = 0
        package var count = 0
        package var duplicates: [UInt64] = []
        /// Out of order: a seq lower than one seen before (not a duplicate).
        package var disorder = 0
        /// Each seq's event, as published (only when kept): `payloads[seq - first]`.
        package var payloads: [[UInt8]] = []
        package var undecodable = 0

        package init() {}

        /// Sequence numbers between the first and the last seen that never arrived.
        /// Records event `seq` (its bytes kept when `keepingPayloads`).
        package mutating func record(_ seq: UInt64, payload: [UInt8], keepingPayloads: Bool) {
            if count == 0 {
                first = seq
                last = seq - 1
            }
            if seq <= last {
                // PUB sends in seq order, so a seq at or below the last one seen is a duplicate — or, for one never
                // seen before (a gap filled late, or below the first), out of order.
                let filled = seq >= first && !(keepingPayloads && payloads[Int(seq - first)].isEmpty)
                if filled { duplicates.append(seq) } else { disorder += 1 }
                return
            }
            if keepingPayloads {
                // Gaps keep their place as empty payloads, so that an index is always `seq - first`.
                while last + 1 < seq {
                    payloads.append([])
                    last += 1
                }
                payloads.append(payload)
            }
            last = seq
            count += 1
        }

        package var missing: Int { count == 0 ? 0 : Int(last - first + 1) - count }

        /// The event published with `seq`, if it was kept.
        func payload(_ seq: UInt64) -> [UInt8]? {
            guard seq >= first, seq <= last, !payloads.isEmpty else { return nil }
            let payload = payloads[Int(seq - first)]
            return payload.isEmpty ? nil : payload
        }
    }

    let name: String
    private let keepPayloads: Bool
    private let seen = Mutex(Seen())
    private let latest = Atomic<UInt64>(0)
    private let stop = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Subscribes to every topic at `endpoints` (a replicated runtime's supervisors: whichever leads publishes) and
    /// collects on a new thread until ``finish()``.
    init(name: String, context: Context, endpoints: [String], keepPayloads: Bool, curve: CurveClientKeys? = nil) throws
    {
        self.name = name
        self.keepPayloads = keepPayloads
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Thread.detachNewThread { [self] in
            do {
                // Unbounded: an instrument sees every event, and records the gaps it finds rather than catching up.
                let socket = try EventSocket(
                    context: context,
                    endpoints: endpoints,
                    keys: curve,
                    bound: 0,
                    wake: .milliseconds(100)
                )
                ready.signal()
                collect(socket)
                socket.close()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
            }
            finished.signal()
        }
        ready.wait()
        if let message = failure.withLock({ $0 }) { throw LoadError("subscriber \(name): \(message)") }
    }

    private func collect(_ socket: EventSocket) {
        while !stop.load(ordering: .relaxed) {
            guard let frames = try? socket.receiveFrames(), frames.count == 2, frames[0] != Publication.heartbeatFrame
            else {
                continue
            }
            // Only the seq is read here (an event's field 1); the replay compares the whole bytes afterwards.
            guard let seq = ProtobufScan.field1(of: frames[1]) else {
                seen.withLock { $0.undecodable += 1 }
                continue
            }
            record(seq, payload: frames[1])
        }
    }

    private func record(_ seq: UInt64, payload: [UInt8]) {
        seen.withLock { $0.record(seq, payload: payload, keepingPayloads: keepPayloads) }
        latest.store(seq, ordering: .relaxed)
    }

    /// The highest seq seen so far.
    var latestSeq: UInt64 { latest.load(ordering: .relaxed) }

    /// Stops collecting and returns what was seen.
    func finish() -> Seen {
        stop.store(true, ordering: .relaxed)
        finished.wait()
        return seen.withLock { $0 }
    }
}
