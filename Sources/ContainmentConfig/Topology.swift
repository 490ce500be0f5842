import ContainmentBus
import ContainmentModel
import Foundation
import Yams

/// Which controllers exist, of which kind, in which host, under which parent, and the window — read from a
/// `Config/topologies/*.yaml` file. The supervisor applies it at start as ordinary commands.
public struct Topology: Sendable, Equatable {
    public struct Window: Sendable, Equatable {
        public var name: String
        public var size: Size
        public var root: String
    }

    public struct Controller: Sendable, Equatable {
        public var id: String
        public var kind: String
        public var host: String
        public var parent: String?
        /// Embedded in the parent's root view (displayContentController), filling it or at a frame; `nil`: added as a
        /// child — or, under a container of a custom kind, handed to its code (``ChildAssignment``).
        public var embedding: Embedding?
        public var properties: ControllerProperties
        /// Presented at start by this controller (with its own presentation style).
        public var presentedBy: String?
    }

    /// Where an embedded child's root view goes: `embed: true`, or `embed: [x, y, w, h]` (any frame, `[0, 0, 0, 0]`
    /// included: an empty view, not the parent's size).
    public enum Embedding: Sendable, Equatable {
        /// The parent's bounds: the window's size under the window's root, else the parent's own embedded size.
        case fillingParent
        case frame(Rect)
    }

    /// How the supervisor (`--start-hosts`) runs one host: its restart policy, where it differs from runtime.yaml's,
    /// or not at all (a remote host, started elsewhere, which registers itself).
    public struct HostSettings: Sendable, Equatable {
        public var restart: RestartMode?
        public var maxRestarts: Int?
        public var restartWindow: Duration?
        /// Started elsewhere (another machine, or by hand): the supervisor neither starts nor restarts it.
        public var remote = false
        /// The program the supervisor runs as this host, and its first arguments (the supervisor adds `--name`,
        /// `--pid-file` and `--log-format`, and passes the run directory and config in the environment); `nil`:
        /// `containment host`. A relative path is the topology file's directory's.
        public var command: [String]?

        public init() {}
    }

    public var window: Window?
    public var hosts: [String]
    public var controllers: [Controller]
    /// Per host, where the file says more than its name.
    public var hostSettings: [String: HostSettings] = [:]

    /// The hosts the supervisor starts (all but the remote ones), in file order.
    public var localHosts: [String] { hosts.filter { hostSettings[$0]?.remote != true } }

    /// Reads and checks a topology file.
    public static func load(path: String) throws -> Topology {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("Cannot read the topology \(path): \(error.localizedDescription)")
        }
        do {
            var topology = try parse(text)
            // A host's program, named relative to the file: from the file's directory.
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            for (host, settings) in topology.hostSettings {
                guard let program = settings.command?.first, !program.hasPrefix("/") else { continue }
                topology.hostSettings[host]?.command?[0] = directory.appendingPathComponent(program).standardized.path
            }
            return topology
        } catch let error as ConfigError {
            throw StrictKeys.located(error, in: path)
        } catch {
            throw ConfigError("\(path) is not a valid topology: \(error)")
        }
    }

    public static func parse(_ text: String) throws -> Topology {
        try StrictKeys.check(text, against: keySchema)
        let file = try YAMLDecoder().decode(File.self, from: text)
        var hosts: [String] = []
        var hostSettings: [String: HostSettings] = [:]
        for entry in file.hosts ?? [] {
            let (name, settings) = try entry.settings()
            guard !hosts.contains(name) else { throw ConfigError("host \(name) appears twice in hosts") }
            hosts.append(name)
            if let settings { hostSettings[name] = settings }
        }
        var controllers: [Controller] = []
        for entry in file.controllers {
            var names = PropertyNames()
            names.manualAppearance = entry.manualAppearance ?? false
            names.manualSizeTransitions = entry.manualSizeTransitions ?? false
            names.definesPresentationContext = entry.definesPresentationContext
            names.providesPresentationContextTransitionStyle = entry.providesPresentationContextTransitionStyle
            names.presentationStyle = entry.presentationStyle
            names.transitionStyle = entry.transitionStyle
            names.title = entry.title
            names.pageStyle = entry.pageStyle
            names.spine = entry.spine
            names.doubleSided = entry.doubleSided
            names.pages = entry.pages ?? []
            names.pageDataSource = entry.dataSource
            names.splitFraction = entry.splitFraction
            names.displayMode = entry.displayMode
            names.delegate = entry.delegate
            names.tabItem = entry.tabItem
            names.badge = entry.badge
            names.navigationItem = entry.navigationItem
            names.backTitle = entry.backTitle
            names.leftItems = entry.leftItems ?? []
            names.rightItems = entry.rightItems ?? []
            names.toolbarItems = entry.toolbarItems ?? []
            names.handles = entry.handles ?? []
            names.orientations = entry.orientations ?? []
            names.preferredContentSize = entry.preferredContentSize
            let properties: ControllerProperties
            do {
                properties = try names.properties()
            } catch {
                throw ConfigError("controller \(entry.id): \(error.message)")
            }
            let embedding: Embedding?
            switch entry.embed {
            case nil, .flag(false): embedding = nil
            case .flag(true): embedding = .fillingParent
            case .frame(let values):
                guard values.count == 4 else { throw ConfigError("controller \(entry.id): embed takes [x, y, w, h]") }
                embedding = .frame(Rect(x: values[0], y: values[1], width: values[2], height: values[3]))
            }
            if !hosts.contains(entry.host) { hosts.append(entry.host) }
            controllers.append(
                Controller(
                    id: entry.id,
                    kind: entry.kind ?? "content",
                    host: entry.host,
                    parent: entry.parent,
                    embedding: embedding,
                    properties: properties,
                    presentedBy: entry.presentedBy
                )
            )
        }
        let ids = Set(controllers.map(\.id))
        guard ids.count == controllers.count else { throw ConfigError("a controller id appears twice") }
        for controller in controllers {
            if let parent = controller.parent, !ids.contains(parent) {
                throw ConfigError("controller \(controller.id): unknown parent \(parent)")
            }
            if let presenter = controller.presentedBy, !ids.contains(presenter) {
                throw ConfigError("controller \(controller.id): unknown presenter \(presenter)")
            }
        }
        var window: Window?
        if let entry = file.window {
            guard ids.contains(entry.root) else {
                throw ConfigError("window \(entry.name): unknown root \(entry.root)")
            }
            window = Window(name: entry.name, size: Size(width: entry.width, height: entry.height), root: entry.root)
        }
        var topology = Topology(window: window, hosts: hosts, controllers: controllers)
        topology.hostSettings = hostSettings
        return topology
    }

    /// A host's restart policy: its own settings over runtime.yaml's.
    public func restartPolicy(
        of host: String,
        config: RuntimeConfig
    ) -> (
        mode: RestartMode, maxRestarts: Int, window: Duration
    ) {
        let settings = hostSettings[host] ?? HostSettings()
        return (
            settings.restart ?? config.hostRestart, settings.maxRestarts ?? config.maxRestarts,
            settings.restartWindow ?? config.restartWindow
        )
    }

    /// The topology as requests: every controller created on its host, the window attached, then, in file order,
    /// each child added by its parent — and embedded (the seeds' displayContentController) where asked, full size in
    /// its parent unless a frame is given. A standard container (navigation, tab, menu, page, split) takes its children
    /// with its own verb (`setStack`, `setChildren`, `setPages`): the last of a stack, or the first of a tab's or
    /// menu's children, is shown. A container of a custom kind is handed those it is not asked to embed, all at once, in file order
    /// (``ChildAssignment``: its code's `setViewControllers`), where the first of them stands. Last, each controller
    /// with `presentedBy` is presented by that controller.
    public func requests() -> [(request: Request, host: String?)] {
        var result: [(request: Request, host: String?)] = controllers.map { controller in
            (
                .system(
                    .create(ControllerID(controller.id), kind: Kind(controller.kind), properties: controller.properties)
                ), controller.host
            )
        }
        var sizes: [String: Size] = [:]
        if let window {
            result.append(
                (.system(.attachWindow(WindowID(window.name), root: ControllerID(window.root), size: window.size)), nil)
            )
            sizes[window.root] = window.size
        }
        let kinds = Dictionary(controllers.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
        var placed: Set<String> = []
        var assigned: Set<String> = []
        for controller in controllers {
            guard let parent = controller.parent else { continue }
            let parentID = ControllerID(parent)
            // A standard container takes its children through its own verb, all at once, in file order.
            switch kinds[parent].map({ Kind($0) }) {
            case .navigation?, .tab?, .menu?, .page?, .split?:
                guard placed.insert(parent).inserted else { continue }
                let children = controllers.filter { $0.parent == parent }.map { ControllerID($0.id) }
                let command: Command =
                    switch kinds[parent] {
                    case Kind.navigation.rawValue: .setStack(parentID, children)
                    case Kind.page.rawValue: .setPages(parentID, children)
                    default: .setChildren(parentID, children)
                    }
                result.append((.by(parentID, command), nil))
                continue
            case let kind? where !Kind.standard.contains(kind) && controller.embedding == nil:
                // A custom container's code embeds its children itself: it is handed those it is not asked to embed.
                guard assigned.insert(parent).inserted else { continue }
                let children = controllers.filter { $0.parent == parent && $0.embedding == nil }.map {
                    ControllerID($0.id)
                }
                result.append((.system(ChildAssignment.command(parentID, children)), nil))
                continue
            default:
                break
            }
            let child = ControllerID(controller.id)
            let frame: Rect
            switch controller.embedding {
            case nil:
                result.append((.by(parentID, .addChild(child, to: parentID)), nil))
                continue
            case .fillingParent?: frame = Rect(size: sizes[parent] ?? .zero)
            case .frame(let given)?: frame = given
            }
            sizes[controller.id] = frame.size
            for request in SeedListings.displayContentController(child, in: parentID, frame: frame) {
                result.append((request, nil))
            }
        }
        for controller in controllers {
            guard let presenter = controller.presentedBy else { continue }
            let presenterID = ControllerID(presenter)
            result.append((.by(presenterID, .present(ControllerID(controller.id), on: presenterID)), nil))
        }
        return result
    }

    /// The keys a topology may hold: its types' own.
    package static let keySchema: KeySchema = {
        var top = KeySchema("the top level", File.CodingKeys.self)
        top.mappings["window"] = KeySchema("the window", WindowEntry.CodingKeys.self)
        top.items["hosts"] = KeySchema("host", HostEntry.Entry.CodingKeys.self, nameKey: "name")
        top.items["controllers"] = KeySchema("controller", ControllerEntry.CodingKeys.self, nameKey: "id")
        return top
    }()

    private struct File: Decodable {
        var window: WindowEntry?
        var hosts: [HostEntry]?
        var controllers: [ControllerEntry]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case window, hosts, controllers
        }
    }

    /// `name`, or `{name, restart, maxRestarts, restartWindowMs, remote, command}`.
    private enum HostEntry: Decodable {
        case name(String)
        case entry(Entry)

        struct Entry: Decodable {
            var name: String
            var restart: String?
            var maxRestarts: Int?
            var restartWindowMs: Int?
            var remote: Bool?
            var command: [String]?

            enum CodingKeys: String, CodingKey, CaseIterable {
                case name, restart, maxRestarts, restartWindowMs, remote, command
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                self = .name(name)
            } else {
                self = .entry(try container.decode(Entry.self))
            }
        }

        func settings() throws -> (String, HostSettings?) {
            let entry: Entry
            switch self {
            case .name(let name): return (name, nil)
            case .entry(let value): entry = value
            }
            var settings = HostSettings()
            if let value = entry.restart {
                guard let mode = RestartMode(rawValue: value) else {
                    throw ConfigError(
                        "host \(entry.name): restart must be permanent, transient or temporary, not \(value)"
                    )
                }
                settings.restart = mode
            }
            // The ranges runtime.yaml's maxRestarts and restartWindowMs take.
            if let value = entry.maxRestarts {
                guard (0...10_000).contains(value) else {
                    throw ConfigError("host \(entry.name): maxRestarts must be from 0 to 10000")
                }
                settings.maxRestarts = value
            }
            if let value = entry.restartWindowMs {
                guard (1...86_400_000).contains(value) else {
                    throw ConfigError("host \(entry.name): restartWindowMs must be from 1 to 86400000 (a day)")
                }
                settings.restartWindow = .milliseconds(value)
            }
            settings.remote = entry.remote ?? false
            if let command = entry.command {
                guard let program = command.first, !program.isEmpty else {
                    throw ConfigError("host \(entry.name): command names the program first ([path, arguments…])")
                }
                guard !settings.remote else {
                    throw ConfigError("host \(entry.name): a remote host is started elsewhere, so it has no command")
                }
                settings.command = command
            }
            return (entry.name, settings)
        }
    }

    private struct WindowEntry: Decodable {
        var name: String
        var width: Double
        var height: Double
        var root: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, width, height, root
        }
    }

    private struct ControllerEntry: Decodable {
        var id: String
        var kind: String?
        var host: String
        var parent: String?
        var embed: Embed?
        var title: String?
        var manualAppearance: Bool?
        var manualSizeTransitions: Bool?
        var definesPresentationContext: Bool?
        var providesPresentationContextTransitionStyle: Bool?
        var presentationStyle: String?
        var transitionStyle: String?
        var pageStyle: String?
        var spine: String?
        var doubleSided: Bool?
        var pages: [String]?
        var dataSource: String?
        var presentedBy: String?
        var splitFraction: Double?
        var displayMode: String?
        var delegate: String?
        var tabItem: String?
        var badge: String?
        var navigationItem: String?
        var backTitle: String?
        var leftItems: [String]?
        var rightItems: [String]?
        var toolbarItems: [String]?
        var handles: [String]?
        var orientations: [String]?
        var preferredContentSize: [Double]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, kind, host, parent, embed, title, manualAppearance, manualSizeTransitions
            case definesPresentationContext, providesPresentationContextTransitionStyle, presentationStyle
            case transitionStyle, pageStyle, spine, doubleSided, pages, dataSource, presentedBy, splitFraction
            case displayMode, delegate, tabItem, badge, navigationItem, backTitle, leftItems, rightItems
            case toolbarItems, handles, orientations, preferredContentSize
        }
    }

    private enum Embed: Decodable {
        case flag(Bool)
        case frame([Double])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else {
                self = .frame(try container.decode([Double].self))
            }
        }
    }
}
