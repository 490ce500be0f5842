import ContainmentBus
import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// Runs the topology at `topologyPath` in this process, in memory — the real supervisor core, and a host per topology
/// host running `kinds` (the app's own behaviors, as its host executable registers them) — waits until every host is
/// registered and idle, runs `body`, then stops it. No sockets, no processes, no sleeps: messages move in memory in an
/// order drawn from `seed`, and time is virtual (``SimulatedRuntime/advance(by:)``).
///
/// ```swift
/// try await withSimulatedRuntime(topology: "Config/app.yaml", kinds: GridHost.kinds) { runtime in
///     try await runtime.perform([.invoke("board", verb: "insert", arguments: ["a", "0"])])
///     try await runtime.runUntilIdle()
///     #expect(try await runtime.snapshot().views[.root("a")]?.frame == cell)
/// }
/// ```
///
/// Every host of the topology offers every kind of `kinds` (a real topology's hosts may run different executables).
public func withSimulatedRuntime<Result: Sendable>(
    topology topologyPath: String,
    kinds: BehaviorRegistry,
    seed: UInt64 = 1,
    _ body: (SimulatedRuntime) async throws -> Result
) async throws -> Result {
    let topology: Topology
    do {
        topology = try Topology.load(path: topologyPath)
    } catch {
        throw TestRuntimeError.invalid("\(error)")
    }
    var config = RuntimeConfig(runDirectory: "/simulated")
    config.commandEndpoint = "memory://supervisor"
    config.eventEndpoint = "memory://events"
    let world = MemoryWorld(topology: topology, kinds: kinds, offers: await kinds.offers(), seed: seed, config: config)
    let runtime = SimulatedRuntime(world: world)
    do {
        try await world.start()
        try await runtime.runUntilIdle()
        let result = try await body(runtime)
        await world.stop()
        return result
    } catch {
        await world.stop()
        throw error
    }
}

/// A runtime held in memory by ``withSimulatedRuntime(topology:kinds:seed:_:)``: the test's connection to its
/// supervisor (commands, snapshots, typed calls), the way to wait until it is idle and to let virtual time pass, and
/// faults on request.
public final class SimulatedRuntime: Sendable {
    private let world: MemoryWorld
    /// How long ``runUntilIdle()`` waits, in real time, for controllers' code to finish what it began.
    public let limit: Duration = .seconds(10)

    init(world: MemoryWorld) { self.world = world }

    /// The topology's hosts, by name.
    public var hosts: [String] { world.topology.hosts }

    /// Applies `requests` as one transaction and returns the events they caused, or throws the rejection. `hosts`
    /// places the controllers a `create` makes.
    @discardableResult
    public func perform(
        _ requests: [Request],
        hosts: [ControllerID: String] = [:]
    ) async throws(RemoteError) -> [Event] {
        let reply = await world.request { requestID, clientID in
            ClientRequest.commands(requests, hosts: hosts, requestID: requestID, clientID: clientID)
        }
        return try ServerReply.accepted(reply).modelEvents()
    }

    /// Applies `commands`, issued by the system (an operator's commands, as `ctl`'s), as one transaction.
    @discardableResult
    public func perform(_ commands: [Command], hosts: [ControllerID: String] = [:]) async throws(RemoteError) -> [Event]
    {
        try await perform(commands.map(Request.system), hosts: hosts)
    }

    /// The whole tree now.
    public func snapshot() async throws(RemoteError) -> TreeSnapshot {
        let reply = await world.request { requestID, clientID in
            ClientRequest.snapshot(requestID: requestID, clientID: clientID)
        }
        let snapshot = try ServerReply.snapshot(reply)
        do {
            return try snapshot.model()
        } catch {
            throw RemoteError(error)
        }
    }

    /// The callbacks `controller`'s actor received, oldest first, as its host reports them.
    public func callbacks(of controller: ControllerID) async throws(RemoteError) -> [Event] {
        let reply = await world.request { requestID, clientID in
            ClientRequest.inspect(controller, requestID: requestID, clientID: clientID)
        }
        let report = try ServerReply.inspected(reply)
        do {
            return try report.callbacks.map { callback throws(ContainmentError) in try callback.model() }
        } catch {
            throw RemoteError(error)
        }
    }

    /// Every event the supervisor published so far, in order, as a subscriber of every topic sees them.
    public func events() async throws(RemoteError) -> [Event] {
        do {
            return try await world.published.map { event throws(ContainmentError) in try event.model() }
        } catch {
            throw RemoteError(error)
        }
    }

    /// An actor system whose typed calls go to this runtime, issued by the system party:
    /// `try GridController.resolve(id: "board", using: runtime.actorSystem())`.
    public func actorSystem() -> ContainmentActorSystem {
        ContainmentActorSystem(transport: MemoryCallTransport(world: world))
    }

    /// Moves every message and lets the controllers' code run until nothing is left to do at this virtual time.
    /// Throws ``TestRuntimeError/timedOut(_:)`` when controllers' code still holds work after ``limit`` of real time.
    public func runUntilIdle() async throws {
        try await world.runUntilIdle(limit: limit)
    }

    /// Lets `duration` of virtual time pass (a quarter of a heartbeat interval at a time, idle after each): timed
    /// transitions end, heartbeats go, a host cut off for longer than its timeout is declared down.
    public func advance(by duration: Duration) async throws {
        try await world.advance(by: duration, limit: limit)
    }

    /// Kills the supervisor (SIGKILL) and starts it again after `delay` of virtual time: it recovers from its journal,
    /// the hosts greet it again, the test's unanswered requests are sent again. Requests controllers' code was waiting
    /// for fail with `timeout` at once.
    public func crashSupervisor(restartAfter delay: Duration = .seconds(1)) async throws {
        try await world.crashSupervisor(restartAfter: delay, limit: limit)
    }

    /// Cuts `host` off from the supervisor: what either sends it is held until ``heal(host:)``.
    public func partition(host: String) async throws { try await world.setPartitioned(host, true) }

    /// Ends `host`'s partition: what was held moves, in order.
    public func heal(host: String) async throws {
        try await world.setPartitioned(host, false)
        try await runUntilIdle()
    }

    /// Stops `host` (SIGSTOP): it takes nothing the supervisor sends and its time does not pass, until
    /// ``resume(host:)``. Code its controllers were running goes on.
    public func pause(host: String) async throws { try await world.setPaused(host, true) }

    public func resume(host: String) async throws {
        try await world.setPaused(host, false)
        try await runUntilIdle()
    }
}

/// Typed calls from the test, through the memory world's supervisor.
private struct MemoryCallTransport: MethodCallTransport {
    let world: MemoryWorld

    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        let reply = await world.request { requestID, clientID in
            ClientRequest.call(
                target,
                method: method,
                arguments: arguments,
                by: .system,
                requestID: requestID,
                clientID: clientID
            )
        }
        return try ServerReply.callOutcome(reply)
    }
}
