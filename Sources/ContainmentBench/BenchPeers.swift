import ContainmentBus
import ContainmentLoad
import Foundation
import ZeroMQ

/// The other processes of `containment bench`'s measurements (`containment bench-peer`, started by bench itself).
package enum BenchPeers {
    /// A ROUTER that answers every request with the same reply (`reply`, or the request itself): the raw libzmq
    /// counterpart of the supervisor. Runs until its parent (bench) ends. With `syncFile`, the requests it drained in
    /// one go are written to it and made durable before any of them is answered (``SyncedLog``): the floor.
    package static func echo(endpoint: String, replyFile: String?, syncFile: String? = nil, readyFile: String?) throws {
        let reply = try replyFile.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        let log = try syncFile.map(SyncedLog.init(path:))
        let context = try Context()
        let router = try context.socket(.router)
        try router.set(.sendHighWaterMark, to: 0)
        try router.set(.receiveHighWaterMark, to: 0)
        try router.set(.receiveTimeout, to: .seconds(1))
        try router.bind(endpoint)
        if let readyFile { _ = FileManager.default.createFile(atPath: readyFile, contents: nil) }
        let parent = getppid()
        while getppid() == parent {
            guard let first = try router.receive() else { continue }
            // Synced: everything that came meanwhile, journaled in one synchronous write, then answered.
            let batch = try log?.journal(first, andWaitingOn: router) ?? [first]
            for frames in batch where frames.count == 2 { try router.send([frames[0], reply ?? frames[1]]) }
        }
    }

    /// A SUB that counts the events (or raw messages shaped like them) it receives, checks their sequence numbers are
    /// gap-free, and writes what it saw as JSON to `reportFile`.
    package static func subscribe(
        endpoint: String,
        readyFile: String,
        reportFile: String,
        count: Int,
        idleMs: Int,
        maxWaitMs: Int,
        highWaterMark: Int
    ) throws {
        let context = try Context()
        let subscriber = try context.socket(.sub)
        try subscriber.set(.receiveHighWaterMark, to: highWaterMark)
        try subscriber.set(.receiveTimeout, to: .milliseconds(Int64(idleMs)))
        try subscriber.connect(endpoint)
        try subscriber.subscribe("")
        let clock = ContinuousClock()
        let started = clock.now
        var report = SubscriberReport()
        var ready = false
        var lastSeq: UInt64 = 0
        var first: ContinuousClock.Instant?
        var last = started
        // Whether to stop, nothing measured having come for a while: `maxWaitMs` before the first message; with a
        // count, 30 s after the last (a loaded machine can pause the publisher for seconds, and the count says more
        // is coming: only a loss leaves it short); without one, `idleMs` after the last ends the stream.
        func quiet(_ now: ContinuousClock.Instant) -> Bool {
            guard first != nil else { return now - started > .milliseconds(Int64(maxWaitMs)) }
            return now - last >= (count > 0 ? .seconds(30) : .milliseconds(Int64(idleMs)))
        }
        while count == 0 || report.measured < count {
            guard let frames = try subscriber.receive() else {
                if quiet(clock.now) { break }
                continue
            }
            let now = clock.now
            if !ready {
                ready = true
                _ = FileManager.default.createFile(atPath: readyFile, contents: nil)
            }
            if frames.first == Publication.heartbeatFrame {
                // The supervisor's idle heartbeat: as good as a receive timeout for telling the stream ended.
                if quiet(now) { break }
                continue
            }
            // The event's seq, read without decoding the rest (the same way for raw messages and real events).
            guard frames.count == 2, let seq = ProtobufScan.field1(of: frames[1]) else {
                report.malformed += 1
                continue
            }
            if lastSeq != 0, seq != lastSeq + 1 {
                report.gaps += 1
                report.missing += seq > lastSeq ? Int(seq - lastSeq - 1) : 0
            }
            lastSeq = seq
            report.received += 1
            // Warm-up traffic (the subscriptions settling) is published under runtime/ and not measured.
            if frames[0].starts(with: runtimePrefix) { continue }
            if first == nil { first = now }
            last = now
            report.measured += 1
        }
        if let first { report.seconds = (last - first).seconds }
        report.lastSeq = lastSeq
        try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: reportFile))
    }

    static let runtimePrefix = Array("runtime/".utf8)
}

/// What one subscriber saw.
struct SubscriberReport: Codable, Sendable {
    /// Every message received, warm-up included.
    var received = 0
    /// Messages outside `runtime/`, from the first to the last of which `seconds` is measured.
    var measured = 0
    var seconds = 0.0
    /// Places where a sequence number was not the previous one plus one, and how many numbers were skipped.
    var gaps = 0
    var missing = 0
    var malformed = 0
    var lastSeq: UInt64 = 0

    /// Measured messages per second (the first one starts the clock).
    var rate: Double { seconds > 0 ? Double(measured - 1) / seconds : 0 }
}

extension BenchPeers {
    /// A ROUTER that answers every message with the machine's monotonic time when it received it (8 bytes, little
    /// endian, `DispatchTime.uptimeNanoseconds`): the far end of the raw two-hop relay.
    package static func stamp(endpoint: String, readyFile: String?) throws {
        let context = try Context()
        let router = try context.socket(.router)
        try router.set(.receiveTimeout, to: .seconds(1))
        try router.bind(endpoint)
        if let readyFile { _ = FileManager.default.createFile(atPath: readyFile, contents: nil) }
        let parent = getppid()
        while getppid() == parent {
            guard let frames = try router.receive(), frames.count >= 2 else { continue }
            let now = DispatchTime.now().uptimeNanoseconds
            try router.send(Array(frames.dropLast()) + [withUnsafeBytes(of: now.littleEndian) { Array($0) }])
        }
    }

    /// A ROUTER in front of a DEALER: each message from a client goes on to `backend`, each answer back to its client
    /// — the supervisor's place on a command's way to a host, as raw libzmq. With `syncFile`, the clients' messages
    /// drained in one go are made durable there before any goes on (``SyncedLog``).
    package static func relay(frontend: String, backend: String, syncFile: String? = nil, readyFile: String?) throws {
        let log = try syncFile.map(SyncedLog.init(path:))
        let context = try Context()
        let clients = try context.socket(.router)
        try clients.bind(frontend)
        let onward = try context.socket(.dealer)
        try onward.connect(backend)
        var poller = Poller()
        poller.register(clients)
        poller.register(onward)
        if let readyFile { _ = FileManager.default.createFile(atPath: readyFile, contents: nil) }
        let parent = getppid()
        while getppid() == parent {
            for ready in try poller.poll(timeout: .seconds(1)) {
                let other = ready.index == 0 ? onward : clients
                guard ready.index == 0, let log else {
                    while let frames = try ready.socket.receive(dontWait: true) { try other.send(frames) }
                    continue
                }
                for frames in try log.journal(nil, andWaitingOn: ready.socket) { try other.send(frames) }
            }
        }
    }
}
