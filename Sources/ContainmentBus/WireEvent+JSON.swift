import ContainmentModel
import Foundation

extension WireEvent {
    /// The object `watch --json` prints: `seq`, `event` (SPEC §10's name), `controller`, `time` (Unix nanoseconds),
    /// `command` id, then the fields this event has: the wire's field names in camelCase (docs/PROTOCOL.md, Events).
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "seq": seq, "event": name, "controller": controller, "time": timeUnixNanos, "commandId": commandID,
        ]
        func rect(_ r: Containment_V1_Rect) -> [Double] { [r.x, r.y, r.width, r.height] }
        func size(_ s: Containment_V1_Size) -> [Double] { [s.width, s.height] }
        guard let eventKind = EventKind(name: name) else { return object }
        switch eventKind {
        case .willMoveToParent, .didMoveToParent:
            object["parent"] = hasParent ? parent : NSNull()
        case .childAdded, .childRemoved:
            object["parent"] = parent
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            object["animated"] = flags.animated
            object["movingToParent"] = flags.movingToParent
            object["movingFromParent"] = flags.movingFromParent
            object["beingPresented"] = flags.beingPresented
            object["beingDismissed"] = flags.beingDismissed
        case .viewWillTransitionToSize:
            object["size"] = size(self.size)
        case .controllerCreated:
            object["kind"] = kind
            object["host"] = host
        case .viewInserted:
            object["view"] = view
            object["superview"] = superview
            object["index"] = Int(index)
        case .viewRemoved:
            object["view"] = view
            object["superview"] = superview
        case .frameChanged:
            object["view"] = view
            object["frame"] = rect(frame)
            object["by"] = by
        case .alphaChanged:
            object["view"] = view
            object["alpha"] = alpha
            object["by"] = by
        case .hiddenChanged:
            object["view"] = view
            object["hidden"] = hidden
            object["by"] = by
        case .windowAttached, .windowResized:
            object["window"] = window
            object["size"] = size(self.size)
        case .transitionBegan, .transitionCompleted:
            object["from"] = from
            object["to"] = to
        case .ruleViolation:
            object["command"] = command
            object["by"] = by
            object["code"] = code
            object["message"] = message
        case .answerTimedOut:
            object["question"] = question
        case .hostUp, .hostRestarted:
            object["host"] = host
            object["pid"] = pid
        case .hostDown, .hostFailed:
            object["host"] = host
            object["reason"] = reason
        case .navigationWillShow, .navigationDidShow:
            object["child"] = child
            object["requestedBy"] = requestedBy
        case .selectionChanged:
            object["child"] = child.isEmpty ? NSNull() : child
            object["index"] = hasIndex ? Int(index) : NSNull()
            object["requestedBy"] = requestedBy
        case .menuVisibilityChanged:
            object["visible"] = visible
        case .pagesChanged:
            object["pages"] = pages
            object["direction"] = direction
            object["requestedBy"] = requestedBy
        case .propertiesChanged:
            object["changed"] = changed
        case .setEditing:
            object["editing"] = editing
            object["animated"] = animated
        case .editingChanged:
            object["editing"] = editing
        case .constraintAdded:
            object["id"] = constraintID
            object["expression"] = expression
        case .constraintRemoved:
            object["id"] = constraintID
        case .inputDelivered:
            object["controller"] = controller.isEmpty ? NSNull() : controller
            object["window"] = window
            object["point"] = [point.x, point.y]
            object["kind"] = kind
            object["view"] = view.isEmpty ? NSNull() : view
            object["chain"] = chain
        case .inputReceived:
            object["kind"] = kind
            object["point"] = [point.x, point.y]
            object["view"] = view
        case .actionDelivered:
            object["controller"] = controller.isEmpty ? NSNull() : controller
            object["from"] = from
            object["name"] = messageName
            object["chain"] = chain
        case .actionReceived:
            object["from"] = from
            object["name"] = messageName
            addPayload(to: &object)
        case .verbInvoked:
            object["verb"] = messageName
            object["arguments"] = arguments
            object["by"] = by
        case .delegateCallback:
            object["container"] = from
            object["callback"] = messageName
            object["child"] = child.isEmpty ? NSNull() : child
            object["animated"] = animated
        case .orientationChanged:
            object["window"] = window
            object["orientation"] = orientation
        case .messageSent:
            object["from"] = from
            object["to"] = to
            object["name"] = messageName
            object["bytes"] = Int(payloadSize)
        case .messageReceived:
            object["from"] = from
            object["name"] = messageName
            addPayload(to: &object)
        case .presented, .dismissed:
            object["presenter"] = presenter
            object["context"] = context
            object["style"] = style
            object["transitionStyle"] = transitionStyle
            object["hidesContext"] = hidesContext
            if !anchor.isEmpty { object["anchor"] = anchor }
        case .loadView, .viewDidLoad, .viewDidUnload, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
            .didReceiveMemoryWarning, .controllerDestroyed:
            break
        }
        return object
    }

    /// The payload as text when it is UTF-8 (clients send JSON text), else `null` and the bytes in base64.
    private func addPayload(to object: inout [String: Any]) {
        if let text = String(data: payload, encoding: .utf8) {
            object["payload"] = text
        } else {
            object["payload"] = NSNull()
            object["payloadBase64"] = payload.base64EncodedString()
        }
    }

    /// One line of JSON.
    public var json: String { JSONText.encode(jsonObject) }

    /// One human line: the sequence number and the event as the model describes it.
    public var line: String {
        let text = (try? model().description) ?? "\(name)(\(controller))"
        let hostSuffix = name == "controllerCreated" && !host.isEmpty ? " host=\(host)" : ""
        return "\(String(seq).leftPadded(to: 6))  \(text)\(hostSuffix)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
