import ContainmentBus
import ContainmentConfig
import ZeroMQ
import Foundation

/// `containment watch`'s loop: the event stream of a supervisor, live (or its snapshot first, then live), with gaps
/// reported, silence noticed, and the subscription's readiness told — as outputs, which the caller prints.
package struct EventWatch {
    package enum Output {
        /// The state before the live events (with `fromStart`; again after a restart or a gap too wide to bridge).
        case snapshot(TreeView)
        case event(BusEvent)
        /// Events missing from the stream (a slow subscriber): their seqs.
        case gap(ClosedRange<UInt64>)
        /// Something to tell the reader on the side (a supervisor silent or heard again, a re-snapshot).
        case notice(String)
        /// The subscription is seen to work (its first heartbeat or event), or three heartbeats passed in silence.
        case ready
    }

    package enum Failure: Error {
        /// The supervisor refused the subscriber: it has maxSubscribers connected, or (with CURVE) the key is not
        /// allowed.
        case refused
    }

    package struct Settings {
        package var topics: [String] = []
        package var controllers: Set<String> = []
        package var fromStart = false
        /// Return after this many events.
        package var count: Int?
        /// Return after this long without an event.
        package var idleTimeout: Duration?

        package init() {}
    }

    let config: RuntimeConfig
    let keys: CurveClientKeys?
    let settings: Settings

    package init(config: RuntimeConfig, keys: CurveClientKeys?, settings: Settings) {
        self.config = config
        self.keys = keys
        self.settings = settings
    }

    /// How many events a subscriber lets wait: one slower than the events loses some (a gap, caught up by snapshot)
    /// instead of growing without bound.
    package static let receiveBound = 10_000

    /// Runs until `count` events were shown or `idleTimeout` passed without one; hands each output to `output`.
    package func run(_ output: (Output) -> Void) throws {
        let config = self.config
        let keys = self.keys
        // Wake at least every heartbeat interval, to notice silence.
        let wake = settings.idleTimeout.map { min(config.heartbeatInterval, $0) }
        let subscriber = try EventSocket(
            ownContextTo: config.eventEndpoints,
            keys: keys,
            topics: settings.topics,
            bound: Self.receiveBound,
            wake: wake ?? config.heartbeatInterval
        )
        let checkGaps = settings.topics.isEmpty
        var filter = Filter(settings: settings, checkGaps: checkGaps)
        // With fromStart the state is taken once the subscription is seen working (three heartbeats at most).
        var follower = CloneFollower(
            fromStart: settings.fromStart,
            checkGaps: checkGaps,
            joinWait: config.heartbeatInterval * 3
        ) {
            try CommandClient(ownContextTo: config.commandEndpoints, timeout: config.requestTimeout, curve: keys)
                .snapshot()
        }
        let clock = ContinuousClock()
        let started = clock.now
        var ready = false
        func becomeReady() {
            guard !ready else { return }
            ready = true
            output(.ready)
        }
        var lastHeard = clock.now
        var lastEvent = clock.now
        var silent = false
        // Silence longer than this (three heartbeats) means the supervisor is gone or stuck.
        let silenceLimit = config.heartbeatInterval * 3
        func heard() {
            becomeReady()
            lastHeard = clock.now
            if silent {
                silent = false
                output(.notice("the supervisor is heard again"))
            }
        }
        while !filter.done {
            if let idle = settings.idleTimeout, clock.now - lastEvent >= idle { return }
            let received = try subscriber.receive()
            let isHeard: Bool =
                switch received {
                case .event, .heartbeat: true
                default: false
                }
            // A heartbeat or an event always finds the follower begun, the state shown before it.
            if try follower.join(heard: isHeard, now: clock.now) { filter.pass(follower.take(), to: output) }
            switch received {
            case .refused:
                throw Failure.refused
            case .nothing:
                if clock.now - started >= config.heartbeatInterval * 3 { becomeReady() }
                let quiet = clock.now - lastHeard
                if !silent, quiet >= silenceLimit {
                    silent = true
                    output(.notice("no word from the supervisor for \(quiet.components.seconds) s (is it down?)"))
                }
                continue
            case .undecodable:
                continue
            case .heartbeat(let beat):
                heard()
                try follower.heartbeat(beat)
            case .event(let event, _):
                heard()
                lastEvent = lastHeard
                try follower.receive(event)
            }
            filter.pass(follower.take(), to: output)
        }
    }

    /// What of the follower's outputs is shown: gaps found, controllers filtered, up to the count.
    struct Filter {
        let controllers: Set<String>
        let checkGaps: Bool
        let limit: Int?
        var lastSeq: UInt64?
        var shown = 0

        init(settings: Settings, checkGaps: Bool) {
            controllers = settings.controllers
            self.checkGaps = checkGaps
            limit = settings.count
        }

        var done: Bool { limit.map { shown >= $0 } ?? false }

        mutating func pass(_ outputs: [CloneFollower.Output], to output: (Output) -> Void) {
            for item in outputs where !done {
                switch item {
                case .snapshot(let snapshot):
                    let tree = snapshot.tree
                    lastSeq = tree.seq
                    output(.snapshot(tree))
                case .event(let event):
                    if checkGaps, let last = lastSeq, event.seq > last + 1 { output(.gap(last + 1...event.seq - 1)) }
                    lastSeq = max(lastSeq ?? 0, event.seq)
                    guard controllers.isEmpty || controllers.contains(event.controller.rawValue) else { continue }
                    output(.event(event))
                    shown += 1
                case .skipped(let seq): lastSeq = seq
                case .notice(let text): output(.notice(text))
                }
            }
        }
    }
}
