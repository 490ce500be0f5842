import ContainmentBus
import ContainmentClient
import ContainmentModel
import ContainmentConfig
import Foundation
import Synchronization
import ZeroMQ

/// What the inspector's page is told: the state (a snapshot's tree and drawing) or one event, each as JSON.
enum InspectorUpdate: Sendable {
    case state(String)
    case event(String)
}

/// The inspector's connection to the bus, on a thread of its own (ZeroMQ sockets stay on the thread that made them):
/// a subscriber to every event (``EventSocket``), and a command client for snapshots. Each event is passed on as the JSON `watch
/// --json` prints (with its `category`); after events, at most every 100 ms, a snapshot is taken and passed on as the
/// page's state — the tree (``TreeView/json()``), the windows drawn (``WindowDrawing``) and the hosts.
final class InspectorFeed: Sendable {
    /// An `inspect` a page asked for: the controller, and where its answer (JSON) goes.
    typealias Inspection = (controller: String, answer: CheckedContinuation<String, Never>)

    private let stopped = Atomic<Bool>(false)
    /// The feed's thread has ended: inspections are answered at once.
    private let finished = Atomic<Bool>(false)
    /// Inspections waiting for the feed's thread, which owns the command socket.
    private let inspections = Mutex<[Inspection]>([])
    private let config: RuntimeConfig
    private let keys: CurveClientKeys?
    private let updates: AsyncStream<InspectorUpdate>.Continuation

    init(config: RuntimeConfig, keys: CurveClientKeys?, updates: AsyncStream<InspectorUpdate>.Continuation) {
        self.config = config
        self.keys = keys
        self.updates = updates
    }

    func start() {
        let thread = Thread { [self] in
            nameCurrentThread("inspector-feed")
            do {
                try run()
            } catch {
                FileHandle.standardError.write(Data("inspector: the bus failed: \(error)\n".utf8))
            }
            updates.finish()
            finished.store(true, ordering: .relaxed)
            // Pages still waiting for an inspect get an answer rather than wait for ever.
            for inspection in inspections.withLock({ pending in
                defer { pending = [] }
                return pending
            }) {
                inspection.answer.resume(returning: JSONText.encode(["code": "unavailable", "error": "stopped"]))
            }
        }
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// What the controller's actor received, as its host reports it (`containment inspect`), as JSON: `controller`,
    /// `host`, `received` (every callback since the actor was made), `digest`, `callbacks` (the last ones, oldest
    /// first, each as `watch --json` prints it); or `error` and `code`.
    func inspect(_ controller: String) async -> String {
        guard !finished.load(ordering: .relaxed) else {
            return JSONText.encode(["code": "unavailable", "error": "the inspector's connection to the bus ended"])
        }
        return await withCheckedContinuation { answer in inspections.withLock { $0.append((controller, answer)) } }
    }

    static func inspected(_ reply: InspectReport) -> String {
        JSONText.encode([
            "controller": reply.controller.rawValue, "host": reply.host, "received": reply.receivedCount,
            "digest": String(reply.receivedDigest, radix: 16), "restoredSeq": reply.restoredSeq,
            "callbacks": reply.callbacks.map(\.jsonObject),
        ])
    }

    /// The page's state from a snapshot: `{"seq", "epoch", "tree", "svg"}`.
    static func state(_ snapshot: BusSnapshot) -> String {
        let tree = snapshot.tree.json()
        let svg = JSONText.encodeString(snapshot.drawing.svg(constraints: true))
        return "{\"seq\":\(snapshot.seq),\"epoch\":\(snapshot.epoch),\"tree\":\(tree),\"svg\":\(svg)}"
    }

    private func run() throws {
        let context = try Context()
        let subscriber = try EventSocket(
            context: context,
            endpoints: config.eventEndpoints,
            keys: keys,
            bound: 10_000,
            wake: .milliseconds(100)
        )
        defer { subscriber.close() }
        let client = try CommandClient(
            context: context,
            endpoints: config.commandEndpoints,
            timeout: config.requestTimeout,
            curve: keys
        )
        let clock = ContinuousClock()
        var dirty = true
        var lastSnapshot = clock.now - .seconds(1)
        while !stopped.load(ordering: .relaxed) {
            for inspection in inspections.withLock({ pending in
                defer { pending = [] }
                return pending
            }) {
                do {
                    inspection.answer.resume(
                        returning: Self.inspected(try client.inspect(ControllerID(inspection.controller)))
                    )
                } catch {
                    inspection.answer.resume(
                        returning: JSONText.encode(["code": error.code.rawValue, "error": error.message])
                    )
                }
            }
            // Every change is followed by a snapshot (at most one per 100 ms): the page's state never misses an
            // event, a gap or a restart, whatever the events it was shown.
            switch try subscriber.receive() {
            case .event(let event, _):
                var object = event.jsonObject
                object["category"] = EventCategory(eventName: event.name).rawValue
                updates.yield(.event(JSONText.encode(object)))
                dirty = true
            case .refused:
                throw ContainmentError(.unauthorized, "the supervisor refused the inspector's subscriber")
            case .heartbeat, .undecodable, .nothing:
                break
            }
            if dirty, clock.now - lastSnapshot >= .milliseconds(100) {
                lastSnapshot = clock.now
                do {
                    updates.yield(.state(Self.state(try client.snapshot())))
                    dirty = false
                } catch {
                    // The supervisor is away: try again on the next round.
                }
            }
        }
    }
}
