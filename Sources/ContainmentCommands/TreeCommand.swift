import ArgumentParser
import ContainmentCtl
import ContainmentHost
import ContainmentBus
import ContainmentModel
import Foundation

/// `containment tree`: the hierarchy now, from a snapshot.
struct TreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Show the hierarchy now: kinds, host and pid, root frames, appearance states, presentation links."
    )

    @Flag(help: "One JSON object: seq, controllers, windows, hosts.")
    var json = false

    @Flag(help: "A Graphviz graph of the controllers, windows and presentations (`| dot -Tpng > tree.png`).")
    var dot = false

    @Flag(help: "An SVG drawing of each window to scale: every view's frame, hidden views and alpha, presentations.")
    var svg = false

    @Flag(help: "With --svg: each layout constraint a dashed line between its anchors.") var constraints = false

    func validate() throws {
        guard [json, dot, svg].filter({ $0 }).count <= 1, !constraints || svg else {
            throw ValidationError("Choose one of --json, --dot and --svg (--constraints draws on --svg).")
        }
    }

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        let snapshot = try connection.snapshot()
        let tree = snapshot.tree
        print(
            svg
                ? snapshot.drawing.svg(constraints: constraints)
                : dot ? tree.dot() : json ? tree.json() : tree.rendered()
        )
    }
}

/// `containment inspect ID`: the callbacks one controller's actor received, in order, as its host reports them.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the callbacks one controller's actor received, in the order it received them."
    )

    @Argument(help: "The controller whose actor to ask.") var controller: String

    @Flag(help: "One JSON object per callback.")
    var json = false

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        do {
            let inspected = try connection.client.inspect(ControllerID(controller))
            if !json {
                let digest = CallbackDigest(count: inspected.receivedCount, hash: inspected.receivedDigest)
                let shown = inspected.callbacks.count
                let note = UInt64(shown) < digest.count ? "; the last \(shown) below" : ""
                let restored =
                    inspected.restoredSeq > 0
                    ? "; host process \(inspected.incarnation), restored from the state at seq \(inspected.restoredSeq)"
                    : ""
                print(
                    "\(inspected.controller) on host \(inspected.host): \(digest.count) callbacks (digest "
                        + "\(String(digest.hash, radix: 16))\(note)\(restored))"
                )
            }
            for event in inspected.callbacks { print(json ? event.json : event.line) }
        } catch {
            FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
            throw ExitStatus.of(error.code)
        }
    }
}

/// `containment wait`: returns once the supervisor answers and the named hosts are up (for scripts).
struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until the supervisor answers and the given hosts are connected."
    )

    @Option(help: "Comma-separated host names that must be up.")
    var hosts: String = ""

    @Option(help: "Give up after this many seconds (exit 3).")
    var timeout: Double = 15

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let wanted = Set(hosts.split(separator: ",").map(String.init))
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var config = try runtime.load()
        config.requestTimeout = .milliseconds(500)
        var missing = wanted
        while ContinuousClock.now < deadline {
            if let connection = try? Connection(runtime), let snapshot = try? connection.client.snapshot() {
                let up = Set(snapshot.hosts.filter(\.up).map(\.name))
                missing = wanted.subtracting(up)
                if missing.isEmpty { return }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let what =
            missing.isEmpty
            ? "the supervisor did not answer" : "hosts not up: \(missing.sorted().joined(separator: ", "))"
        FileHandle.standardError.write(Data("wait: timed out after \(timeout) s: \(what)\n".utf8))
        throw ExitStatus.unreachable
    }
}
