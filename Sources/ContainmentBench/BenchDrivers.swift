import ContainmentBus
import ContainmentLoad
import ContainmentModel
import Foundation
import Histogram
import ZeroMQ

/// The messages every measurement sends, so the raw ZeroMQ figures move exactly the bytes Containment moves.
enum BenchMessages {
    /// The controllers the command measurements act on: one per client, each with a loaded root view.
    static func controller(_ client: Int) -> String { "b\(client)" }

    /// A request as a client sends it: one `set_alpha` of the client's own controller's root view, by the natural
    /// party (its owner), request id `sequence + 1`. The alpha alternates, so every command is accepted and
    /// publishes one `alphaChanged`. The bytes are SwiftProtobuf's, its body encoded once per client and alpha.
    static func request(client: Int, sequence: Int) -> [UInt8] {
        let tails = client < requestTails.count ? requestTails[client] : Self.tails(client: client)
        return withField1(UInt64(sequence + 1), tails[sequence & 1])
    }

    /// `ClientMessage{commands}` without its request id, for alpha 0.25 and 0.75.
    private static func tails(client: Int) -> [[UInt8]] {
        let id = ControllerID(controller(client))
        return [0.25, 0.75].map { alpha in ClientRequest.commands([Request(.setAlpha(.root(id), alpha), by: .natural)])
        }
    }

    private static let requestTails = (0..<64).map { tails(client: $0) }

    /// A batch of `size` (even) `set_alpha` commands of the client's controller, alternating 0.25 and 0.75: one
    /// transaction that publishes `size` events. Drives event delivery.
    static func batch(client: Int, sequence: Int, size: Int) -> [UInt8] {
        withField1(UInt64(sequence + 1), batchTail(client: client, size: size))
    }

    static func batchTail(client: Int, size: Int) -> [UInt8] {
        let id = ControllerID(controller(client))
        let commands = (0..<size).map { index in
            Request(.setAlpha(.root(id), index.isMultiple(of: 2) ? 0.25 : 0.75), by: .natural)
        }
        return ClientRequest.commands(commands)
    }

    /// A message whose field 1 (a varint: `request_id`, `seq`) is `value`, followed by `tail` (the bus's one varint
    /// writer).
    static func withField1(_ value: UInt64, _ tail: [UInt8]) -> [UInt8] { PreEncoded.withField1(value, tail) }

    /// The event such a command publishes, as the supervisor stamps it (seq left out: see ``event(seq:)``).
    static let alphaChanged: Event = {
        let id = ControllerID(controller(0))
        return .alphaChanged(view: .root(id), alpha: 0.75, by: .controller(id))
    }()

    /// The topic the supervisor publishes that event under.
    static let eventTopic = PreEncoded.topic(of: alphaChanged)

    /// The event's bytes without its seq: field 1 comes first in the encoding, so a seq is prepended cheaply.
    private static let eventTail = PreEncoded.event(
        alphaChanged,
        seq: 0,
        timeUnixNanos: 1_700_000_000_000_000_000,
        commandID: 1_234_567
    )

    /// A real `alphaChanged` event with sequence number `seq`.
    static func event(seq: UInt64) -> [UInt8] { withField1(seq, eventTail) }

    /// The reply the supervisor sends to ``request(client:sequence:)``: accepted, with its one event.
    static let reply = PreEncoded.accepted(
        requestID: 123_456,
        commandID: 1_234_567,
        events: [event(seq: 2_345_678)[...]]
    )

    /// Whether a reply accepts its command: its body is `ServerMessage.accepted` (field 10). Read with
    /// ``ProtobufScan``, the same way for the supervisor's replies and the echo's.
    static func isAccepted(_ frame: [UInt8]) -> Bool {
        var body: UInt64?
        let valid = ProtobufScan.fields(of: frame) { field, _ in
            if field != 1 { body = field }
        }
        return valid && body == 10
    }
}

/// Round trips, one at a time, on one DEALER: the latency of a request and its reply, in blocks, so raw and
/// Containment blocks can alternate.
final class RoundTrips {
    let endpoint: String
    private let dealer: Socket
    private var sequence = 0
    /// Nanoseconds per recorded round trip, three significant digits.
    private(set) var histogram = Histogram<UInt64>(
        highestTrackableValue: 60_000_000_000,
        numberOfSignificantValueDigits: .three
    )

    init(context: Context, endpoint: String) throws {
        self.endpoint = endpoint
        dealer = try context.socket(.dealer)
        try dealer.set(.receiveTimeout, to: .seconds(10))
        try dealer.connect(endpoint)
    }

    /// `count` round trips, recorded unless it is a warm-up.
    func run(_ count: Int, record: Bool) throws {
        let clock = ContinuousClock()
        for _ in 0..<count {
            let request = BenchMessages.request(client: 0, sequence: sequence)
            sequence += 1
            let start = clock.now
            try dealer.send(request)
            guard let frames = try dealer.receive() else { throw LoadError("no reply within 10 s from \(endpoint)") }
            let elapsed = clock.now - start
            guard frames.count == 1, BenchMessages.isAccepted(frames[0]) else {
                throw LoadError("an unexpected reply from \(endpoint)")
            }
            if record { _ = histogram.record(elapsed.nanoseconds) }
        }
    }
}

/// Several DEALERs on one thread, each keeping a window of requests outstanding: how many requests a server answers
/// per second when it never waits for a client.
struct Pipeline {
    var endpoint: String
    var clients: Int
    var window: Int

    struct Result: Sendable {
        /// Replies that `accepted` approved, within the measured span.
        var accepted = 0
        /// Other replies within the measured span.
        var refused = 0
        var seconds = 0.0
        var perSecond: Double { seconds > 0 ? Double(accepted) / seconds : 0 }

        mutating func add(_ other: Result) {
            accepted += other.accepted
            refused += other.refused
            seconds += other.seconds
        }
    }

    enum Length {
        /// Send `warmup` requests, then this many more: the replies to the first `warmup` are not counted, and the
        /// time runs from the last of them (or from the first send, with none) to the last reply. A count, not a
        /// window: a slow or loaded machine takes longer over it, but never measures nothing.
        case requests(Int, warmup: Int)
    }

    func run(
        context: Context,
        _ length: Length,
        request: (_ client: Int, _ sequence: Int) -> [UInt8],
        accepted: ([UInt8]) -> Bool
    ) throws -> Result {
        var sockets: [Socket] = []
        var poller = Poller()
        for _ in 0..<clients {
            let dealer = try context.socket(.dealer)
            try dealer.set(.sendHighWaterMark, to: 0)
            try dealer.set(.receiveHighWaterMark, to: 0)
            try dealer.connect(endpoint)
            poller.register(dealer)
            sockets.append(dealer)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var measureFrom = start
        let (limit, warmup) =
            switch length {
            case .requests(let count, let warmup): (count + warmup, warmup)
            }
        var replies = 0
        var sent = 0
        var sequences = [Int](repeating: 0, count: clients)
        var outstanding = [Int](repeating: 0, count: clients)
        var result = Result()
        var lastReply = start
        func send(_ client: Int) throws {
            try sockets[client].send(request(client, sequences[client]))
            sequences[client] += 1
            outstanding[client] += 1
            sent += 1
        }
        for client in 0..<clients {
            for _ in 0..<window where sent < limit { try send(client) }
        }
        while outstanding.contains(where: { $0 > 0 }) {
            let ready = try poller.poll(timeout: .seconds(30))
            if ready.isEmpty { throw LoadError("no reply for 30 s from \(endpoint)") }
            for item in ready {
                while let frames = try sockets[item.index].receive(dontWait: true) {
                    let now = clock.now
                    outstanding[item.index] -= 1
                    replies += 1
                    if replies == warmup {
                        measureFrom = now
                    } else if replies > warmup {
                        if frames.count == 1, accepted(frames[0]) { result.accepted += 1 } else { result.refused += 1 }
                        lastReply = now
                    }
                    if sent < limit { try send(item.index) }
                }
            }
        }
        result.seconds = (lastReply - measureFrom).seconds
        return result
    }
}

/// A process of this binary (`bench-peer …`), its output in a log file.
final class BenchProcess {
    let process: Process

    init(_ arguments: [String], log: String) throws {
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw LoadError("cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process = Process()
        process.executableURL = URL(fileURLWithPath: LocalRuntime.executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `timeout` for the process to exit on its own; SIGTERM after that.
    func wait(timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning, clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        stop()
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// Subscriber processes (`bench-peer subscribe`), made ready by warm-up traffic before anything is measured.
struct SubscriberGroup {
    let processes: [BenchProcess]
    let readyFiles: [String]
    let reportFiles: [String]

    init(count: Int, endpoint: String, directory: String, tag: String, measured: Int, highWaterMark: Int) throws {
        var processes: [BenchProcess] = []
        var readyFiles: [String] = []
        var reportFiles: [String] = []
        for index in 0..<count {
            let base = "\(directory)/\(tag)-sub\(index)"
            readyFiles.append(base + ".ready")
            reportFiles.append(base + ".json")
            processes.append(
                try BenchProcess(
                    [
                        "bench-peer", "subscribe", "--endpoint", endpoint, "--ready-file", base + ".ready",
                        "--report-file", base + ".json", "--count", "\(measured)", "--high-water-mark",
                        "\(highWaterMark)",
                    ],
                    log: base + ".log"
                )
            )
        }
        self.processes = processes
        self.readyFiles = readyFiles
        self.reportFiles = reportFiles
    }

    /// Calls `warm` (which publishes something under `runtime/`) until every subscriber has received a message.
    func waitUntilReady(timeout: Duration = .seconds(30), warm: () throws -> Void) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !readyFiles.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) {
            guard clock.now < deadline else {
                stop()
                throw LoadError("the subscribers did not receive anything in \(timeout)")
            }
            try warm()
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Waits for every subscriber's report.
    func reports(timeout: Duration) throws -> [SubscriberReport] {
        try processes.enumerated().map { index, process in
            process.wait(timeout: timeout)
            guard let data = FileManager.default.contents(atPath: reportFiles[index]) else {
                throw LoadError("subscriber \(index) wrote no report")
            }
            return try JSONDecoder().decode(SubscriberReport.self, from: data)
        }
    }

    func stop() { processes.forEach { $0.stop() } }
}

/// What a group of subscribers saw: the slowest one's rate, and every gap.
struct DeliveryFigure: Codable, Sendable {
    var subscribers: Int
    /// Messages per second at the slowest subscriber.
    var perSecond: Double
    /// Measured messages each subscriber received (the fewest), of the `expected` that were published.
    var messages: Int
    var expected: Int
    var gaps: Int
    var missing: Int

    init(_ reports: [SubscriberReport], expected: Int) {
        self.expected = expected
        subscribers = reports.count
        perSecond = reports.map(\.rate).min() ?? 0
        messages = reports.map(\.measured).min() ?? 0
        gaps = reports.map(\.gaps).reduce(0, +)
        missing = reports.map(\.missing).reduce(0, +)
    }
}
