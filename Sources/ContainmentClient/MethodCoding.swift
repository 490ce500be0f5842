import ContainmentModel
import Distributed
import Foundation

/// How a typed method call's arguments and result travel: each as one JSON text (an `Invoke`'s arguments, an
/// `Accepted`'s result), readable in `watch`, the journal and any language's client.
enum MethodCoding {
    static func encode<Value: Encodable>(_ value: Value) throws(RemoteError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw RemoteError(
                ContainmentError(.malformed, "A value of type \(Value.self) cannot be encoded: \(error).")
            )
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws(RemoteError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw RemoteError(
                ContainmentError(
                    .malformed,
                    "\(shown(text)) is not the JSON of a value of type \(Value.self): \(error)."
                )
            )
        }
    }

    /// At most 80 characters of a text, for a message.
    static func shown(_ text: String) -> String {
        text.count <= 80 ? "'\(text)'" : "'\(text.prefix(77))...'"
    }

    /// What a method threw, as its caller receives it: a runtime error as it is, any other error as `methodFailed`
    /// with its type and text.
    static func remote(_ error: any Error) -> RemoteError {
        switch error {
        case let remote as RemoteError: remote
        case let containment as ContainmentError: RemoteError(containment)
        default: RemoteError(ContainmentError(.methodFailed, "\(type(of: error)): \(error)"))
        }
    }
}

/// Records a typed method call's arguments, each as one JSON text. Generic methods are not supported.
public struct MethodCallEncoder: DistributedTargetInvocationEncoder {
    public typealias SerializationRequirement = any Codable

    var arguments: [String] = []

    init() {}

    public mutating func recordGenericSubstitution<T>(_ type: T.Type) throws {
        throw RemoteError(
            ContainmentError(.malformed, "A generic distributed method cannot be called across processes (\(T.self)).")
        )
    }

    public mutating func recordArgument<Value: Codable>(_ argument: RemoteCallArgument<Value>) throws {
        arguments.append(try MethodCoding.encode(argument.value))
    }

    public mutating func recordErrorType<E: Error>(_ type: E.Type) throws {}
    public mutating func recordReturnType<R: Codable>(_ type: R.Type) throws {}
    public mutating func doneRecording() throws {}
}

/// Reads a typed method call's arguments in the host that runs its controller.
public struct MethodCallDecoder: DistributedTargetInvocationDecoder {
    public typealias SerializationRequirement = any Codable

    private let arguments: [String]
    private var next = 0
    /// A probe call's (``MethodCatalog``): each argument is made up, its type's schema noted.
    private let probe: MethodProbe?

    init(arguments: [String], probe: MethodProbe? = nil) {
        self.arguments = arguments
        self.probe = probe
    }

    public mutating func decodeGenericSubstitutions() throws -> [Any.Type] { [] }

    public mutating func decodeNextArgument<Argument: Codable>() throws -> Argument {
        if let probe {
            let (schema, value) = SchemaProbe.schema(of: Argument.self)
            probe.argument(schema)
            guard let value else { throw MethodProbe.Stop() }
            return value
        }
        guard next < arguments.count else {
            throw RemoteError(
                ContainmentError(.malformed, "The call has \(arguments.count) arguments; the method takes more.")
            )
        }
        defer { next += 1 }
        return try MethodCoding.decode(Argument.self, from: arguments[next])
    }

    public mutating func decodeErrorType() throws -> Any.Type? { nil }
    public mutating func decodeReturnType() throws -> Any.Type? { nil }
}

/// Collects what a method executed for a call returned or threw.
public final class MethodResultHandler: DistributedTargetInvocationResultHandler {
    public typealias SerializationRequirement = any Codable

    /// The method's result as JSON text, or what it threw; `nil` until it ended.
    var outcome: Result<String, RemoteError>?

    init() {}

    public func onReturn<Success: Codable>(value: Success) async throws {
        do throws(RemoteError) {
            outcome = .success(try MethodCoding.encode(value))
        } catch {
            outcome = .failure(error)
        }
    }

    public func onReturnVoid() async throws {
        outcome = .success("null")
    }

    public func onThrow<Err: Error>(error: Err) async throws {
        outcome = .failure(MethodCoding.remote(error))
    }
}
