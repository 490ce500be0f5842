import ArgumentParser
import ContainmentCtl
import ContainmentModel

/// Plays the seeds' three container listings through the model and prints each one's events in order.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the seed listings (displayContentController, cycleFromViewController, hideContentController)."
    )

    @Option(help: "The window size, WIDTHxHEIGHT.")
    var window = "1024x768"

    mutating func run() throws {
        guard let size = parseSize(window) else {
            throw ValidationError("--window must look like 1024x768, not \(window)")
        }
        var scene = Scene()
        try scene.play(
            "setup: a window whose root is the container",
            [
                .system(.create("container", kind: .content)),
                .system(.create("first", kind: .content)),
                .system(.create("second", kind: .content)),
                .system(.attachWindow("main", root: "container", size: size)),
            ]
        )
        let frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        try scene.play(
            "displayContentController: first (seed 000, listing 14-1)",
            SeedListings.displayContentController("first", in: "container", frame: frame)
        )
        try scene.play(
            "cycleFromViewController: first toViewController: second (listing 14-3)",
            scene.state.cycleRequests(from: "first", to: "second", in: "container")
        )
        try scene.play(
            "a rule violation: second sets its own root view's frame (R2)",
            [.by("second", .setFrame(.root("second"), frame))]
        )
        try scene.play(
            "hideContentController: second (listing 14-2)",
            SeedListings.hideContentController("second", in: "container")
        )
    }
}

/// The model state and the running sequence number of the demo's events.
private struct Scene {
    var state = ContainmentState()
    var seq = 0

    mutating func play(_ title: String, _ requests: [Request]) throws {
        print("== \(title)")
        do {
            for event in try state.apply(batch: requests) { emit(event) }
        } catch {
            print("   rejected: \(error.error.code): \(error.error.message)")
            emit(state.violation(of: requests[error.index], error: error.error))
        }
        print()
    }

    mutating func emit(_ event: Event) {
        seq += 1
        let number = String(seq)
        print(String(repeating: " ", count: max(0, 4 - number.count)) + number + "  " + event.description)
    }
}
