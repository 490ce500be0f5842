import ContainmentBus
import ContainmentModel
import ContainmentTracing
import Testing
import W3CTraceContext

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// A traced command through the supervisor's core and driver, in a world of its own (docs/PROTOCOL.md, "Tracing"):
/// its spans and their parentage, the trace context its delivery carries to the host, a trace request gathered from
/// the host or answered without it, and an untraced command that keeps nothing.
@Suite struct SupervisorTracingTests {
    /// Sockets that take everything, a journal whose write and sync take 100 µs, and a clock that moves 1 µs at
    /// every reading (so each hop has a length).
    final class World: SupervisorWorld {
        let clock = SupervisorCoreTests.ManualClock()
        var sent: [(peer: [UInt8], body: [UInt8])] = []

        var time: SupervisorTime {
            clock.advance(.microseconds(1))
            return clock.time
        }
        func stepBegins(_ step: SupervisorStep, core: SupervisorCore) {}
        func journal(_ records: [[UInt8]]) throws(JournalFailure) { clock.advance(.microseconds(100)) }
        var barred: JournalFailure? { nil }
        func failed(_ failure: JournalFailure) {}
        func publish(topic: [UInt8], body: ArraySlice<UInt8>) {}
        func heartbeat(_ body: [UInt8]) {}
        func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome {
            sent.append((peer, body))
            return .sent
        }
        var metricsText: [UInt8] { [] }
        func stepCarriedOut(core: SupervisorCore) throws(JournalFailure) {}

        /// What went to `peer` since the last look.
        func take(_ peer: [UInt8]) throws -> [ServerMessage] {
            let taken = sent.filter { $0.peer == peer }
            sent.removeAll { $0.peer == peer }
            return try taken.map { try ServerMessage.decode($0.body) }
        }
    }

    static let host: [UInt8] = [7, 7]
    static let client: [UInt8] = [1, 1]
    static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    static func driver(_ world: World) throws -> SupervisorDriver {
        let core = SupervisorCore(
            recovery: Recovery(clients: ClientReplies(window: 64, clients: 64)),
            config: SupervisorCoreTests.config,
            at: world.time
        )
        _ = core.begin()
        var driver = SupervisorDriver(core)
        driver.handle(.message([host, SupervisorCoreTests.hello("h1")]), in: world)
        driver.flush(world)
        _ = try world.take(host)
        return driver
    }

    static func request(_ commands: [ClientCommand], id: UInt64, traceparent: String) throws -> [UInt8] {
        var message = try ClientMessage.decode(ClientRequest.commands(commands, requestID: id, clientID: "c"))
        message.traceparent = traceparent
        return message.bytes
    }

    static func send(_ bytes: [UInt8], _ driver: inout SupervisorDriver, _ world: World) {
        driver.handle(.message([client, bytes]), in: world)
        driver.flush(world)
    }

    @Test func aTracedCommandsHopsAreChildrenOfTheClientsSpanAndItsDeliveryCarriesTheContext() throws {
        let world = World()
        var driver = try Self.driver(world)
        let commands = [
            SupervisorCoreTests.create("a", host: "h1"), ClientCommand(Request(.loadView("a"), by: .natural)),
        ]
        Self.send(try Self.request(commands, id: 1, traceparent: Self.traceparent), &driver, world)
        guard case .accepted(let accepted)? = try world.take(Self.client).first?.body else {
            Issue.record("not accepted")
            return
        }
        let spans = driver.core.spans.spans(ofCommand: accepted.commandID)
        let byName = Dictionary(grouping: spans, by: \.name)
        #expect(
            Set(byName.keys) == [
                "supervisor.command", "decode", "admission", "model", "journal", "publish", "reply",
                "deliver",
            ]
        )
        let context = try TraceContext(traceParentHeaderValue: Self.traceparent)
        let root = try #require(byName["supervisor.command"]?.first)
        #expect(root.parentSpanID == context.spanID && root.traceID == context.traceID)
        for span in spans where span.name != "supervisor.command" {
            #expect(span.parentSpanID == root.spanID && span.traceID == context.traceID, "\(span.name)")
            #expect(span.startUnixNanos >= root.startUnixNanos && span.endUnixNanos <= root.endUnixNanos)
        }
        // Journal first: nothing of the command went out before its record was durable.
        let journal = try #require(byName["journal"]?.first)
        // The write and sync's 100 µs, and the world's 1 µs for the reading that ends it.
        #expect(journal.duration == .microseconds(101))
        for name in ["publish", "reply", "deliver"] {
            #expect(try #require(byName[name]?.first).startUnixNanos >= journal.endUnixNanos, "\(name)")
        }
        let deliver = try #require(byName["deliver"]?.first)
        #expect(deliver.detail == "h1")
        // The host continues the trace from the supervisor's span of the delivery.
        let delivered = try world.take(Self.host).compactMap { message -> Containment_V1_Delivery? in
            if case .delivery(let delivery) = message.body { delivery } else { nil }
        }
        let link = try #require(delivered.first?.traces.first)
        let carried = try TraceContext(traceParentHeaderValue: link.traceparent)
        #expect(link.commandID == accepted.commandID)
        #expect(carried.traceID == context.traceID && carried.spanID == deliver.spanID)

        // Untraced: no spans, no trace context on its delivery.
        let kept = driver.core.spans.all.count
        Self.send(
            ClientRequest.commands([ClientCommand(Request(.setAlpha(.root("a"), 0.5), by: .natural))], requestID: 2),
            &driver,
            world
        )
        #expect(driver.core.spans.all.count == kept)
        #expect(
            try world.take(Self.host).allSatisfy { message in
                if case .delivery(let delivery) = message.body { delivery.traces.isEmpty } else { true }
            }
        )
        // A traceparent that does not parse, or is not sampled, traces nothing either.
        for bad in ["00-zz", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"] {
            let command = ClientCommand(Request(.setAlpha(.root("a"), 0.25), by: .natural))
            Self.send(try Self.request([command], id: 3, traceparent: bad), &driver, world)
            #expect(driver.core.spans.all.count == kept, "\(bad)")
        }
    }

    @Test func aTraceRequestGathersTheHostsSpansOrNamesTheHostThatDidNotAnswer() throws {
        let world = World()
        var driver = try Self.driver(world)
        let commands = [
            SupervisorCoreTests.create("a", host: "h1"), ClientCommand(Request(.loadView("a"), by: .natural)),
        ]
        Self.send(try Self.request(commands, id: 1, traceparent: Self.traceparent), &driver, world)
        _ = try world.take(Self.host)
        guard case .accepted(let accepted)? = try world.take(Self.client).first?.body else {
            Issue.record("not accepted")
            return
        }
        let own = driver.core.spans.spans(ofCommand: accepted.commandID)
        let ask = ClientMessage.with {
            $0.requestID = 9
            $0.trace = .with { $0.commandID = accepted.commandID }
        }
        Self.send(ask.bytes, &driver, world)
        #expect(try world.take(Self.client).isEmpty, "it waits for the host")
        let forwarded = try #require(try world.take(Self.host).first)
        guard case .trace(let request) = forwarded.body else {
            Issue.record("no trace request forwarded")
            return
        }
        #expect(request.commandID == accepted.commandID)
        let hostSpan = TraceSpan(
            traceID: own[0].traceID,
            spanID: .random(),
            parentSpanID: own.first { $0.name == "deliver" }?.spanID,
            name: "host.dispatch",
            process: "host h1",
            startUnixNanos: 1,
            endUnixNanos: 2,
            commandID: accepted.commandID
        )
        let answer = HostOutbound.traced(
            requestID: forwarded.requestID,
            TraceReport(commandID: accepted.commandID, spans: [hostSpan])
        )
        // The same answer from a peer that was not asked (a forged or stale one) is dropped: the client still waits.
        driver.handle(.message([[9, 9], answer.bytes]), in: world)
        driver.flush(world)
        #expect(try world.take(Self.client).isEmpty)
        driver.handle(.message([Self.host, answer.bytes]), in: world)
        driver.flush(world)
        let reply = try #require(try world.take(Self.client).first)
        guard case .traceReply(let gathered) = reply.body else {
            Issue.record("not a trace reply: \(reply)")
            return
        }
        #expect(reply.requestID == 9)
        #expect(Set(TraceReport(gathered).spans) == Set(own + [hostSpan]) && gathered.unanswered.isEmpty)

        // A host silent past requestTimeoutMs: the client gets what there is, the host named.
        Self.send(ask.bytes, &driver, world)
        _ = try world.take(Self.host)
        world.clock.advance(SupervisorCoreTests.config.requestTimeout)
        driver.tick(in: world)
        driver.flush(world)
        guard case .traceReply(let partial)? = try world.take(Self.client).first?.body else {
            Issue.record("no trace reply after the timeout")
            return
        }
        #expect(Set(TraceReport(partial).spans) == Set(own) && partial.unanswered == ["h1"])
    }

    /// An exporter's feed: the traced commands kept, newer than its cursor, oldest first; an untraced one never listed.
    @Test func theTracedCommandsAreListedPastACursor() throws {
        let world = World()
        var driver = try Self.driver(world)
        var accepted: [UInt64] = []
        for (id, traceparent) in [(1, Self.traceparent), (2, ""), (3, Self.traceparent)] {
            let alpha = ClientCommand(Request(.setAlpha(.root("a"), 0.5), by: .natural))
            let load = ClientCommand(Request(.loadView("a"), by: .natural))
            let commands = id == 1 ? [SupervisorCoreTests.create("a", host: "h1"), load, alpha] : [alpha]
            Self.send(try Self.request(commands, id: UInt64(id), traceparent: traceparent), &driver, world)
            _ = try world.take(Self.host)
            guard case .accepted(let reply)? = try world.take(Self.client).first?.body else {
                Issue.record("request \(id) not accepted")
                return
            }
            accepted.append(reply.commandID)
        }
        func listed(after cursor: UInt64) throws -> [UInt64] {
            let ask = ClientMessage.with {
                $0.requestID = 20
                $0.tracedCommands = .with { $0.after = cursor }
            }
            Self.send(ask.bytes, &driver, world)
            let reply = try #require(try world.take(Self.client).first)
            guard case .tracedCommands(let list) = reply.body else {
                Issue.record("not a traced-commands answer: \(reply)")
                return []
            }
            #expect(reply.requestID == 20)
            return list.commandIds
        }
        #expect(try listed(after: 0) == [accepted[0], accepted[2]])
        #expect(try listed(after: accepted[0]) == [accepted[2]])
        #expect(try listed(after: accepted[2]).isEmpty)
    }
}
