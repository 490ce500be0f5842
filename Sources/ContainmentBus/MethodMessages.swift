import ContainmentModel

// Typed methods on the wire (docs/PROTOCOL.md, "Typed method calls"): as a Hello registers them and as the supervisor
// answers `MethodsRequest`.

extension Containment_V1_Method {
    init(_ method: MethodDescription) {
        self.init()
        name = method.name
        parameters = method.parameters.map { parameter in
            .with {
                $0.label = parameter.label
                $0.schema = parameter.schema
            }
        }
        result = method.result
    }
}

extension MethodDescription {
    init(_ wire: Containment_V1_Method) {
        self.init(
            name: wire.name,
            parameters: wire.parameters.map { Parameter(label: $0.label, schema: $0.schema) },
            result: wire.result
        )
    }
}

/// What a controller can be called with, as the supervisor answers `containment methods`.
package struct MethodsReport: Sendable, Equatable {
    package var controller: ControllerID
    package var kind: String
    package var host: String
    /// Its kind's string verbs (`ctl invoke`).
    package var verbs: [String]
    /// Its kind's typed methods (`ctl call`).
    package var methods: [MethodDescription]

    package init(controller: ControllerID, kind: String, host: String, verbs: [String], methods: [MethodDescription]) {
        self.controller = controller
        self.kind = kind
        self.host = host
        self.verbs = verbs
        self.methods = methods
    }

    init(_ wire: Containment_V1_Methods) {
        self.init(
            controller: ControllerID(wire.controller),
            kind: wire.kind,
            host: wire.host,
            verbs: wire.verbs,
            methods: wire.methods.map(MethodDescription.init)
        )
    }

    var wire: Containment_V1_Methods {
        .with {
            $0.controller = controller.rawValue
            $0.kind = kind
            $0.host = host
            $0.verbs = verbs
            $0.methods = methods.map(Containment_V1_Method.init)
        }
    }
}

extension ClientRequest {
    /// What `controller` can be called with.
    package static func methods(of controller: ControllerID, requestID: UInt64, clientID: String = "") -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.clientID = clientID
            $0.methods = .with { $0.controller = controller.rawValue }
        }.bytes
    }
}

extension CommandClient {
    /// What `controller` can be called with, as its host registered its kind.
    package func methods(of controller: ControllerID) throws(RemoteError) -> MethodsReport {
        let reply: ServerMessage
        do {
            reply = try request(.with { $0.methods = .with { $0.controller = controller.rawValue } })
        } catch {
            throw RemoteError(error)
        }
        switch reply.body {
        case .methods(let methods): return MethodsReport(methods)
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a methods request with something else."))
        }
    }
}
