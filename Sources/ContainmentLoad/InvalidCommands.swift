import ContainmentBus
import ContainmentModel
import ContainmentWorkload

/// Commands a client sends on purpose to be refused — `--invalid-ratio` of its stream — beside the generator's own
/// invalid ones. Each kind is refused whatever the rest of the tree looks like.
package struct InvalidCommands: Sendable {
    /// What to send, and whether the client's replica of its part of the tree can predict the answer.
    package struct Pick {
        package var commands: [ClientCommand]
        /// The requests, when the replica judges them; `nil` for a command that names another client's controllers
        /// or cannot be decoded, which only the global replay judges.
        package var requests: [Request]?

        package init(commands: [ClientCommand], requests: [Request]?) {
            self.commands = commands
            self.requests = requests
        }
    }

    let pool: CommandPool
    /// Other clients' controllers.
    let foreign: [ControllerID]
    let prefix: String

    mutating func next(using rng: inout SplitMix64) -> Pick {
        // The pools are never empty (CommandPool requires it), so `randomElement` cannot be nil below.
        let mine = pool.all.randomElement(using: &rng)!
        let other = pool.all.randomElement(using: &rng)!
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !foreign.isEmpty:
            // R2 across clients: one of mine sets the root frame of another client's controller, whose parent (if
            // any) is in that client's part of the tree. Never allowed.
            let target = foreign.randomElement(using: &rng)!
            let request = Request.by(mine, .setFrame(.root(target), Rect(x: 1, y: 2, width: 30, height: 40)))
            return Pick(commands: [ClientCommand(request)], requests: nil)
        case 1:
            let ghost = ControllerID("\(prefix)-ghost\(Int.random(in: 0..<1000, using: &rng))")
            return judged([Request(.addChild(ghost, to: mine), by: .controller(mine))])
        case 2:
            return judged([Request(.addChild(mine, to: mine), by: .controller(mine))])
        case 3:
            // The system's verb issued by a controller.
            let window = pool.windows.randomElement(using: &rng)!
            return judged([.by(mine, .attachWindow(window, root: other, size: Size(width: 320, height: 480)))])
        case 4:
            // An atomic batch whose second command fails: nothing of it may apply.
            return judged([
                .by(mine, .setAlpha(.root(mine), 0.5)),
                .by(mine, .setAlpha(.root(mine), 7)),
            ])
        default:
            // A command with no kind: refused before the model sees it.
            return Pick(commands: [.withoutKind], requests: nil)
        }
    }

    private func judged(_ requests: [Request]) -> Pick {
        Pick(commands: requests.map { ClientCommand($0) }, requests: requests)
    }
}
