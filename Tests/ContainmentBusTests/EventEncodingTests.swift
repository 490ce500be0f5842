import ContainmentBus
import ContainmentModel
import Testing

/// The supervisor serializes events straight from the model (`PreEncoded.event`): exactly SwiftProtobuf's encoding of
/// the `WireEvent` it stands for, and the same topic.
struct EventEncodingTests {
    static let flags: [AppearanceFlags] = [
        .none,
        AppearanceFlags(animated: true),
        AppearanceFlags(movingToParent: true),
        AppearanceFlags(animated: true, movingFromParent: true, beingDismissed: true),
        AppearanceFlags(
            animated: true,
            movingToParent: true,
            movingFromParent: true,
            beingPresented: true,
            beingDismissed: true
        ),
    ]
    static let sizes: [Size] = [
        Size(width: 0, height: 0), Size(width: 320, height: 0), Size(width: 0, height: 480.5),
        Size(width: -0.0, height: .infinity), Size(width: 1e-300, height: 1024),
    ]
    static let rects: [Rect] = [
        Rect(x: 0, y: 0, width: 0, height: 0), Rect(x: 0, y: 0, width: 320, height: 480),
        Rect(x: -10.5, y: 20, width: 0, height: 3), Rect(x: -0.0, y: .nan, width: 1, height: 0),
    ]
    static let parties: [Party] = [
        .controller("p"), .controller(""), .window("w1"), .window(""), .system, .natural,
    ]
    static let views: [ViewID] = [
        .root("a"), ViewID(owner: "a", name: "label"), .root(""), ViewID(owner: "ü", name: "ß"),
    ]
    static let ids: [ControllerID] = [
        "a", "", ControllerID("a-long-controller-name-" + String(repeating: "x", count: 200)), "日本",
    ]
    static let presentations: [Presentation] = ModalPresentationStyle.allCases.enumerated().map { index, style in
        Presentation(
            presenter: ids[index % ids.count],
            context: ids[(index + 1) % ids.count],
            style: style,
            transitionStyle: ModalTransitionStyle.allCases[index % ModalTransitionStyle.allCases.count],
            hidesContext: index.isMultiple(of: 2)
        )
    }

    /// Properties with every part of SPEC §13 set.
    static let someProperties: ControllerProperties = {
        var properties = ControllerProperties()
        properties.title = "T"
        properties.navigationItem = NavigationItem(title: "N", backTitle: "B", leftItems: ["l"], rightItems: ["r", ""])
        properties.tabItem = TabItem(title: "", badge: "3")
        properties.toolbarItems = ["t"]
        properties.delegate = "d"
        properties.handles = ["tap", "done"]
        properties.supportedOrientations = [.landscapeRight, .portraitUpsideDown]
        properties.preferredContentSize = Size(width: 0, height: 480)
        properties.editing = true
        return properties
    }()

    /// Every case of `Event`, most with several values.
    static let events: [Event] = {
        var events: [Event] = []
        for id in ids {
            events += [
                .loadView(id), .viewDidLoad(id), .viewDidUnload(id), .viewWillLayoutSubviews(id),
                .viewDidLayoutSubviews(id), .didReceiveMemoryWarning(id), .controllerDestroyed(id),
                .willMoveToParent(id, parent: nil), .willMoveToParent(id, parent: "p"),
                .willMoveToParent(id, parent: ""), .didMoveToParent(id, parent: nil),
                .didMoveToParent(id, parent: "p"), .didMoveToParent(id, parent: ""),
                .controllerCreated(id, kind: .content), .controllerCreated(id, kind: Kind("")),
                .controllerCreated(id, kind: Kind("navigation")),
                .childAdded(id, parent: "p"), .childAdded(id, parent: ""), .childRemoved(id, parent: "q"),
                .childRemoved(id, parent: ""),
                .transitionBegan(id, from: "f", to: "t"), .transitionBegan(id, from: "", to: ""),
                .transitionCompleted(id, from: "f", to: ""),
                .navigationWillShow(id, shown: "s", requestedBy: .controller(id)),
                .navigationWillShow(id, shown: "", requestedBy: .system),
                .navigationDidShow(id, shown: "s", requestedBy: .controller("master")),
                .selectionChanged(id, selected: nil, index: nil, requestedBy: .controller(id)),
                .selectionChanged(id, selected: "s", index: 0, requestedBy: .controller("s")),
                .selectionChanged(id, selected: "", index: -1, requestedBy: .system),
                .selectionChanged(id, selected: "s", index: 3, requestedBy: .controller(id)),
                .selectionChanged(id, selected: nil, index: Int(Int32.max) + 5, requestedBy: .controller(id)),
                .selectionChanged(id, selected: "s", index: Int.min, requestedBy: .controller(id)),
                .menuVisibilityChanged(id, visible: true), .menuVisibilityChanged(id, visible: false),
                .pagesChanged(id, pages: [], direction: .forward, requestedBy: .controller(id)),
                .pagesChanged(id, pages: ["p1"], direction: .reverse, requestedBy: .system),
                .pagesChanged(id, pages: ["p1", "", "p3"], direction: .forward, requestedBy: .controller("p1")),
                .ruleViolation(id, command: "addChild", by: .controller("x"), code: .unauthorized, message: "No."),
                .ruleViolation(id, command: "", by: .natural, code: ContainmentError.Code(""), message: ""),
                .ruleViolation(nil, command: "present", by: .system, code: .malformed, message: "ü\n"),
                .messageSent(id, to: "b", name: "done", bytes: 5), .messageSent(id, to: "", name: "", bytes: 0),
                .messageSent(id, to: "b", name: "ü", bytes: Int(UInt32.max) + 1),
                .messageReceived(id, from: "a", name: "done", payload: Array("{\"v\":1}".utf8)),
                .messageReceived(id, from: "", name: "", payload: []),
                .messageReceived(id, from: "a", name: "bin", payload: [0, 255, 128]),
                .setEditing(id, editing: true, animated: false), .setEditing(id, editing: false, animated: true),
                .editingChanged(id, editing: true), .editingChanged(id, editing: false),
                .propertiesChanged(id, changed: [], properties: ControllerProperties()),
                .orientationChanged(id, window: "w", orientation: .portrait),
                .orientationChanged(id, window: "", orientation: .landscapeRight),
                .inputDelivered(
                    id,
                    window: "w",
                    point: Point(x: 1.5, y: 0),
                    kind: "tap",
                    view: ViewID(owner: id, name: "b"),
                    chain: ["x", id]
                ),
                .inputDelivered(nil, window: "w", point: Point(x: 0, y: 0), kind: "", view: nil, chain: []),
                .inputReceived(id, kind: "threeFingerTap", point: Point(x: -3, y: 7), view: .root(id)),
                .actionDelivered(id, from: "x", name: "done", chain: ["x", "", id]),
                .actionDelivered(nil, from: "x", name: "", chain: []),
                .actionReceived(id, name: "done", from: "x", payload: [1, 2]),
                .actionReceived(id, name: "", from: "", payload: []),
                .verbInvoked(id, verb: "add", arguments: ["x", ""], by: .system),
                .verbInvoked(id, verb: "", arguments: [], by: .controller("c")),
                .delegateCallback(id, container: "n", callback: .navigationWillShow, child: "d", animated: true),
                .delegateCallback(id, container: "", callback: .selectionChanged, child: nil, animated: false),
                .propertiesChanged(id, changed: ["title", "navigationItem"], properties: Self.someProperties),
            ]
            events += Question.Name.allCases.map { .answerTimedOut(id, question: $0) }
            for flags in flags {
                events += [
                    .viewWillAppear(id, flags), .viewDidAppear(id, flags), .viewWillDisappear(id, flags),
                    .viewDidDisappear(id, flags),
                ]
            }
            for size in sizes {
                events += [
                    .viewWillTransitionToSize(id, size: size), .windowAttached(id, window: "w", size: size),
                    .windowResized(id, window: "", size: size),
                ]
            }
            for presentation in presentations {
                events += [.presented(id, presentation: presentation), .dismissed(id, presentation: presentation)]
            }
        }
        for (index, view) in views.enumerated() {
            let superview = views[(index + 1) % views.count]
            events += [
                .viewInserted(view: view, superview: superview, index: 2),
                .viewRemoved(view: superview, superview: view),
            ]
            for party in parties {
                for rect in rects { events.append(.frameChanged(view: view, frame: rect, by: party)) }
                for alpha in [0, 1, 0.5, -0.0, -2] { events.append(.alphaChanged(view: view, alpha: alpha, by: party)) }
                events += [
                    .hiddenChanged(view: view, hidden: true, by: party),
                    .hiddenChanged(view: view, hidden: false, by: party),
                ]
                events += [
                    .constraintAdded(view.owner, id: "c1", expression: "a.width == 0.5 * \(view).width - 10 @750"),
                    .constraintAdded(view.owner, id: "", expression: ""),
                    .constraintRemoved(view.owner, id: "c1"),
                ]
                events.append(.ruleViolation("c", command: "setFrame", by: party, code: .malformed, message: "m"))
            }
        }
        for host in ["h0", "", "a-host"] {
            for pid in [0, 1, -1, 65_536, Int(Int32.max) + 1, Int.min] {
                events += [.hostUp(host: host, pid: pid), .hostRestarted(host: host, pid: pid)]
            }
            events.append(.hostDown(host: host, reason: "killed by signal 9 (SIGKILL)"))
            events.append(.hostFailed(host: host, reason: ""))
        }
        return events
    }()

    /// Stamps: zero, small, large, negative time.
    static let stamps: [(seq: UInt64, time: Int64, command: UInt64)] = [
        (0, 0, 0), (1, 1, 1), (127, 128, 300), (1 << 40, 1_700_000_000_000_000_000, UInt64.max),
        (UInt64.max, -1, 0), (5, Int64.min, 1 << 35),
    ]

    @Test func theEventsCoverEveryCase() {
        let names = Set(Self.events.map(\.name))
        #expect(names.count == 53)
        // One list of kinds drives the names, topics and JSON: every event's kind, every kind's name read back.
        #expect(Set(EventKind.allCases.map(\.name)) == names)
        for kind in EventKind.allCases { #expect(EventKind(name: kind.name) == kind) }
        #expect(EventKind(name: "noSuchEvent") == nil && EventCategory(eventName: "noSuchEvent") == .structure)
    }

    @Test func directBytesAreSwiftProtobufs() {
        for (index, event) in Self.events.enumerated() {
            let stamp = Self.stamps[index % Self.stamps.count]
            // The epoch (field 40) comes before the fields numbered after it.
            for (host, epoch) in [("", UInt64(0)), ("h1", UInt64(3))] {
                let expected = WireEvent(
                    event,
                    seq: stamp.seq,
                    timeUnixNanos: stamp.time,
                    commandID: stamp.command,
                    host: host,
                    epoch: epoch
                ).bytes
                let direct = PreEncoded.event(
                    event,
                    seq: stamp.seq,
                    timeUnixNanos: stamp.time,
                    commandID: stamp.command,
                    host: host,
                    epoch: epoch
                )
                #expect(direct == expected, "\(event) host \(host) epoch \(epoch)")
            }
        }
    }

    @Test(arguments: stamps.indices)
    func everyStampIsSwiftProtobufs(stamp: Int) {
        let stamp = Self.stamps[stamp]
        for event in Self.events {
            let expected = WireEvent(event, seq: stamp.seq, timeUnixNanos: stamp.time, commandID: stamp.command).bytes
            let direct = PreEncoded.event(event, seq: stamp.seq, timeUnixNanos: stamp.time, commandID: stamp.command)
            #expect(direct == expected, "\(event)")
        }
    }

    /// The events of SPEC §11 and §13 read back as themselves from their wire form.
    @Test func messageAndPropertyEventsReadBack() throws {
        let events: [Event] = [
            .messageSent("a", to: "b", name: "done", bytes: 5),
            .messageReceived("b", from: "a", name: "done", payload: [0, 1, 255]),
            .messageReceived("b", from: "a", name: "ü", payload: []),
            .propertiesChanged("c", changed: ["title", "navigationItem"], properties: Self.someProperties),
            .propertiesChanged("c", changed: ["title"], properties: ControllerProperties()),
            .setEditing("c", editing: true, animated: true), .editingChanged("c", editing: false),
            .orientationChanged("root", window: "main", orientation: .portraitUpsideDown),
            .inputDelivered(
                "m",
                window: "w",
                point: Point(x: 1.5, y: 2),
                kind: "tap",
                view: ViewID(owner: "m", name: "item-1"),
                chain: ["m"]
            ),
            .inputDelivered(nil, window: "w", point: Point(x: 0, y: 0), kind: "tap", view: nil, chain: []),
            .inputReceived("m", kind: "tap", point: Point(x: 0, y: 3), view: .root("m")),
            .actionDelivered("c", from: "w", name: "done", chain: ["w", "c"]),
            .actionDelivered(nil, from: "w", name: "done", chain: ["w", "c", "root"]),
            .actionReceived("c", name: "done", from: "w", payload: Array("42".utf8)),
            .verbInvoked("main", verb: "add", arguments: ["card", "2"], by: .controller("shell")),
            .delegateCallback("d", container: "n", callback: .navigationDidShow, child: "detail", animated: true),
            .delegateCallback("d", container: "t", callback: .selectionChanged, child: nil, animated: false),
            .presented(
                "v",
                presentation: Presentation(
                    presenter: "c",
                    context: "root",
                    style: .popover,
                    transitionStyle: .crossDissolve,
                    hidesContext: false,
                    anchor: ViewID(owner: "c", name: "button")
                )
            ),
        ]
        for event in events {
            #expect(try WireEvent(event, seq: 1, timeUnixNanos: 1, commandID: 1).model() == event)
        }
    }

    @Test func topicsAreTheWireTopics() {
        for event in Self.events {
            let wire = WireEvent(event, seq: 1, timeUnixNanos: 1, commandID: 1)
            #expect(PreEncoded.topic(of: event) == Array(wire.topic.utf8), "\(event)")
        }
    }
}
