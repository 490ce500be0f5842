import ContainmentModel
import Testing

/// A state under test with helpers that assert acceptance or the exact rejection.
struct Harness {
    var state = ContainmentState()

    /// Applies the requests as one batch and returns the events' descriptions; records an issue if rejected.
    @discardableResult
    mutating func ok(_ requests: Request..., sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        ok(batch: requests, sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func ok(batch requests: [Request], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        do {
            return try state.apply(batch: requests).map(\.description)
        } catch {
            Issue.record("rejected: \(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    /// Asserts that the request (or batch) is rejected with `code`, and that the state did not change.
    @discardableResult
    mutating func fails(
        _ code: ContainmentError.Code,
        _ requests: Request...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ContainmentError? {
        let before = state
        defer { #expect(state == before, "a rejected command changed the state", sourceLocation: sourceLocation) }
        do {
            let events = try state.apply(batch: requests)
            Issue.record("accepted, expected \(code): \(events)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error.error
        }
    }

    // MARK: Fixtures

    /// Creates content controllers.
    mutating func create(_ ids: ControllerID..., properties: ControllerProperties = ControllerProperties()) {
        for id in ids { ok(.system(.create(id, kind: .content, properties: properties))) }
    }

    /// Creates `root` and attaches it to window `main` of 1024×768.
    mutating func window(root: ControllerID = "root", properties: ControllerProperties = ControllerProperties()) {
        create(root, properties: properties)
        ok(.system(.attachWindow("main", root: root, size: Size(width: 1024, height: 768))))
    }

    /// `displayContentController:` of `child` in `parent` at `frame`.
    mutating func embed(
        _ child: ControllerID,
        in parent: ControllerID,
        superview: ViewID? = nil,
        frame: Rect = Rect(x: 0, y: 0, width: 320, height: 480),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        ok(
            batch: SeedListings.displayContentController(child, in: parent, superview: superview, frame: frame),
            sourceLocation: sourceLocation
        )
    }

    func appearance(_ id: ControllerID) -> AppearanceState? { state.controllers[id]?.appearance }
}

let phone = Rect(x: 0, y: 0, width: 320, height: 480)

extension Harness {
    /// root (window `main`, 1024×768, unless off screen) ⊃ a `kind` container `n` embedded full size; content a, b, c
    /// loose, titled A, B, C, and `extra` ones untitled.
    static func containerScene(_ kind: Kind, onScreen: Bool = true, extra: [ControllerID] = []) -> Harness {
        var h = Harness()
        h.create("root")
        if onScreen { h.ok(.system(.attachWindow("main", root: "root", size: Size(width: 1024, height: 768)))) }
        h.ok(.system(.create("n", kind: kind)))
        for id: ControllerID in ["a", "b", "c"] {
            var properties = ControllerProperties()
            properties.title = id.rawValue.uppercased()
            h.ok(.system(.create(id, kind: .content, properties: properties)))
        }
        for id in extra { h.ok(.system(.create(id, kind: .content))) }
        h.embed("n", in: "root", frame: Rect(x: 0, y: 0, width: 1024, height: 768))
        return h
    }
}
