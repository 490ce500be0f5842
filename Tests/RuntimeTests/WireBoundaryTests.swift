import Foundation
import Testing

/// Issue 28: the wire stays at the edges. ContainmentBus is the one codec (its typed messages: `HostInbound`,
/// `HostOutbound`, `BusEvent`, `BusSnapshot`, `InspectReport`, `Acceptance`), and the journal's own format files
/// (`ContainmentRuntime/Journal/`, whose records and checkpoints are protobuf) are the only other code that names a
/// generated type; etcd's API (generated too, with gRPC) is named in ContainmentEtcd only. Everything an app builds on
/// and every command reads model and bus types only.
///
/// Tests may name generated types: they forge raw frames and tamper with records on purpose.
@Suite struct WireBoundaryTests {
    /// A generated protobuf type, by its name or an alias of the bus, or SwiftProtobuf itself. Comments are skipped.
    static let wireName =
        #"\b(Containment_V1_\w+|WireCommand|WireEvent|WireSnapshot|ClientMessage|ServerMessage|Etcdserverpb_\w+|Mvccpb_\w+)\b|^\s*import (SwiftProtobuf|GRPC\w*)"#

    /// Where the wire belongs: ours, and etcd's (its gRPC API, behind the runtime's `EtcdStore`).
    static let edges = ["ContainmentBus/", "ContainmentRuntime/Journal/", "ContainmentEtcd/"]

    /// Every Swift file under Sources/ that names a wire type outside a comment, as `Target/path`.
    static func namingTheWire() throws -> (scanned: Int, naming: Set<String>) {
        let sources = RuntimeFixture.repository.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
        let wireName = try Regex(Self.wireName).wordBoundaryKind(.simple)  // `WireEvent.x` is one word in UAX #29
        var naming: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if code.contains(where: { $0.contains(wireName) }) { naming.insert(file) }
        }
        return (files.count, naming)
    }

    @Test func noGeneratedTypeIsNamedOutsideTheBusAndTheJournalsFormat() throws {
        let (scanned, naming) = try Self.namingTheWire()
        #expect(scanned > 200, "the scan read \(scanned) files: is it reading Sources/?")
        // The scan finds what it looks for: the bus's codec names the generated types.
        #expect(naming.contains("ContainmentBus/Wire.swift"))
        let outside = naming.filter { file in !Self.edges.contains(where: { file.hasPrefix($0) }) }
        #expect(outside.isEmpty, "these name a generated type: use the bus's typed messages \(outside.sorted())")
    }

    /// What apps build on (the host, the client, the test kit), the commands (ctl, the executable, the inspector),
    /// the model, and the supervisor (but for its journal's format) name no generated type at all.
    @Test func whatAppsAndCommandsUseIsOffTheWire() throws {
        let (_, naming) = try Self.namingTheWire()
        let targets = [
            "ContainmentModel", "ContainmentHost", "ContainmentClient", "ContainmentTestKit", "ContainmentCtl",
            "ContainmentWeb", "ContainmentWorkload", "containment", "ContainmentRuntime", "ContainmentBench",
            "ContainmentFuzz",
        ]
        for target in targets {
            let files = naming.filter { $0.hasPrefix(target + "/") && !$0.hasPrefix("ContainmentRuntime/Journal/") }
            #expect(files.isEmpty, "\(target) names generated types in \(files.sorted())")
        }
    }
}
