extension ContainmentState {
    // MARK: SPEC §11 — messages between related controllers

    /// `from` sends `to` a message: allowed along the relations (parent, child, presenter, presented) and to its
    /// delegate; `to`'s code receives it as a callback, in order with its other callbacks.
    mutating func send(
        from: ControllerID,
        to: ControllerID,
        name: String,
        payload: [UInt8],
        by party: Party
    ) throws(ContainmentError) {
        let sender = try controller(from)
        _ = try controller(to)
        try checkSender(from, party, name: name, sending: "a message")
        guard isRelated(sender, to) else {
            throw ContainmentError(.notRelated, deferred: "\(from) may not send to \(to): they are not related.")
        }
        emit(.messageSent(from, to: to, name: name, bytes: payload.count))
        emit(.messageReceived(to, from: from, name: name, payload: payload))
    }

    /// A message or an action goes only as its sender (`unauthorized`), under a name (`malformed`).
    func checkSender(_ id: ControllerID, _ party: Party, name: String, sending what: String) throws(ContainmentError) {
        guard party == .controller(id) else {
            throw ContainmentError(.unauthorized, deferred: "\(party) may not send \(what) as \(id); only \(id) may.")
        }
        guard Self.isValidLabel(name) else {
            throw ContainmentError(
                .malformed,
                deferred: "The name of \(what) from \(id) is empty or has control characters."
            )
        }
    }

    /// Whether `sender` may send to `target`: its parent, a child, its presenter (the one that asked, or the context
    /// it covers), the controller it presented (or the one presented on its context for it), or its delegate.
    func isRelated(_ sender: Controller, _ target: ControllerID) -> Bool {
        let id = sender.id
        if sender.parent == target || sender.properties.delegate == target { return true }
        if controllers[target]?.parent == id { return true }
        if sender.presenting == target || presentations[id]?.presenter == target { return true }
        if sender.presented == target || presentations[target]?.presenter == id { return true }
        return false
    }
}

extension ContainmentState {
    // MARK: Custom container verbs

    /// `invoke(C, verb, arguments)`: C's code receives `verbInvoked` and acts as C. Which verbs a kind has is the
    /// runtime's to know (its hosts register them); the model checks the call itself.
    mutating func invoke(
        _ id: ControllerID,
        verb: String,
        arguments: [String],
        by party: Party
    ) throws(ContainmentError) {
        _ = try controller(id)
        guard Self.isValidLabel(verb) else {
            throw ContainmentError(.malformed, deferred: "A verb of \(id) has a name without control characters.")
        }
        emit(.verbInvoked(id, verb: verb, arguments: arguments, by: party))
    }
}
