import ArgumentParser
import ContainmentBus
import ContainmentClient
import ContainmentHost
import ContainmentModel
import Foundation

/// `ctl call CONTROLLER 'rotate(by:)' '{"by":1}'`: a typed method called by its declared name, its result printed.
struct CallVerb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a typed method of a controller's code by its declared name; print its result as JSON.",
        discussion: """
            METHOD is a declared Swift name, as `containment methods CONTROLLER` lists it: insert(child:at:), \
            children(). ARGUMENTS is one JSON text: an object keyed by the parameters' labels ({"child":"tile3",\
            "at":0}; an unlabeled parameter by its position, {"0":5}) or an array in order (["tile3",0]); none for \
            a method without parameters. Issued by the system, ordered and journaled as any command; the method runs \
            in the controller's actor, and its result (JSON) is printed. Exit 1 with `code: message` when it is \
            refused or throws (unknownVerb: no such method; malformed: arguments that do not fit; methodFailed: the \
            method's own error), 3 when no supervisor or host answers.
            """
    )
    @Argument(help: "The controller.") var controller: String
    @Argument(help: "The method's declared name, e.g. 'insert(child:at:)'.") var method: String
    @Argument(help: "Its arguments: a JSON object keyed by labels, or an array in order.") var arguments: String = ""
    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        do throws(RemoteError) {
            let id = ControllerID(controller)
            let report = try connection.client.methods(of: id)
            guard let described = report.methods.first(where: { $0.name == method }) else {
                let names = report.methods.map(\.name)
                throw RemoteError(
                    ContainmentError(
                        .unknownVerb,
                        "\(id), a \(report.kind), has no method \(method); its methods: "
                            + (names.isEmpty ? "none" : names.joined(separator: ", ")) + "."
                    )
                )
            }
            let positional: [String]
            do {
                positional = try described.arguments(fromJSON: arguments)
            } catch {
                throw RemoteError(error)
            }
            print(try connection.client.call(id, method: method, arguments: positional, by: .system))
        } catch {
            FileHandle.standardError.write(Data("\(error.error.code): \(error.error.message)\n".utf8))
            throw ExitStatus.of(error.error.code)
        }
    }
}

/// `containment methods CONTROLLER`: what a controller can be called with, as its host registered its kind.
package struct MethodsCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "methods",
        abstract: "List what a controller's code can be called with: its typed methods (with JSON Schemas) and verbs.",
        discussion: """
            Each typed method by its declared name (`ctl call`), each parameter's label and the JSON Schema of its \
            value, and its result's schema ({} where the host could not tell: a type that checks what it decodes); \
            then the kind's string verbs (`ctl invoke`). --json prints {controller, kind, host, verbs, methods}. Exit \
            1 for an unknown controller, 3 when its host has not registered or no supervisor answers.
            """
    )
    @Argument(help: "The controller.") var controller: String
    @Flag(
        help: "Print JSON: {controller, kind, host, verbs, methods: [{name, parameters: [{label, schema}], result}]}."
    )
    var json = false
    @OptionGroup var runtime: RuntimeOptions

    package func run() async throws {
        let connection = try Connection(runtime)
        let report: MethodsReport
        do {
            report = try connection.client.methods(of: ControllerID(controller))
        } catch {
            FileHandle.standardError.write(Data("\(error.error.code): \(error.error.message)\n".utf8))
            throw ExitStatus.of(error.error.code)
        }
        print(json ? Self.json(report) : Self.text(report), terminator: "")
    }

    /// One block per method, then the verbs.
    static func text(_ report: MethodsReport) -> String {
        var lines = ["\(report.controller): a \(report.kind) on host \(report.host)"]
        if report.methods.isEmpty { lines.append("  no typed methods") }
        for method in report.methods {
            lines.append("  \(method.name)")
            for parameter in method.parameters { lines.append("    \(parameter.label): \(parameter.schema)") }
            lines.append("    -> \(method.result)")
        }
        lines.append("  verbs: " + (report.verbs.isEmpty ? "none" : report.verbs.joined(separator: ", ")))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as one JSON document (each schema embedded as JSON, not as text).
    static func json(_ report: MethodsReport) -> String {
        func schema(_ text: String) -> Any {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? [String: Any]()
        }
        let object: [String: Any] = [
            "controller": report.controller.rawValue,
            "kind": report.kind,
            "host": report.host,
            "verbs": report.verbs,
            "methods": report.methods.map { method in
                [
                    "name": method.name,
                    "parameters": method.parameters.map { ["label": $0.label, "schema": schema($0.schema)] },
                    "result": schema(method.result),
                ] as [String: Any]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
