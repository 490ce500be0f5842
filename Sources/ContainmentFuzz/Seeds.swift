import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation

/// The seed corpus, from real encodings: a fuzzer that starts from valid inputs reaches past the decoders.
enum Seeds {
    static func write(to root: String) throws {
        func message(_ build: (inout ClientMessage) -> Void) -> [UInt8] {
            var message = ClientMessage()
            build(&message)
            return message.bytes
        }
        func commands(_ list: [WireCommand]) -> [UInt8] {
            message {
                $0.requestID = 3
                $0.clientID = "seed"
                $0.commands = .with { $0.commands = list }
            }
        }
        let command: [String: [UInt8]] = [
            "create": commands([
                WireCommand(.system(.create("c", kind: .content)), host: "h0"),
                WireCommand(Request(.addChild("c", to: "a"), by: .natural)),
            ]),
            "frame": commands([
                WireCommand(Request(.setFrame(.root("b"), Rect(x: 1, y: 2, width: 3, height: 4)), by: .natural))
            ]),
            "present": commands([WireCommand(Request(.present("b", on: "a"), by: .natural))]),
            // Issue 12's commands: messages, properties, editing, rotation, input, actions, verbs, popovers.
            "interaction": commands([
                WireCommand(Request(.send(from: "b", to: "a", name: "done", payload: [1, 2]), by: .natural)),
                WireCommand(
                    Request(
                        .setProperties("b", [.title("t"), .supportedOrientations([]), .handles(["tap"])]),
                        by: .natural
                    )
                ),
                WireCommand(Request(.setEditing("b", true, animated: true), by: .natural)),
                WireCommand(.system(.rotate("w", .portrait))),
                WireCommand(.system(.input("w", at: Point(x: 1, y: 2), kind: "tap"))),
                WireCommand(Request(.action(from: "b", name: "done"), by: .natural)),
                WireCommand(.system(.invoke("a", verb: "add", arguments: ["b"]))),
                WireCommand(
                    Request(
                        .present("c", on: "a", style: .popover, anchor: ViewID(owner: "a", name: "v")),
                        by: .natural
                    )
                ),
                WireCommand(Request(.select("a", .index(1), animated: true), by: .natural)),
            ]),
            "hello": message {
                $0.requestID = 1
                $0.hello = .with {
                    $0.host = "h1"
                    $0.pid = 2
                    $0.protocolVersion = protocolVersion
                    $0.lastSeq = 3
                }
            },
            "snapshot": message {
                $0.requestID = 4
                $0.snapshot = .init()
            },
            "inspect": message {
                $0.requestID = 5
                $0.inspect = .with { $0.controller = "a" }
            },
            "heartbeat": message { $0.heartbeat = .with { $0.host = "h0" } },
            // Issue 25: a typed method call, and a host's answer to one.
            "call": {
                var call = MethodCallMessage.request(
                    "a",
                    method: "$s4Kit4GridC3add",
                    arguments: ["\"b\"", "1"],
                    by: .system
                )
                call.requestID = 6
                call.clientID = "seed"
                return call.bytes
            }(),
            "callResult": MethodCallMessage.result(seq: 7, controller: "a", .success("[\"b\"]")).bytes,
            // Issue 26: a child driving its container, a swipe with its direction, a bar control's tap.
            "everyday": commands([
                WireCommand(Request(.push("d", on: "n"), by: .controller("m"))),
                WireCommand(.system(.input("w", at: Point(x: 3, y: 4), kind: "swipe", direction: .left))),
                WireCommand(.system(.input("w", at: Point(x: 10, y: 10), kind: "tap"))),
            ]),
            // Issue 26: a host registering the questions its code answers, and its answer to one.
            "answering": message {
                $0.requestID = 1
                $0.hello = .with {
                    $0.host = "h0"
                    $0.pid = 2
                    $0.protocolVersion = protocolVersion
                    $0.verbs = [
                        .with {
                            $0.kind = "form"
                            $0.questions = ["loadView", "viewWillLayoutSubviews", "pageAfter"]
                        }
                    ]
                }
            },
            "answer": message {
                $0.answer = Containment_V1_Answer(
                    id: 1,
                    controller: "a",
                    Answer(commands: [.addSubview(ViewID(owner: "a", name: "h"), to: .root("a"))], page: "b")
                )
            },
        ]
        // Framed records: a start, then a command record; the first byte (1) asks for framing.
        var records: [UInt8] = [1]
        for record in [
            Containment_V1_JournalRecord.with { $0.epoch = 1 }.bytes,
            Containment_V1_JournalRecord.with {
                $0.commandID = 1
                $0.firstSeq = 1
                $0.eventCount = 1
                $0.commands = [WireCommand(.system(.create("a", kind: .content)), host: "h0")]
            }.bytes,
            Containment_V1_JournalRecord.with {
                $0.commandID = 2
                $0.firstSeq = 2
                $0.eventCount = 3
                $0.commands = [WireCommand(Request(.loadView("a"), by: .natural))]
                $0.answers = [Containment_V1_GivenAnswer(.loadView("a"), .timedOut)]
            }.bytes,
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
