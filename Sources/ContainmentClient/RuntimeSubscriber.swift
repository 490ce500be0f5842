import ContainmentBus
import ContainmentModel
import ContainmentConfig
import Foundation
import Synchronization
import ZeroMQ

/// Follows a running runtime as the ZeroMQ guide's Clone pattern does — the state, then every event after it, in
/// order, nothing missed or doubled — in model types. `containment watch --from-start` follows the same way.
///
/// The first update is the whole state (``Update/state(_:epoch:)``), taken once the subscription is seen to work (its
/// first heartbeat or event; three heartbeat intervals at most), so that no event published after it is missed for a
/// subscription still being set up. Then come the events published after it. When
/// this subscriber falls behind (the supervisor drops events for a reader slower than `subscriberQueue`) or the
/// supervisor restarts, it says so (``Update/notice(_:)``) and begins again from a new state.
///
/// ```swift
/// let subscriber = try RuntimeSubscriber()
/// while let update = try subscriber.next(timeout: .seconds(5)) {
///     switch update {
///     case .state(let tree, _): mirror = tree
///     case .event(let event, let seq): print(seq, event.name)
///     case .notice(let text): print(text)
///     }
/// }
/// ```
///
/// Not `Sendable`: it owns sockets. Use it on one thread or task at a time.
public final class RuntimeSubscriber {
    public enum Update: Sendable {
        /// The whole state to go on from: first, and again after a gap or a supervisor restart.
        case state(TreeSnapshot, epoch: UInt64)
        /// An event published after the last state, in order, with its seq.
        case event(Event, seq: UInt64)
        /// What happened to the stream: events lost and caught up, the supervisor restarted.
        case notice(String)
    }

    private let socket: EventSocket
    private var follower: CloneFollower
    private var pending: [Update] = []
    private var head = 0

    /// Subscribes to the runtime the settings at `configPath` describe (else `CONTAINMENT_CONFIG`'s, else the defaults
    /// for `CONTAINMENT_RUN_DIR`), with its CURVE keys if it runs CURVE. Throws as
    /// ``RuntimeClient/init(configPath:environment:)`` does.
    public init(
        configPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ContainmentError) {
        let settings = try ClientSettings(configPath: configPath, environment: environment)
        let config = settings.config
        do {
            socket = try EventSocket(
                context: settings.context,
                endpoints: config.eventEndpoints,
                keys: settings.keys,
                bound: 10_000,
                wake: .milliseconds(50)
            )
        } catch {
            throw ContainmentError(.hostUnavailable, "Cannot subscribe to \(config.eventEndpoint): \(error).")
        }
        let client = try settings.commandClient()
        // The first state waits for the subscription to be seen working, three heartbeat intervals at most.
        follower = CloneFollower(fromStart: true, checkGaps: true, joinWait: config.heartbeatInterval * 3) {
            try client.snapshot()
        }
    }

    /// The next update, waiting at most `timeout` for one; `nil` when none came. Throws `unauthorized` when the
    /// supervisor refuses this subscriber (`maxSubscribers`, or a key it does not allow), `hostUnavailable` or
    /// `timeout` when a state cannot be taken.
    public func next(timeout: Duration = .seconds(1)) throws(ContainmentError) -> Update? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if head < pending.count {
                defer { head += 1 }
                return pending[head]
            }
            pending.removeAll(keepingCapacity: true)
            head = 0
            do {
                let message = try socket.receive()
                if case .refused = message {
                    throw ContainmentError(
                        .unauthorized,
                        "The supervisor refused this subscriber: it has maxSubscribers connected, or (with CURVE) "
                            + "this key is not allowed."
                    )
                }
                let heard: Bool =
                    switch message {
                    case .event, .heartbeat: true
                    default: false
                    }
                if try follower.join(heard: heard, now: clock.now) {
                    switch message {
                    case .event(let event, _): try follower.receive(event)
                    case .heartbeat(let beat): try follower.heartbeat(beat)
                    case .refused, .undecodable, .nothing: break
                    }
                }
            } catch let error as ContainmentError {
                throw error
            } catch {
                throw ContainmentError(.hostUnavailable, "The runtime's events cannot be read: \(error).")
            }
            for output in follower.take() { pending.append(contentsOf: Self.update(output)) }
            if pending.isEmpty, clock.now >= deadline { return nil }
        }
    }

    private static func update(_ output: CloneFollower.Output) -> [Update] {
        switch output {
        case .snapshot(let snapshot):
            guard let tree = try? snapshot.model() else {
                return [.notice("The state at seq \(snapshot.seq) does not decode; it is skipped.")]
            }
            return [.state(tree, epoch: snapshot.epoch)]
        case .event(let event):
            guard let model = try? event.model() else {
                return [.notice("Event \(event.seq) (\(event.name)) does not decode; it is skipped.")]
            }
            return [.event(model, seq: event.seq)]
        case .notice(let text): return [.notice(text)]
        case .skipped: return []
        }
    }

    /// Closes its sockets.
    public func close() {
        socket.close()
    }
}

extension RuntimeSubscriber {
    /// The updates of a new subscriber as an async sequence, read on a thread of its own (its sockets never hold a
    /// thread of Swift's cooperative pool): the state, then the events after it, as ``next(timeout:)`` gives them. It
    /// ends with the error that stops the subscriber; stop reading (or cancel the task) to close it. Updates wait for
    /// the reader without bound: read them as they come.
    ///
    /// ```swift
    /// for try await update in RuntimeSubscriber.updates() {
    ///     if case .event(let event, _) = update, event.name == "viewDidAppear" { break }
    /// }
    /// ```
    public static func updates(
        configPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AsyncThrowingStream<Update, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Update, any Error>.makeStream(bufferingPolicy: .unbounded)
        let stopped = StopFlag()
        continuation.onTermination = { _ in stopped.stop() }
        let thread = Thread {
            nameCurrentThread("subscriber")
            do {
                let subscriber = try RuntimeSubscriber(configPath: configPath, environment: environment)
                defer { subscriber.close() }
                while !stopped.isStopped {
                    if let update = try subscriber.next(timeout: .milliseconds(100)) { continuation.yield(update) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.start()
        return stream
    }
}

/// Set once, read by a thread's loop.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func stop() { value.store(true, ordering: .relaxed) }
    var isStopped: Bool { value.load(ordering: .relaxed) }
}
