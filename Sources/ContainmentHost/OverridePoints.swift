import ContainmentModel

/// A callback that has a UIKit override point, with that point's arguments: where a callback goes besides `handle`.
enum OverridePoint: Equatable {
    case viewDidLoad
    case viewWillAppear(animated: Bool)
    case viewDidAppear(animated: Bool)
    case viewWillDisappear(animated: Bool)
    case viewDidDisappear(animated: Bool)
    case willMove(toParent: ControllerID?)
    case didMove(toParent: ControllerID?)
    case viewWillLayoutSubviews
    case viewDidLayoutSubviews
    case didReceiveMemoryWarning
    case viewWillTransition(to: Size)
    case setViewControllers([ControllerID])

    /// The override point `callback` calls; `nil` for a callback that has none (it goes to `handle` only).
    init?(_ callback: Event) {
        switch callback {
        case .viewDidLoad: self = .viewDidLoad
        case .viewWillAppear(_, let flags): self = .viewWillAppear(animated: flags.animated)
        case .viewDidAppear(_, let flags): self = .viewDidAppear(animated: flags.animated)
        case .viewWillDisappear(_, let flags): self = .viewWillDisappear(animated: flags.animated)
        case .viewDidDisappear(_, let flags): self = .viewDidDisappear(animated: flags.animated)
        case .willMoveToParent(_, let parent): self = .willMove(toParent: parent)
        case .didMoveToParent(_, let parent): self = .didMove(toParent: parent)
        case .viewWillLayoutSubviews: self = .viewWillLayoutSubviews
        case .viewDidLayoutSubviews: self = .viewDidLayoutSubviews
        case .didReceiveMemoryWarning: self = .didReceiveMemoryWarning
        case .viewWillTransitionToSize(_, let size): self = .viewWillTransition(to: size)
        case .verbInvoked:
            guard let children = ChildAssignment.children(in: callback) else { return nil }
            self = .setViewControllers(children)
        default: return nil
        }
    }
}

extension ControllerBehavior {
    public mutating func viewDidLoad(controller: ControllerRef) async {}
    public mutating func viewWillAppear(animated: Bool, controller: ControllerRef) async {}
    public mutating func viewDidAppear(animated: Bool, controller: ControllerRef) async {}
    public mutating func viewWillDisappear(animated: Bool, controller: ControllerRef) async {}
    public mutating func viewDidDisappear(animated: Bool, controller: ControllerRef) async {}
    public mutating func willMove(toParent parent: ControllerID?, controller: ControllerRef) async {}
    public mutating func didMove(toParent parent: ControllerID?, controller: ControllerRef) async {}
    public mutating func viewWillLayoutSubviews(controller: ControllerRef) async {}
    public mutating func viewDidLayoutSubviews(controller: ControllerRef) async {}
    public mutating func didReceiveMemoryWarning(controller: ControllerRef) async {}
    public mutating func viewWillTransition(to size: Size, controller: ControllerRef) async {}
    public mutating func setViewControllers(_ children: [ControllerID], controller: ControllerRef) async {}

    /// One callback as the host delivers it: to its override point, if it has one, then to `handle`.
    mutating func receive(_ callback: Event, controller: ControllerRef) async {
        switch OverridePoint(callback) {
        case .viewDidLoad?: await viewDidLoad(controller: controller)
        case .viewWillAppear(let animated)?: await viewWillAppear(animated: animated, controller: controller)
        case .viewDidAppear(let animated)?: await viewDidAppear(animated: animated, controller: controller)
        case .viewWillDisappear(let animated)?: await viewWillDisappear(animated: animated, controller: controller)
        case .viewDidDisappear(let animated)?: await viewDidDisappear(animated: animated, controller: controller)
        case .willMove(let parent)?: await willMove(toParent: parent, controller: controller)
        case .didMove(let parent)?: await didMove(toParent: parent, controller: controller)
        case .viewWillLayoutSubviews?: await viewWillLayoutSubviews(controller: controller)
        case .viewDidLayoutSubviews?: await viewDidLayoutSubviews(controller: controller)
        case .didReceiveMemoryWarning?: await didReceiveMemoryWarning(controller: controller)
        case .viewWillTransition(let size)?: await viewWillTransition(to: size, controller: controller)
        case .setViewControllers(let children)?: await setViewControllers(children, controller: controller)
        case nil: break
        }
        await handle(callback, controller: controller)
    }
}
