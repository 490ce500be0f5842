import ContainmentClient
import ContainmentHost
import ContainmentModel
import Distributed
import Testing

/// Typed methods by declared name (issue 44): what a host registers for a distributed kind — each method's declared
/// name, its parameters' and result's JSON Schemas — read from this test executable's accessible functions and found
/// by a probe call that never runs the method; and a call's JSON arguments by label.
struct MethodCatalogTests {
    @Test func theCounterSMethodsAreListedByDeclaredNameWithSchemas() async {
        let methods = await MethodCatalog.entries(of: CounterController.self).map(\.description)
        #expect(
            methods.sorted { $0.name < $1.name }
                == [
                    MethodDescription(
                        name: "add(_:)",
                        parameters: [.init(label: "_", schema: #"{"type":"integer"}"#)],
                        result: #"{"type":"integer"}"#
                    ),
                    MethodDescription(
                        name: "fail(_:)",
                        parameters: [.init(label: "_", schema: #"{"type":"string"}"#)],
                        result: #"{"type":"null"}"#
                    ),
                    MethodDescription(
                        name: "pause(milliseconds:)",
                        parameters: [.init(label: "milliseconds", schema: #"{"type":"integer"}"#)],
                        result: #"{"type":"null"}"#
                    ),
                    MethodDescription(name: "runsAt()", parameters: [], result: #"{"type":"integer"}"#),
                    MethodDescription(name: "value()", parameters: [], result: #"{"type":"integer"}"#),
                ]
        )
    }

    @Test func structuresOptionalsAndArraysHaveTheirSchemasAndAValidatingTypeHasNone() async throws {
        let methods = await MethodCatalog.entries(of: Shelf.self).map(\.description)
        let place = try #require(methods.first { $0.name == "place(_:in:note:)" })
        #expect(place.parameters.map(\.label) == ["_", "in", "note"])
        #expect(
            place.parameters.map(\.schema) == [
                #"{"properties":{"name":"#
                    + #"{"type":"string"},"size":{"anyOf":[{"properties":{"height":{"type":"number"},"width":"#
                    + #"{"type":"number"}},"required":["width","height"],"type":"object"},{"type":"null"}]}},"#
                    + #""required":["name"],"type":"object"}"#,
                #"{"items":{"type":"string"},"type":"array"}"#,
                #"{"anyOf":[{"type":"string"},{"type":"null"}]}"#,
            ]
        )
        #expect(place.result == #"{"anyOf":[{"type":"integer"},{"type":"null"}]}"#)
        // A raw-value enum refuses the made-up value: any JSON, and the method is still listed and callable.
        let paint = try #require(methods.first { $0.name == "paint(_:)" })
        #expect(paint.parameters == [.init(label: "_", schema: "{}")])
        #expect(paint.result == "{}")
        // Only its own type's methods, none of a nested type's or another actor's.
        #expect(Set(methods.map(\.name)) == ["place(_:in:note:)", "paint(_:)"])
    }

    @Test func aCallNamesAMethodByDeclaredNameAndAnUnknownOrOverloadedNameIsRefused() async throws {
        #expect(try await MethodCatalog.target("add(_:)", of: CounterController.self).get().hasPrefix("$s"))
        guard case .failure(let unknown) = await MethodCatalog.target("rotate(by:)", of: CounterController.self) else {
            Issue.record("an unknown name was found")
            return
        }
        #expect(unknown.code == .unknownVerb)
        #expect(unknown.message.hasPrefix("A CounterController has no method rotate(by:); its methods: "))
        guard case .failure(let twice) = await MethodCatalog.target("paint(_:)", of: Overloaded.self) else {
            Issue.record("an overloaded name was taken")
            return
        }
        #expect(
            twice.message
                == "A Overloaded has 2 methods named paint(_:) (overloads): a call cannot tell them apart; give them "
                + "distinct names."
        )
    }

    @Test func argumentsComeFromAnObjectByLabelOrAnArrayInOrder() throws {
        let insert = MethodDescription(
            name: "insert(child:at:)",
            parameters: [.init(label: "child", schema: "{}"), .init(label: "at", schema: "{}")],
            result: "{}"
        )
        #expect(try insert.arguments(fromJSON: #"{"at": 0, "child": "tile/3"}"#) == [#""tile/3""#, "0"])
        #expect(try insert.arguments(fromJSON: #"["t", 18446744073709551615]"#) == [#""t""#, "18446744073709551615"])
        let add = MethodDescription(name: "add(_:)", parameters: [.init(label: "_", schema: "{}")], result: "{}")
        #expect(try add.arguments(fromJSON: #"{"0": {"b": [1.5, null, true]}}"#) == [#"{"b":[1.5,null,true]}"#])
        let none = MethodDescription(name: "value()", parameters: [], result: "{}")
        #expect(try none.arguments(fromJSON: "") == [])
        #expect(try none.arguments(fromJSON: "{}") == [])
        #expect(throws: ContainmentError(.malformed, "The arguments of insert(child:at:) lack at.")) {
            try insert.arguments(fromJSON: #"{"child": "t"}"#)
        }
        #expect(
            throws: ContainmentError(.malformed, "insert(child:at:) has no parameter by; its parameters: child, at.")
        ) {
            try insert.arguments(fromJSON: #"{"by": 1}"#)
        }
        #expect(throws: ContainmentError(.malformed, "insert(child:at:) takes 2 arguments; the array has 1.")) {
            try insert.arguments(fromJSON: "[1]")
        }
        #expect(throws: ContainmentError.self) { try insert.arguments(fromJSON: "{child") }
    }
}

/// A method's arguments of every shape the probe reads.
distributed actor Shelf {
    typealias ActorSystem = ContainmentActorSystem

    struct Item: Codable {
        var name: String
        var size: Size?
    }

    enum Colour: String, Codable {
        case red, green
    }

    struct Nested {
        distributed actor Inner {
            typealias ActorSystem = ContainmentActorSystem
            distributed func hidden() {}
        }
    }

    distributed func place(_ item: Item, in shelves: [ControllerID], note: String?) -> Int? { nil }
    distributed func paint(_ colour: Colour) -> Colour { colour }
}

/// Two methods of one declared name.
distributed actor Overloaded {
    typealias ActorSystem = ContainmentActorSystem
    distributed func paint(_ colour: String) {}
    distributed func paint(_ colour: Int) {}
}
