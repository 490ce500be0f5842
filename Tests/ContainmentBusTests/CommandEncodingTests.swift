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

    /// A published state crosses the wire whole and sorted by key, so the same state is the same bytes in every
    /// process; a key named twice on the wire is malformed.
    @Test func aPublishedStateIsEncodedSortedAndReadBackWhole() throws {
        let state = Dictionary(uniqueKeysWithValues: (0..<40).map { ("key\($0)", "value \($0) é") })
        let request = Request.by("a", .setProperties("a", [.state(state)]))
        let wire = WireCommand(request)
        #expect(try wire.request() == request)
        #expect(wire.setProperties.properties.state.map(\.key) == state.keys.sorted())
        var properties = ControllerProperties()
        properties.state = state
        let bytes = try Containment_V1_Properties(properties).serializedBytes() as [UInt8]
        var shuffled = ControllerProperties()
        shuffled.state = Dictionary(uniqueKeysWithValues: state.shuffled().map { ($0.key, $0.value) })
        #expect(try Containment_V1_Properties(shuffled).serializedBytes() as [UInt8] == bytes)
        var twice = Containment_V1_Properties()
        twice.state = [.with { $0.key = "k" }, .with { $0.key = "k" }]
        #expect(throws: ContainmentError.self) { try twice.model() }
    }
}
