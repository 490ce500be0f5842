import ContainmentModel
import Foundation
import Testing

@testable import ContainmentBus

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `tree --svg` and `tree --dot` from a snapshot of a known state: every view of the window drawn at its place, to
/// scale, hidden and alpha shown, the presentation on top; the graph's nodes and edges.
@Suite struct TreeDrawingTests {
    /// A window 320×480 with root `root`; child `child` (alpha 0.5) at (10, 20, 100, 50) holding a hidden `label`
    /// at (5, 5, 40, 10); `modal` presented full screen on `root`; `loose` in no window.
    static func snapshot() throws -> WireSnapshot {
        var state = ContainmentState()
        let commands: [Command] = [
            .create("root", kind: .content),
            .create("child", kind: .content),
            .create("modal", kind: .content),
            .create("loose", kind: .content),
            .attachWindow("main", root: "root", size: Size(width: 320, height: 480)),
            .addChild("child", to: "root"),
            .addSubview(.root("child"), to: .root("root")),
            .setFrame(.root("child"), Rect(x: 10, y: 20, width: 100, height: 50)),
            .setAlpha(.root("child"), 0.5),
            .addSubview(ViewID(owner: "child", name: "label"), to: .root("child")),
            .setFrame(ViewID(owner: "child", name: "label"), Rect(x: 5, y: 5, width: 40, height: 10)),
            .setHidden(ViewID(owner: "child", name: "label"), true),
            .present("modal", on: "root", style: .fullScreen),
        ]
        for command in commands { _ = try state.apply(command, by: .natural) }
        return WireSnapshot(state: state, seq: 1, hosts: [], hostOf: { _ in "h1" })
    }

    /// A snapshot says where each controller stands in a containment move (SPEC §2): added and not yet moved in,
    /// on its way out, settled.
    @Test func aSnapshotTellsEachChildsContainmentStage() throws {
        var state = ContainmentState()
        let commands: [Command] = [
            .create("root", kind: .content), .create("joining", kind: .content), .create("leaving", kind: .content),
            .addChild("joining", to: "root"), .addChild("leaving", to: "root"),
            .didMove("leaving", toParent: "root"), .willMove("leaving", toParent: nil),
        ]
        for command in commands { _ = try state.apply(command, by: .natural) }
        let tree = try WireSnapshot(state: state, seq: 1, hosts: [], hostOf: { _ in "h1" }).model()
        #expect(tree.controller("joining")?.move == .willMove(to: "root"))
        #expect(tree.controller("leaving")?.move == .willMove(to: nil))
        #expect(tree.controller("root")?.move == .settled)
    }

    /// A rectangle as drawn: in the SVG's points, with the opacity it is drawn at.
    struct Drawn: Equatable {
        var view: String
        var x, y, width, height, opacity: Double
        var classes: Set<String>
    }

    /// Reads the rectangles of views from SVG text, composing the groups' translations, scales and opacities.
    final class Reader: NSObject, XMLParserDelegate {
        var stack: [(x: Double, y: Double, scale: Double, opacity: Double)] = [(0, 0, 1, 1)]
        var drawn: [Drawn] = []
        var windows: [String] = []

        func parser(
            _ parser: XMLParser,
            didStartElement element: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let top = stack[stack.count - 1]
            switch element {
            case "g":
                var next = top
                if let window = attributes["data-window"] { windows.append(window) }
                if let transform = attributes["transform"] {
                    let numbers = transform.split(whereSeparator: { "(),".contains($0) }).compactMap { Double($0) }
                    if transform.hasPrefix("translate"), numbers.count == 2 {
                        next.x += numbers[0] * top.scale
                        next.y += numbers[1] * top.scale
                    } else if transform.hasPrefix("scale"), numbers.count == 1 {
                        next.scale *= numbers[0]
                    }
                }
                next.opacity *= attributes["opacity"].flatMap(Double.init) ?? 1
                stack.append(next)
            case "rect":
                guard let view = attributes["data-view"] else { return }
                drawn.append(
                    Drawn(
                        view: view,
                        x: top.x,
                        y: top.y,
                        width: (Double(attributes["width"] ?? "") ?? -1) * top.scale,
                        height: (Double(attributes["height"] ?? "") ?? -1) * top.scale,
                        opacity: top.opacity,
                        classes: Set((attributes["class"] ?? "").split(separator: " ").map(String.init))
                    )
                )
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "g" { stack.removeLast() }
        }
    }

    @Test func eachViewIsDrawnToScaleWhereItIsWithHiddenAlphaAndThePresentationOnTop() throws {
        let svg = WindowDrawing(snapshot: try Self.snapshot()).svg()
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")\n\(svg)")
        #expect(reader.windows == ["main"])
        // The window is 320×480 drawn in a 360-point box: scale 0.75, at (24, 28).
        let expected = [
            Drawn(view: "root", x: 24, y: 28, width: 240, height: 360, opacity: 1, classes: ["view", "root"]),
            Drawn(view: "child", x: 31.5, y: 43, width: 75, height: 37.5, opacity: 0.5, classes: ["view", "root"]),
            Drawn(
                view: "child/label",
                x: 35.25,
                y: 46.75,
                width: 30,
                height: 7.5,
                opacity: 0.175,
                classes: ["view", "hidden"]
            ),
            Drawn(view: "modal", x: 24, y: 28, width: 240, height: 360, opacity: 1, classes: ["view", "root"]),
        ]
        #expect(reader.drawn.count == expected.count, "\(reader.drawn)")
        for (drawn, want) in zip(reader.drawn, expected) {
            #expect(drawn.view == want.view && drawn.classes == want.classes, "\(drawn)")
            for (got, value) in [
                (drawn.x, want.x), (drawn.y, want.y), (drawn.width, want.width), (drawn.height, want.height),
                (drawn.opacity, want.opacity),
            ] {
                #expect(abs(got - value) < 0.001, "\(drawn.view): \(got) ≠ \(value)")
            }
        }
        // Not in a window: not drawn. Ids are escaped as XML.
        #expect(!svg.contains("data-view=\"loose\""))
    }

    /// `tree --svg --constraints`: each constraint of the window a dashed line between its anchors, in the window's
    /// points (inside the scaled group), tagged with its owner and views for the inspector; none without the flag.
    @Test func constraintsAreDrawnBetweenTheirAnchors() throws {
        var state = ContainmentState()
        let commands: [Command] = [
            .create("root", kind: .content),
            .create("child", kind: .content),
            .attachWindow("main", root: "root", size: Size(width: 320, height: 480)),
            .addChild("child", to: "root"),
            .addSubview(.root("child"), to: .root("root")),
            .setFrame(.root("child"), Rect(x: 10, y: 20, width: 100, height: 50)),
            .constrain("root", id: "w", try LayoutConstraint(parsing: "child.width == 0.5 * root.width")),
            .constrain("root", id: "top", try LayoutConstraint(parsing: "child.top == 30")),
        ]
        for command in commands { _ = try state.apply(command, by: .natural) }
        #expect(state.views[.root("child")]?.frame == Rect(x: 10, y: 30, width: 160, height: 50))
        let drawing = WindowDrawing(snapshot: WireSnapshot(state: state, seq: 1, hosts: [], hostOf: { _ in "h1" }))
        #expect(!drawing.svg().contains("constraint"))
        let svg = drawing.svg(constraints: true)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")\n\(svg)")
        // The child's centre (90, 55) to the window root's (160, 240); a constant a dot on the child's top (90, 30).
        #expect(svg.contains("<g class=\"constraint\" data-owner=\"root\" data-views=\"child root\">"))
        #expect(svg.contains("<title>root w: child.width == 0.5 * root.width</title>"))
        #expect(svg.contains("<line x1=\"90\" y1=\"55\" x2=\"160\" y2=\"240\""))
        #expect(svg.contains("<g class=\"constraint\" data-owner=\"root\" data-views=\"child\">"))
        #expect(svg.contains("<circle cx=\"90\" cy=\"30\""))
    }

    @Test func theGraphHasTheWindowsTheChildrenInOrderAndThePresentation() throws {
        let tree = TreeView(snapshot: try Self.snapshot())
        let lines = Set(tree.dot().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(lines.contains("digraph containment {"))
        #expect(lines.contains("\"window:main\" -> \"root\";"))
        #expect(lines.contains("\"root\" -> \"child\" [label=\"0\"];"))
        #expect(lines.contains("\"root\" -> \"modal\" [style=dashed, label=\"presents\", constraint=false];"))
        // Nodes filled by appearance: the covered root and child disappeared, the modal appeared; `loose` not loaded.
        #expect(lines.contains { $0.hasPrefix("\"modal\" [") && $0.contains("#c8e6c9") && $0.contains("appeared") })
        #expect(lines.contains { $0.hasPrefix("\"root\" [") && $0.contains("#eeeeee") })
        #expect(lines.contains { $0.hasPrefix("\"loose\" [") && $0.contains("not loaded") })
    }

    @Test func quotesAndBackslashesInIdsAreEscaped() {
        #expect(TreeView.dotQuoted("a\"b\\c", "second") == #""a\"b\\c\nsecond""#)
        #expect(WindowDrawing.xmlEscaped("<a&\"'>") == "&lt;a&amp;&quot;&apos;&gt;")
    }
}
