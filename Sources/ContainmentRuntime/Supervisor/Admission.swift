import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// What a request may not do before the rules see it (SPEC §14): the limits of its size (`maxBatch`, `maxTextBytes`)
/// and what its sender's role allows (with CURVE). Its refusals name the limit or the role, never echo the input.
struct Admission: Sendable {
    let maxBatch: Int
    let maxTextBytes: Int

    /// The limit a batch of `count` commands breaks (`maxBatch`, `maxTextBytes`), as the error to answer — naming the
    /// limit, never echoing the input; `nil` within them. `bytes`: a bound on its texts' length, its size or its
    /// longest part's (a request no longer than `maxTextBytes` cannot hold a longer text, so its texts are not
    /// measured); `longestText` measures them.
    func exceedsLimits(count: Int, bytes: Int, longestText: () -> Int) -> ContainmentError? {
        if count > maxBatch {
            return ContainmentError(
                .limitExceeded,
                "The request holds \(count) commands; at most \(maxBatch) (maxBatch) are taken in one."
            )
        }
        guard bytes > maxTextBytes else { return nil }
        let longest = longestText()
        guard longest <= maxTextBytes else {
            return ContainmentError(
                .limitExceeded,
                "A text of the request (an id, a name or a title) is \(longest) bytes long; at most "
                    + "\(maxTextBytes) (maxTextBytes) are taken."
            )
        }
        return nil
    }

    /// What a peer's role does not allow it (`nil`: allowed, or no CURVE): an observer only reads (snapshots,
    /// inspects, events); a host's key registers that host only, and acts only once registered, as its controllers;
    /// an operator acts as any party but registers no host.
    static func refusal(
        of body: InboundRequest.Body,
        role: CurveSettings.Role?,
        registeredAs registered: @autoclosure () -> String?
    ) -> ContainmentError? {
        guard let role else { return nil }
        switch body {
        case .snapshot, .inspect, .metrics, .methods, .trace, .tracedCommands, .empty:
            return nil
        case .spans:
            // The spans of the commands it sent: an observer sends none.
            return role == .observer ? ContainmentError(.unauthorized, "An observer sends no commands' spans.") : nil
        case .commands:
            return refusal(ofCommandsFrom: role, registeredAs: registered())
        case .hello(let hello):
            guard case .host(let name) = role else {
                return ContainmentError(.unauthorized, "Only a host's key registers a host; this one is \(role.name).")
            }
            guard hello.host == name else {
                return ContainmentError(.unauthorized, "This key registers host \(name) only.")
            }
            return nil
        case .heartbeat(let host):
            return role == .host(host) ? nil : ContainmentError(.unauthorized, "Only host \(host)'s key beats for it.")
        case .goodbye(let host):
            return role == .host(host)
                ? nil : ContainmentError(.unauthorized, "Only host \(host)'s key says its goodbye.")
        case .inspected:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers an inspect.") }
            return nil
        case .answer:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers a question.") }
            return nil
        case .callAnswer:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers a call.") }
            return nil
        case .traced:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers a trace.") }
            return nil
        }
    }

    /// Commands from a peer of `role`: an operator's are taken; a host's only on the connection it registered on
    /// (`registered`: the host registered on the sender's connection, looked up only for a host's key), then as its own
    /// controllers; an observer's never.
    static func refusal(
        ofCommandsFrom role: CurveSettings.Role?,
        registeredAs registered: @autoclosure () -> String?
    ) -> ContainmentError? {
        switch role {
        case nil, .operator?: return nil
        case .observer?: return ContainmentError(.unauthorized, "An observer reads; it does not act.")
        case .host(let name)?:
            return registered() == name
                ? nil : ContainmentError(.unauthorized, "Host \(name)'s key acts only once that host is registered.")
        }
    }
}

extension Admission {
    /// The limit a decoded request breaks: its commands' count, its texts' length (`bytes`: its size).
    func exceedsLimits(_ request: InboundRequest, bytes: Int) -> ContainmentError? {
        exceedsLimits(count: request.commands.count, bytes: bytes, longestText: { request.longestText })
    }
}
