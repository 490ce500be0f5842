import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// The seed corpus, from real encodings: a fuzzer that starts from valid inputs reaches past the decoders.
enum Seeds {
    static func write(to root: String) throws {
        func commands(_ list: [Request], hosts: [ControllerID: String] = [:]) -> [UInt8] {
            ClientRequest.commands(list, hosts: hosts, requestID: 3, clientID: "seed")
        }
        let command: [String: [UInt8]] = [
            "create": commands(
                [.system(.create("c", kind: .content)), Request(.addChild("c", to: "a"), by: .natural)],
                hosts: ["c": "h0"]
            ),
            "frame": commands([Request(.setFrame(.root("b"), Rect(x: 1, y: 2, width: 3, height: 4)), by: .natural)]),
            // A view's properties, which the batch's fast path reads itself (ViewPropertyCommand).
            "viewProperties": commands([
                Request(.setAlpha(ViewID(owner: "b", name: "label"), 0.5), by: .controller("b")),
                Request(.setHidden(.root("b"), true), by: .controller("a")),
                Request(.setFrame(ViewID(owner: "a", name: "v"), .zero), by: .controller("a")),
            ]),
            "present": commands([Request(.present("b", on: "a"), by: .natural)]),
            // Issue 12's commands: messages, properties, editing, rotation, input, actions, verbs, popovers.
            "interaction": commands([
                Request(.send(from: "b", to: "a", name: "done", payload: [1, 2]), by: .natural),
                Request(
                    .setProperties("b", [.title("t"), .supportedOrientations([]), .handles(["tap"])]),
                    by: .natural
                ),
                Request(.setEditing("b", true, animated: true), by: .natural),
                .system(.rotate("w", .portrait)),
                .system(.input("w", at: Point(x: 1, y: 2), kind: "tap")),
                Request(.action(from: "b", name: "done"), by: .natural),
                .system(.invoke("a", verb: "add", arguments: ["b"])),
                Request(
                    .present("c", on: "a", style: .popover, anchor: ViewID(owner: "a", name: "v")),
                    by: .natural
                ),
                Request(.select("a", .index(1), animated: true), by: .natural),
            ]),
            "hello": HostOutbound.hello(requestID: 1, host: "h1", pid: 2, lastSeq: 3, kinds: []).bytes,
            "snapshot": HostOutbound.request(requestID: 4, .snapshot).bytes,
            "inspect": ClientRequest.inspect("a", requestID: 5),
            "heartbeat": HostOutbound.heartbeat(host: "h0").bytes,
            // Issue 25: a typed method call, and a host's answer to one.
            "call": ClientRequest.call(
                "a",
                method: "$s4Kit4GridC3add",
                arguments: ["\"b\"", "1"],
                by: .system,
                requestID: 6,
                clientID: "seed"
            ),
            "callResult": HostOutbound.callResult(seq: 7, controller: "a", .success("[\"b\"]")).bytes,
            // Issue 26: a child driving its container, a swipe with its direction, a bar control's tap.
            "everyday": commands([
                Request(.push("d", on: "n"), by: .controller("m")),
                .system(.input("w", at: Point(x: 3, y: 4), kind: "swipe", direction: .left)),
                .system(.input("w", at: Point(x: 10, y: 10), kind: "tap")),
            ]),
            // Issue 26: a host registering the questions its code answers, and its answer to one.
            "answering": HostOutbound.hello(
                requestID: 1,
                host: "h0",
                pid: 2,
                lastSeq: 0,
                kinds: [
                    KindOffer(kind: "form", verbs: [], questions: ["loadView", "viewWillLayoutSubviews", "pageAfter"])
                ]
            ).bytes,
            // Issue 43: constraints (their expressions read from the wire), and a container kind's child protocol.
            "constraints": commands([
                Request(
                    .constrain(
                        "a",
                        id: "w",
                        LayoutConstraint(
                            LayoutAnchor(.root("b"), .width),
                            .equal,
                            LayoutAnchor(.root("a"), .width),
                            multiplier: 0.5,
                            constant: -10,
                            priority: 750
                        )
                    ),
                    by: .natural
                ),
                Request(.unconstrain("a", id: "w"), by: .natural),
            ]),
            "protocols": HostOutbound.hello(
                requestID: 1,
                host: "h0",
                pid: 2,
                lastSeq: 0,
                kinds: [
                    KindOffer(
                        kind: "grid",
                        verbs: ["insert"],
                        questions: [],
                        requires: ["tapped"],
                        methods: [
                            MethodDescription(
                                name: "insert(child:at:)",
                                parameters: [
                                    .init(label: "child", schema: #"{"type":"string"}"#),
                                    .init(label: "at", schema: #"{"type":"integer"}"#),
                                ],
                                result: #"{"items":{"type":"string"},"type":"array"}"#
                            )
                        ]
                    )
                ]
            ).bytes,
            "methods": ClientRequest.methods(of: "a", requestID: 6),
            "answer": HostOutbound.answer(
                questionID: 1,
                controller: "a",
                Answer(commands: [.addSubview(ViewID(owner: "a", name: "h"), to: .root("a"))], page: "b")
            ).bytes,
        ]
        // Framed records: a start, then a command record; the first byte (1) asks for framing.
        var records: [UInt8] = [1]
        for record in [
            JournalRecords.start(epoch: 1, timeUnixNanos: 0),
            JournalRecords.commands(
                [(.system(.create("a", kind: .content)), "h0")],
                commandID: 1,
                firstSeq: 1,
                eventCount: 1
            ),
            JournalRecords.commands(
                [(Request(.loadView("a"), by: .natural), nil)],
                commandID: 2,
                firstSeq: 2,
                eventCount: 3,
                answers: [(.loadView("a"), .timedOut)]
            ),
        ] where record.count < 256 {
            records.append(UInt8(record.count))
            records += record
        }
        let journal: [String: [UInt8]] = ["records": records, "raw": [0] + Array(repeating: 0x2A, count: 16)]
        let config: [String: [UInt8]] = [
            "runtime": Array(
                "maxBatch: 5\njournalSync: interval\ncurve: {server: x, allow: [{key: y, role: observer}]}\n".utf8
            ),
            "topology": Array(
                "window: {name: w, width: 10, height: 10, root: a}\nhosts: [h0, {name: h1, restart: temporary}]\ncontrollers:\n  - {id: a, kind: menu, host: h0}\n  - {id: b, kind: content, host: h1, parent: a, embed: true}\n"
                    .utf8
            ),
        ]
        for (target, seeds) in [("command", command), ("journal", journal), ("config", config)] {
            let directory = root + "/" + target
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, bytes) in seeds {
                try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
            }
        }
    }
}
