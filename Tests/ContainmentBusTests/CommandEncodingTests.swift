import ContainmentBus
import ContainmentModel
import ContainmentWorkload
import Testing

/// Every command the model takes has a wire form that reads back as the same command: a client's replica and the
/// supervisor judge the same thing.
@Suite struct CommandEncodingTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomCommandsReadBackAsThemselves(seed: UInt64) throws {
        var generator = RandomCommands(seed: seed, manual: true)
        generator.invocations = true
        var state = ContainmentState()
        for request in CommandPool.small.creations(seed: seed) { _ = try? state.apply(request) }
        for _ in 0..<3000 {
            let requests = generator.next(in: state)
            for request in requests {
                let back = try WireCommand(request).request()
                // A property named twice (refused: malformed) carries its last value twice; still named twice.
                if case .setProperties(_, let changes) = request.command, Set(changes.map(\.name)).count < changes.count
                {
                    guard case .setProperties(_, let read) = back.command else {
                        Issue.record("\(back)")
                        continue
                    }
                    #expect(read.map(\.name) == changes.map(\.name))
                    continue
                }
                #expect(back == request, "\(request.command) by \(request.by)")
            }
            _ = try? state.apply(batch: requests)
        }
    }

    /// Named in set-properties, an empty list of orientations is none (refused), not the default.
    @Test func noOrientationIsNotTheDefault() throws {
        let none = Request.by("a", .setProperties("a", [.supportedOrientations([])]))
        #expect(try WireCommand(none).request() == none)
        let all = Request.by("a", .setProperties("a", [.supportedOrientations(Orientation.defaultSupported)]))
        #expect(try WireCommand(all).request() == all)
    }
}
