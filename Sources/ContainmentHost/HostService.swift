import ContainmentBus
import ContainmentModel
import ContainmentConfig
import Foundation
import Logging
import ServiceLifecycle
import ZeroMQ

/// `containment host --name NAME` as a `Service`: the socket loop on its own thread and a dispatcher task that hands
/// each controller actor its callbacks in order. Graceful shutdown says goodbye to the supervisor and stops.
package struct HostService: Service {
    let name: String
    let config: RuntimeConfig
    let kinds: BehaviorRegistry
    let pidFile: String?
    let logger: Logger

    package init(
        name: String,
        config: RuntimeConfig,
        kinds: BehaviorRegistry = BehaviorRegistry(),
        pidFile: String?,
        logger: Logger
    ) {
        self.name = name
        self.config = config
        self.kinds = kinds
        self.pidFile = pidFile
        self.logger = logger
    }

    package func run() async throws {
        try RunDirectory.prepare(config.runDirectory)
        let context = try Context()
        let inboxEndpoint = "inproc://host-outbox"
        let (jobs, continuation) = AsyncStream<HostJob>.makeStream()
        let finished = FinishedJobs()
        let name = name
        let config = config
        let logger = logger
        // inproc lets the outbox connect before the loop's inbox binds.
        let runtime = HostRuntime(
            name: name,
            outbox: try Outbox(context: context, endpoint: inboxEndpoint),
            timeout: config.requestTimeout
        )
        if let pidFile { try RunDirectory.writePID(to: pidFile) }
        defer { if let pidFile { RunDirectory.removePID(pidFile) } }
        // Not awaited at the end: jobs still queued when the host stops are not handled (an actor stuck in slow code
        // would hold the stop for ever); the process ends with them.
        let dispatcher = Dispatcher(
            runtime: runtime,
            kinds: kinds,
            logger: logger,
            historyLimit: config.callbackHistory,
            mailboxCapacity: config.mailboxCapacity
        )
        let dispatching = Task { await dispatcher.run(jobs, finished: finished) }
        let offers = await kinds.offers()
        defer { dispatching.cancel() }
        try await withGracefulShutdownHandler {
            try await runOnThread(named: "host-\(name)") {
                do {
                    try HostLoop(
                        name: name,
                        context: context,
                        config: config,
                        inboxEndpoint: inboxEndpoint,
                        runtime: runtime,
                        jobs: continuation,
                        finished: finished,
                        kinds: offers,
                        logger: logger
                    ).run()
                } catch {
                    continuation.finish()
                    throw error
                }
            }
        } onGracefulShutdown: {
            logger.info("host stopping", metadata: ["host.name": "\(name)"])
            Task { await runtime.outbox.stop() }
        }
        await runtime.outbox.close()
        context.terminate()
    }
}

/// Hands the host's jobs to its controller actors, one job at a time and in order, so each actor's mailbox gets its
/// callbacks in the order the supervisor sent them; the actors handle them concurrently.
package struct Dispatcher {
    let runtime: HostRuntime
    let kinds: BehaviorRegistry
    let logger: Logger
    /// How many recent callbacks each actor keeps for `inspect`.
    let historyLimit: Int
    /// How many callbacks an actor's mailbox holds before the dispatcher waits for it.
    let mailboxCapacity: Int

    package init(
        runtime: HostRuntime,
        kinds: BehaviorRegistry,
        logger: Logger,
        historyLimit: Int,
        mailboxCapacity: Int
    ) {
        self.runtime = runtime
        self.kinds = kinds
        self.logger = logger
        self.historyLimit = historyLimit
        self.mailboxCapacity = mailboxCapacity
    }

    /// Hands each job to the actors, in order, until `jobs` ends (or the task is cancelled); each job done is counted
    /// to `finished` (the host loop tells its core), and off the runtime's activity.
    package func run(_ jobs: AsyncStream<HostJob>, finished: FinishedJobs = FinishedJobs()) async {
        var actors = IDTable<ControllerID, ControllerActor>()
        var incarnation: UInt32 = 1
        var tracedActors = TracedActors()
        @discardableResult
        func adopt(_ id: ControllerID, kind: String) -> ControllerActor? {
            guard actors[id] == nil else { return nil }
            let actor = ControllerActor(
                id: id,
                kind: kind,
                kinds: kinds,
                runtime: runtime,
                historyLimit: historyLimit,
                mailboxCapacity: mailboxCapacity,
                incarnation: incarnation
            )
            actors[id] = actor
            return actor
        }
        for await job in jobs {
            defer {
                finished.done()
                runtime.activity?.end()
            }
            // The host stops: what is still queued is left.
            if Task.isCancelled { break }
            switch job {
            case .adopt(let welcome):
                // Reconciled with the supervisor's state (it may have restarted): actors for controllers it does not
                // give this host stop, missing ones are made — restored from their state when this process replaces
                // one that died.
                if welcome.incarnation > 0 { incarnation = welcome.incarnation }
                let kept = Set(welcome.controllers.map(\.id))
                for id in actors.keys where !kept.contains(id) { actors[id] = nil }
                for controller in welcome.controllers {
                    let id = controller.id
                    let made = adopt(id, kind: controller.kind)
                    // Restored: new actors, and those of a host brought up to date (it missed too many callbacks).
                    if welcome.restore, let actor = made ?? actors[id] {
                        await actor.post(.restore(controller, seq: welcome.seq))
                    }
                }
            case .deliver(let events, let traces):
                // Traced commands' callbacks: the dispatch's span is their actors' spans' parent.
                var dispatch = traces.isEmpty ? nil : DispatchTrace(traces)
                defer {
                    if let dispatch {
                        runtime.spans.append(contentsOf: dispatch.spans(host: runtime.name))
                        tracedActors.add(dispatch.reached)
                    }
                }
                for event in events {
                    let id = event.controller
                    guard let kind = event.eventKind else {
                        logger.warning(
                            "dropped a delivery of an unknown kind",
                            metadata: ["event.name": "\(event.name)"]
                        )
                        continue
                    }
                    switch HostDelivery(kind) {
                    case .makeActor: adopt(id, kind: event.controllerKind)
                    case .endActor: actors[id] = nil
                    case .callback:
                        guard let actor = actors[id] else { continue }
                        let trace = dispatch?.actorTrace(for: event)
                        if trace != nil { dispatch?.reached(actor, commandID: event.commandID) }
                        await actor.post(.callback(event, trace: trace))
                    case .notForHosts:
                        logger.warning(
                            "dropped a delivery of an event not for hosts",
                            metadata: ["event.name": "\(event.name)"]
                        )
                    }
                }
            case .question(let question):
                // Asked in the middle of a command that may create the controller: its actor is made now if need be
                // (its controllerCreated, delivered once the command is applied, finds it made).
                let id = question.controller
                guard let model = question.question, let actor = actors[id] ?? adopt(id, kind: question.kind) else {
                    await runtime.outbox.send(.answer(questionID: question.id, controller: id, .nothing))
                    continue
                }
                await actor.post(.question(model, id: question.id))
            case .trace(let requestID, let commandID):
                // Answered once the actors that got the command's callbacks handled them (their spans ended), off
                // the dispatcher.
                let reached = tracedActors.actors(of: commandID)
                let spans = runtime.spans
                let outbox = runtime.outbox
                Task(executorPreference: runtime.executor) {
                    for actor in reached { await actor.handledEarlierMail(host: runtime.name) }
                    let report = TraceReport(commandID: commandID, spans: spans.spans(ofCommand: commandID))
                    await outbox.send(.traced(requestID: requestID, report))
                }
            case .inspect(let requestID, let id):
                let outbox = runtime.outbox
                let answer: @Sendable (InspectReport) async -> Void = { report in
                    await outbox.send(.inspected(requestID: requestID, report))
                }
                if let actor = actors[id] {
                    // Answered by the actor after every callback delivered to it before.
                    await actor.post(.report(host: runtime.name, reply: answer))
                } else {
                    await answer(InspectReport(controller: id, host: runtime.name))
                }
            }
        }
    }
}
