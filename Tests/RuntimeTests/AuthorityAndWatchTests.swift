import ContainmentBus
import ContainmentModel
import Foundation
import Testing

/// R2 through the runtime, and what subscribers see.
@Suite(.serialized) struct AuthorityAndWatchTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: parent}
        controllers:
          - {id: parent, kind: content, host: h0}
          - {id: child, kind: content, host: h1, parent: parent, embed: [0, 0, 400, 300]}
          - {id: sibling, kind: content, host: h1, parent: parent, embed: [400, 0, 400, 300]}
        """

    static func frame(of id: String, in tree: [String: Any]) -> [Double]? {
        let controllers = tree["controllers"] as? [[String: Any]] ?? []
        return controllers.first { $0["id"] as? String == id }?["frame"] as? [Double]
    }

    @Test func onlyTheParentSetsTheChildsFrame() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let watch = try await runtime.startWatch([
                "--json", "--topic", "runtime/ruleViolation", "--count", "3", "--idle-timeout", "60",
            ])
            let before = Self.frame(of: "child", in: try await runtime.treeJSON())
            #expect(before == [0, 0, 400, 300])
            for by in ["child", "sibling", "system"] {
                let rejected = try await runtime.containment("ctl", "set-frame", "child", "10,10,100,100", "--by", by)
                #expect(rejected.status == 1)
                #expect(
                    rejected.stderr.hasPrefix(
                        "frameAuthority: Only parent may set the frame of child's root view; \(by) may not."
                    )
                )
                #expect(rejected.stdout.isEmpty)
            }
            #expect(Self.frame(of: "child", in: try await runtime.treeJSON()) == before)
            let json = try await runtime.containment("ctl", "set-frame", "child", "1,1,1,1", "--by", "child", "--json")
            #expect(json.status == 1)
            #expect(JSON.object(json.stdout)?["code"] as? String == "frameAuthority")

            // Every rejection was published as a ruleViolation naming the command, the requester, the rule and the error.
            let violations = try await watch.value.lines.compactMap(JSON.object)
            #expect(violations.map { $0["by"] as? String } == ["child", "sibling", "system"])
            for violation in violations {
                #expect(violation["event"] as? String == "ruleViolation")
                #expect(violation["command"] as? String == "set-frame")
                #expect(violation["code"] as? String == "frameAuthority")
                #expect(violation["controller"] != nil)
            }

            let accepted = try await runtime.containment("ctl", "set-frame", "child", "-10,10,200,100")
            #expect(accepted.status == 0, "\(accepted.stderr)")
            #expect(accepted.eventDescriptions.first == "frameChanged(child) view=child frame=-10,10,200,100 by=parent")
            #expect(Self.frame(of: "child", in: try await runtime.treeJSON()) == [-10, 10, 200, 100])
        }
    }

    /// A subscriber that joins late, with a snapshot first, ends with the same tree as `tree`: nothing missed or doubled.
    @Test func lateWatchFromStartReconstructsTheTree() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            // History before the subscriber joins.
            #expect(try await runtime.containment("ctl", "create", "late", "--host", "h0").status == 0)
            #expect(
                try await runtime.containment("ctl", "embed", "parent", "late", "--frame", "0,300,800,300").status == 0
            )
            // It ends 8 s after the last event: under a whole run's load (etcd clusters among it) one `ctl` below
            // has taken more than 2 s.
            let watch = try await runtime.startWatch(["--from-start", "--json", "--idle-timeout", "8"])
            // Live changes after it joined.
            #expect(try await runtime.containment("ctl", "unembed", "sibling").status == 0)
            #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,800,600").status == 0)
            #expect(try await runtime.containment("ctl", "set-hidden", "child", "true").status == 0)
            #expect(try await runtime.containment("ctl", "resize", "main", "1024x768").status == 0)
            let lines = try await watch.value.lines
            var tree = try #require(lines.first.flatMap(JSON.object)?["snapshot"] as? [String: Any])
            // The snapshot came before the live changes: all of them arrive as events after it.
            #expect(lines.contains { $0.contains("\"event\":\"windowResized\"") })
            #expect(lines.contains { $0.contains("\"event\":\"childRemoved\"") })
            var seq = tree["seq"] as? Int ?? -1
            for line in lines.dropFirst() {
                let event = try #require(JSON.object(line))
                let eventSeq = try #require(event["seq"] as? Int)
                #expect(eventSeq == seq + 1, "missed or doubled: \(seq) then \(eventSeq)")
                seq = eventSeq
                TreeFold.apply(event, to: &tree)
            }
            tree["seq"] = seq
            let now = try await runtime.treeJSON()
            #expect(NSDictionary(dictionary: tree).isEqual(to: now), "watch: \(tree)\ntree: \(now)")
        }
    }
}

/// An independent fold of `watch --json` events into `tree --json`'s shape, written from SPEC §10 alone.
enum TreeFold {
    static func apply(_ event: [String: Any], to tree: inout [String: Any]) {
        var controllers = tree["controllers"] as? [[String: Any]] ?? []
        let id = event["controller"] as? String ?? ""
        func update(_ target: String, _ change: (inout [String: Any]) -> Void) {
            guard let index = controllers.firstIndex(where: { $0["id"] as? String == target }) else { return }
            change(&controllers[index])
        }
        switch event["event"] as? String {
        case "childAdded":
            update(id) { $0["parent"] = event["parent"] }
            update(event["parent"] as? String ?? "") { $0["children"] = ($0["children"] as? [String] ?? []) + [id] }
        case "childRemoved":
            update(id) { $0["parent"] = NSNull() }
            update(event["parent"] as? String ?? "") {
                $0["children"] = ($0["children"] as? [String] ?? []).filter { $0 != id }
            }
        case "constraintAdded":
            update(id) {
                $0["constraints"] =
                    ($0["constraints"] as? [[String: Any]] ?? []) + [
                        ["id": event["id"] ?? "", "expression": event["expression"] ?? ""]
                    ]
            }
        case "constraintRemoved":
            update(id) {
                let left = ($0["constraints"] as? [[String: Any]] ?? []).filter {
                    $0["id"] as? String != event["id"] as? String
                }
                $0["constraints"] = left.isEmpty ? nil : left
            }
        case "frameChanged" where event["view"] as? String == id:
            update(id) { $0["frame"] = event["frame"] }
        case "loadView": update(id) { $0["frame"] = [0.0, 0.0, 0.0, 0.0] }
        case "viewDidUnload": update(id) { $0["frame"] = NSNull() }
        case "viewWillAppear": update(id) { $0["appearance"] = "appearing" }
        case "viewDidAppear": update(id) { $0["appearance"] = "appeared" }
        case "viewWillDisappear": update(id) { $0["appearance"] = "disappearing" }
        case "viewDidDisappear": update(id) { $0["appearance"] = "disappeared" }
        case "windowResized":
            var windows = tree["windows"] as? [[String: Any]] ?? []
            if let index = windows.firstIndex(where: { $0["name"] as? String == event["window"] as? String }) {
                windows[index]["size"] = event["size"]
            }
            tree["windows"] = windows
        default: break
        }
        tree["controllers"] = controllers
    }
}
