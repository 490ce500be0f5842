import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// A checkpoint's controllers and views column by column (proto/containment.proto, `CheckpointControllers`,
/// `CheckpointViews`): packed numbers and references by index, so a million controllers decode in a fraction of
/// the time a million messages take.
extension Containment_V1_CheckpointControllers {
    init(_ controllers: [Controller], hostOf: IDTable<ControllerID, String>) {
        self.init()
        // Built in local arrays and assigned once: a generated message with storage copies a column on every append
        // through its property.
        var index: [ControllerID: UInt32] = [:]
        index.reserveCapacity(controllers.count)
        for (position, controller) in controllers.enumerated() { index[controller.id] = UInt32(position) }
        func reference(_ id: ControllerID?) -> UInt32 { id.flatMap { index[$0] }.map { $0 + 1 } ?? 0 }
        var kindIndex: [Kind: UInt32] = [:]
        var hostIndex: [String: UInt32] = [:]
        let defaults = ControllerProperties()
        let count = controllers.count
        var ids: [String] = []
        var kinds: [String] = []
        var kind: [UInt32] = []
        var serial: [Int64] = []
        var parent: [UInt32] = []
        var childCount: [UInt32] = []
        var children: [UInt32] = []
        var presenting: [UInt32] = []
        var presented: [UInt32] = []
        var appearance: [UInt32] = []
        var move: [UInt32] = []
        var selected: [UInt32] = []
        var menuVisible: [Bool] = []
        var subviewCount: [UInt32] = []
        var subviewNames: [String] = []
        var hosts: [String] = []
        var host: [UInt32] = []
        var propertiesOf: [UInt32] = []
        var properties: [Containment_V1_Properties] = []
        ids.reserveCapacity(count)
        kind.reserveCapacity(count)
        serial.reserveCapacity(count)
        parent.reserveCapacity(count)
        childCount.reserveCapacity(count)
        presenting.reserveCapacity(count)
        presented.reserveCapacity(count)
        appearance.reserveCapacity(count)
        move.reserveCapacity(count)
        selected.reserveCapacity(count)
        menuVisible.reserveCapacity(count)
        subviewCount.reserveCapacity(count)
        host.reserveCapacity(count)
        for (position, controller) in controllers.enumerated() {
            ids.append(controller.id.rawValue)
            if kindIndex[controller.kind] == nil {
                kindIndex[controller.kind] = UInt32(kinds.count)
                kinds.append(controller.kind.rawValue)
            }
            kind.append(kindIndex[controller.kind] ?? 0)
            serial.append(Int64(controller.serial))
            parent.append(reference(controller.parent))
            childCount.append(UInt32(controller.children.count))
            for child in controller.children { children.append(reference(child)) }
            presenting.append(reference(controller.presenting))
            presented.append(reference(controller.presented))
            appearance.append(UInt32(AppearanceState.allCases.firstIndex(of: controller.appearance) ?? 0))
            switch controller.move {
            case .settled: move.append(0)
            case .willMove(let to): move.append(1 + reference(to))
            }
            selected.append(reference(controller.selected))
            menuVisible.append(controller.menuVisible)
            subviewCount.append(UInt32(controller.subviewNames.count))
            subviewNames.append(contentsOf: controller.subviewNames)
            if let name = hostOf[controller.id] {
                if hostIndex[name] == nil {
                    hostIndex[name] = UInt32(hosts.count)
                    hosts.append(name)
                }
                host.append(1 + (hostIndex[name] ?? 0))
            } else {
                host.append(0)
            }
            if controller.properties != defaults {
                propertiesOf.append(UInt32(position))
                properties.append(Containment_V1_Properties(controller.properties))
            }
        }
        self.ids = ids
        self.kinds = kinds
        self.kind = kind
        self.serial = serial
        self.parent = parent
        self.childCount = childCount
        self.children = children
        self.presenting = presenting
        self.presented = presented
        self.appearance = appearance
        self.move = move
        self.selected = selected
        self.menuVisible = menuVisible
        self.subviewCount = subviewCount
        self.subviewNames = subviewNames
        self.hosts = hosts
        self.host = host
        self.propertiesOf = propertiesOf
        self.properties = properties
    }

    /// The controllers, in order, with their ids and hosts; throws when the columns do not fit together.
    func model() throws(ContainmentError) -> (ids: [ControllerID], [Controller], IDTable<ControllerID, String>) {
        let count = ids.count
        let columns: [(String, Int)] = [
            ("kind", kind.count), ("serial", serial.count), ("parent", parent.count), ("child_count", childCount.count),
            ("presenting", presenting.count), ("presented", presented.count), ("appearance", appearance.count),
            ("move", move.count), ("selected", selected.count), ("menu_visible", menuVisible.count),
            ("subview_count", subviewCount.count), ("host", host.count),
        ]
        for (name, column) in columns where column != count {
            throw .malformed("The checkpoint's controllers have \(count) ids and \(column) values of \(name).")
        }
        guard propertiesOf.count == properties.count else {
            throw .malformed("The checkpoint's controller properties do not match their indices.")
        }
        let ids = self.ids.map { ControllerID($0) }
        let kinds = self.kinds.map { Kind($0) }
        // Each column read once out of the message's storage.
        let (hosts, kind, serial, parent, childCount, children) = (
            self.hosts, self.kind, self.serial, self.parent, self.childCount, self.children
        )
        let (presenting, presented, appearance, moves, selected) = (
            self.presenting, self.presented, self.appearance, self.move, self.selected
        )
        let (menuVisible, subviewCount, subviewNames, host) = (
            self.menuVisible, self.subviewCount, self.subviewNames, self.host
        )
        func reference(_ value: UInt32) throws(ContainmentError) -> ControllerID? {
            guard value != 0 else { return nil }
            guard Int(value) <= ids.count else {
                throw .malformed("A controller reference (\(value)) is out of range.")
            }
            return ids[Int(value) - 1]
        }
        var customProperties: [Int: ControllerProperties] = [:]
        for (position, wire) in zip(propertiesOf, properties) { customProperties[Int(position)] = try wire.model() }
        let defaults = ControllerProperties()
        var controllers: [Controller] = []
        controllers.reserveCapacity(count)
        var hostOf = IDTable<ControllerID, String>()
        hostOf.reserveCapacity(count)
        var nextChild = 0
        var nextName = 0
        for position in 0..<count {
            let childEnd = nextChild + Int(childCount[position])
            let nameEnd = nextName + Int(subviewCount[position])
            guard childEnd <= children.count, nameEnd <= subviewNames.count, Int(kind[position]) < kinds.count,
                Int(appearance[position]) < AppearanceState.allCases.count
            else {
                throw .malformed("The checkpoint's controller \(self.ids[position]) does not fit its columns.")
            }
            var childIDs: [ControllerID] = []
            childIDs.reserveCapacity(childEnd - nextChild)
            for value in children[nextChild..<childEnd] {
                guard let child = try reference(value) else { throw .malformed("A child reference is 0.") }
                childIDs.append(child)
            }
            let move: MoveState = moves[position] == 0 ? .settled : .willMove(to: try reference(moves[position] - 1))
            let id = ids[position]
            controllers.append(
                Controller(
                    restoring: id,
                    kind: kinds[Int(kind[position])],
                    properties: customProperties[position] ?? defaults,
                    serial: Int(serial[position]),
                    parent: try reference(parent[position]),
                    children: childIDs,
                    presenting: try reference(presenting[position]),
                    presented: try reference(presented[position]),
                    appearance: AppearanceState.allCases[Int(appearance[position])],
                    move: move,
                    selected: try reference(selected[position]),
                    menuVisible: menuVisible[position],
                    subviewNames: nameEnd > nextName ? Array(subviewNames[nextName..<nameEnd]) : []
                )
            )
            if host[position] != 0 {
                guard Int(host[position]) <= hosts.count else { throw .malformed("A host reference is out of range.") }
                hostOf[id] = hosts[Int(host[position]) - 1]
            }
            nextChild = childEnd
            nextName = nameEnd
        }
        return (ids, controllers, hostOf)
    }
}

extension Containment_V1_CheckpointViews {
    init(_ views: [View], controllers: [Controller]) {
        self.init()
        // Local arrays, assigned once (see `CheckpointControllers`).
        var owners: [ControllerID: UInt32] = [:]
        owners.reserveCapacity(controllers.count)
        for (position, controller) in controllers.enumerated() { owners[controller.id] = UInt32(position) }
        var index: [ViewID: UInt32] = [:]
        index.reserveCapacity(views.count)
        for (position, view) in views.enumerated() { index[view.id] = UInt32(position) }
        func reference(_ id: ViewID?) -> UInt32 { id.flatMap { index[$0] }.map { $0 + 1 } ?? 0 }
        var partyIndex: [String: UInt32] = [:]
        var owner: [UInt32] = []
        var name: [String] = []
        var frame: [Double] = []
        var alpha: [Double] = []
        var hidden: [Bool] = []
        var superview: [UInt32] = []
        var subviewCount: [UInt32] = []
        var subviews: [UInt32] = []
        var parties: [String] = []
        var frameSetBy: [UInt32] = []
        for view in views {
            owner.append(owners[view.id.owner] ?? UInt32.max)
            name.append(view.id.name ?? "")
            frame.append(contentsOf: [view.frame.x, view.frame.y, view.frame.width, view.frame.height])
            alpha.append(view.alpha)
            hidden.append(view.hidden)
            superview.append(reference(view.superview))
            subviewCount.append(UInt32(view.subviews.count))
            for subview in view.subviews { subviews.append(reference(subview)) }
            if let party = view.frameSetBy?.description {
                if partyIndex[party] == nil {
                    partyIndex[party] = UInt32(parties.count)
                    parties.append(party)
                }
                frameSetBy.append(1 + (partyIndex[party] ?? 0))
            } else {
                frameSetBy.append(0)
            }
        }
        self.owner = owner
        self.name = name
        self.frame = frame
        self.alpha = alpha
        self.hidden = hidden
        self.superview = superview
        self.subviewCount = subviewCount
        self.subviews = subviews
        self.parties = parties
        self.frameSetBy = frameSetBy
    }

    /// The views, their owners resolved against the controllers' ids; throws when the columns do not fit together.
    func model(owners: [ControllerID]) throws(ContainmentError) -> [View] {
        let count = owner.count
        let columns: [(String, Int)] = [
            ("name", name.count), ("alpha", alpha.count), ("hidden", hidden.count), ("superview", superview.count),
            ("subview_count", subviewCount.count), ("frame_set_by", frameSetBy.count),
        ]
        guard frame.count == 4 * count else {
            throw .malformed("The checkpoint's views have \(count) owners and \(frame.count) frame values (4 each).")
        }
        for (column, values) in columns where values != count {
            throw .malformed("The checkpoint's views have \(count) owners and \(values) values of \(column).")
        }
        let (owner, name, frame, alpha, hidden) = (self.owner, self.name, self.frame, self.alpha, self.hidden)
        let (superview, subviewCount, subviews, frameSetBy) = (
            self.superview, self.subviewCount, self.subviews, self.frameSetBy
        )
        var ids: [ViewID] = []
        ids.reserveCapacity(count)
        for position in 0..<count {
            guard Int(owner[position]) < owners.count else { throw .malformed("A view's owner is out of range.") }
            let owner = owners[Int(owner[position])]
            ids.append(name[position].isEmpty ? .root(owner) : ViewID(owner: owner, name: name[position]))
        }
        func reference(_ value: UInt32) throws(ContainmentError) -> ViewID? {
            guard value != 0 else { return nil }
            guard Int(value) <= ids.count else { throw .malformed("A view reference (\(value)) is out of range.") }
            return ids[Int(value) - 1]
        }
        let parties = self.parties.map { Party(parsing: $0) }
        var views: [View] = []
        views.reserveCapacity(count)
        var nextSubview = 0
        for position in 0..<count {
            let end = nextSubview + Int(subviewCount[position])
            guard end <= subviews.count, Int(frameSetBy[position]) <= parties.count else {
                throw .malformed("The checkpoint's view \(ids[position]) does not fit its columns.")
            }
            var subviewIDs: [ViewID] = []
            subviewIDs.reserveCapacity(end - nextSubview)
            for value in subviews[nextSubview..<end] {
                guard let subview = try reference(value) else {
                    throw .malformed("The checkpoint's view \(ids[position]) lists a subview that is not in its views.")
                }
                subviewIDs.append(subview)
            }
            views.append(
                View(
                    restoring: ids[position],
                    frame: Rect(
                        x: frame[4 * position],
                        y: frame[4 * position + 1],
                        width: frame[4 * position + 2],
                        height: frame[4 * position + 3]
                    ),
                    alpha: alpha[position],
                    hidden: hidden[position],
                    superview: try reference(superview[position]),
                    subviews: subviewIDs,
                    frameSetBy: frameSetBy[position] == 0 ? nil : parties[Int(frameSetBy[position]) - 1]
                )
            )
            nextSubview = end
        }
        return views
    }
}
