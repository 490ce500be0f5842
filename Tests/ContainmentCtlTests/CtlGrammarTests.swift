import ArgumentParser
import ContainmentBus
import ContainmentModel
import Foundation
import Testing

@testable import ContainmentCtl

/// `ctl`'s verbs parsed as the command line gives them, and the model requests they stand for — without a process or
/// a socket: the state a verb reads is a tree built from a model state.
@Suite struct CtlGrammarTests {
    /// A window 320x480 whose root is `menu` (a container, with its root view loaded), `first` and `second` beside it;
    /// `menu` and `first` on host h1, `second` on h2.
    static func tree() throws -> TreeView {
        var state = ContainmentState()
        _ = try state.apply(
            batch: [
                .system(.create("menu", kind: .content)), .system(.create("first", kind: .content)),
                .system(.create("second", kind: .content)),
                .system(.attachWindow("main", root: "menu", size: Size(width: 320, height: 480))),
                .by(
                    "first",
                    .setProperties("first", [.navigationItem(NavigationItem(title: "Inbox", rightItems: ["edit"]))])
                ),
            ]
        )
        return TreeView(state: state) { $0 == "second" ? "h2" : "h1" }
    }

    /// The requests of one `ctl` line (the words after `ctl`), reading `tree` when the verb needs the state.
    static func requests(_ words: [String], tree: TreeView? = nil) throws -> [Request] {
        let parsed = try CtlCommand.parseAsRoot(words)
        let verb = try #require(parsed as? any CtlVerb, "\(words) is not a verb")
        return try verb.requests {
            guard let tree else { throw ValidationError("this verb should not read the state") }
            return tree
        }
    }

    @Test func aVerbIsItsCommandByTheNaturalParty() throws {
        #expect(
            try Self.requests(["add-child", "menu", "first"]) == [Request(.addChild("first", to: "menu"), by: .natural)]
        )
        #expect(
            try Self.requests(["will-move", "first", "--to", "none"])
                == [Request(.willMove("first", toParent: nil), by: .natural)]
        )
    }

    @Test func byNamesTheParty() throws {
        #expect(
            try Self.requests(["set-alpha", "first", "0.5", "--by", "first"])
                == [Request(.setAlpha(.root("first"), 0.5), by: .controller("first"))]
        )
        #expect(
            try Self.requests(["load-view", "first", "--by", "system"]) == [Request(.loadView("first"), by: .system)]
        )
    }

    @Test func aNegativeOriginIsAFrameNotAnOption() throws {
        #expect(
            try Self.requests(["set-frame", "first", "-320,0,320,480"])
                == [Request(.setFrame(.root("first"), Rect(x: -320, y: 0, width: 320, height: 480)), by: .natural)]
        )
    }

    @Test func malformedValuesAreUsageErrorsThatSayWhatIsExpected() throws {
        #expect {
            try Self.requests(["set-frame", "first", "1,2,3"])
        } throws: { error in
            "\(error)".contains("is not a frame (x,y,width,height")
        }
        #expect {
            try Self.requests(["set-hidden", "first", "perhaps"])
        } throws: { error in
            "\(error)".contains("is not true or false")
        }
        #expect(throws: (any Error).self) { try CtlCommand.parseAsRoot(["add-chlid", "menu", "first"]) }
    }

    @Test func embedWithoutAFrameFillsTheParentsBounds() throws {
        let expected = SeedListings.displayContentController(
            "first",
            in: "menu",
            superview: nil,
            frame: Rect(x: 0, y: 0, width: 320, height: 480)
        ).map { Request($0.command, by: .natural) }
        #expect(try Self.requests(["embed", "menu", "first"], tree: Self.tree()) == expected)
        #expect(expected.count == 4)
    }

    @Test func memoryWarningForAHostNamesItsControllersInCreationOrder() throws {
        #expect(
            try Self.requests(["memory-warning", "--host", "h1"], tree: Self.tree())
                == [Request(.memoryWarning(["menu", "first"]), by: .natural)]
        )
        #expect(try Self.requests(["memory-warning"]) == [Request(.memoryWarning(nil), by: .natural)])
    }

    @Test func aNavigationItemOptionKeepsTheItemsOtherParts() throws {
        let requests = try Self.requests(["set-properties", "first", "--back-title", "Back"], tree: Self.tree())
        let item = NavigationItem(title: "Inbox", backTitle: "Back", rightItems: ["edit"])
        #expect(requests == [Request(.setProperties("first", [.navigationItem(item)]), by: .natural)])
        #expect {
            try Self.requests(["set-properties", "nobody", "--nav-title", "x"], tree: Self.tree())
        } throws: { error in
            "\(error)".contains("There is no controller nobody")
        }
    }

    @Test func aBatchIsItsLinesInOrderReadingTheStateOnce() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-batch-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        # a comment, then a blank line

        create third --host h2
        embed menu third
        memory-warning --host h1
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let batch = try #require(try CtlCommand.parseAsRoot(["batch", file]) as? CtlVerbs.Batch)
        var reads = 0
        let placed = try batch.placedRequests {
            reads += 1
            return try Self.tree()
        }
        #expect(reads == 1)
        #expect(placed.first == Placed(Request(.create("third", kind: .content), by: .natural), host: "h2"))
        #expect(placed.dropFirst().allSatisfy { $0.host == nil })
        #expect(placed.count == 1 + 4 + 1)
        #expect(placed.last?.request == Request(.memoryWarning(["menu", "first"]), by: .natural))
    }

    @Test func aBatchNamesTheLineItCannotRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-batch-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "add-child menu first\nadd-chlid menu second\n".write(toFile: file, atomically: true, encoding: .utf8)
        let batch = try #require(try CtlCommand.parseAsRoot(["batch", file]) as? CtlVerbs.Batch)
        #expect {
            try batch.placedRequests { try Self.tree() }
        } throws: { error in
            "\(error)".hasPrefix("line 2:")
        }
        try "batch other.txt\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect {
            try batch.placedRequests { try Self.tree() }
        } throws: { error in
            "\(error)".contains("a batch cannot hold another batch")
        }
    }
}

extension CtlGrammarTests {
    /// A verb's arguments may look like flags (`rotate -1`) without a `--`; ctl's own flags still parse, anywhere.
    @Test func invokeTakesNegativeNumbersAsArguments() throws {
        #expect(
            try Self.requests(["invoke", "ring", "rotate", "-1"])
                == [Request(.invoke("ring", verb: "rotate", arguments: ["-1"]), by: .natural)]
        )
        #expect(
            try Self.requests(["invoke", "ring", "move", "-2", "3", "--by", "menu"])
                == [Request(.invoke("ring", verb: "move", arguments: ["-2", "3"]), by: .controller("menu"))]
        )
        #expect(
            try Self.requests(["invoke", "--by", "menu", "ring", "move", "-2"])
                == [Request(.invoke("ring", verb: "move", arguments: ["-2"]), by: .controller("menu"))]
        )
    }
}
