import ContainmentBus
import ContainmentClient
import ContainmentConfig
import Foundation

/// A command and what the controllers' code did in answer (`ctl invoke`): the events published after the command's
/// own, up to the point where the runtime is next idle. The subscription is seen working (its first heartbeat or
/// event) before the command is sent, so nothing the code does is published before it listens.
struct Following {
    let connection: Connection
    let options: CtlOptions

    func submit(_ commands: [Placed]) throws {
        let config = connection.config
        let subscriber: EventSocket
        do {
            subscriber = try EventSocket(
                ownContextTo: config.eventEndpoints,
                keys: try options.runtime.clientKeys(of: config),
                topics: [],
                bound: EventWatch.receiveBound,
                wake: .milliseconds(50)
            )
        } catch {
            FileHandle.standardError.write(Data("hostUnavailable: cannot subscribe to \(config.eventEndpoint)\n".utf8))
            throw ExitStatus.of(.hostUnavailable)
        }
        defer { subscriber.close() }
        try listen(subscriber)
        let accepted = try accept(commands, through: connection, options: options)
        if !options.quiet && !options.json {
            for event in accepted.events { print(event.line) }
        }
        let idle = try waitUntilIdle(connection, timeout: options.waitTimeout)
        let followed = try events(from: subscriber, after: accepted.events.last?.seq ?? idle, through: idle)
        if options.quiet { return }
        if options.json {
            print(
                JSONText.encode([
                    "commandId": accepted.commandID, "events": accepted.events.map(\.jsonObject),
                    "followed": followed.map(\.jsonObject),
                ])
            )
        } else {
            for event in followed { print(event.line) }
        }
    }

    /// Returns once the subscription is seen working, or three heartbeat intervals passed without a word.
    private func listen(_ subscriber: EventSocket) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + connection.config.heartbeatInterval * 3
        while clock.now < deadline {
            switch try receive(subscriber) {
            case .event, .heartbeat: return
            default: continue
            }
        }
    }

    /// The events after seq `first` through seq `last`, as the subscription received them; a warning on standard
    /// error for any it did not get within three heartbeat intervals (a subscriber slower than the runtime's bound).
    private func events(from subscriber: EventSocket, after first: UInt64, through last: UInt64) throws -> [BusEvent] {
        guard last > first else { return [] }
        var events: [BusEvent] = []
        let clock = ContinuousClock()
        let deadline = clock.now + connection.config.heartbeatInterval * 3
        while clock.now < deadline {
            guard case .event(let event, _) = try receive(subscriber) else { continue }
            if event.seq > first && event.seq <= last { events.append(event) }
            if event.seq >= last { return events }
        }
        let missing = last - first - UInt64(events.count)
        FileHandle.standardError.write(Data("warning: \(missing) of the events that followed were not received\n".utf8))
        return events
    }

    private func receive(_ subscriber: EventSocket) throws -> EventSocket.Received {
        let received: EventSocket.Received
        do {
            received = try subscriber.receive()
        } catch {
            FileHandle.standardError.write(Data("hostUnavailable: the event stream failed: \(error)\n".utf8))
            throw ExitStatus.of(.hostUnavailable)
        }
        if case .refused = received {
            FileHandle.standardError.write(
                Data(
                    "unauthorized: the supervisor refused this subscriber (maxSubscribers, or a key not allowed)\n".utf8
                )
            )
            throw ExitStatus.of(.unauthorized)
        }
        return received
    }
}
