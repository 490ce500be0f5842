import ContainmentModel
import Foundation

extension MethodDescription {
    /// A call's arguments, one JSON text per parameter in order, from one JSON text: an object keyed by the
    /// parameters' labels (`{"child":"tile3","at":0}`; an unlabeled parameter by its position, `"0"`), or an array
    /// of them in order (`["tile3",0]`); a method without parameters takes `{}`, `[]` or nothing. `malformed` names
    /// what is missing, unknown or not JSON.
    public func arguments(fromJSON text: String) throws(ContainmentError) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty, parameters.isEmpty { return [] }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(trimmed.utf8))
        } catch {
            throw ContainmentError(.malformed, "The arguments of \(name) are not JSON: \(error).")
        }
        let values: [JSONValue]
        switch value {
        case .array(let list):
            guard list.count == parameters.count else {
                throw ContainmentError(
                    .malformed,
                    "\(name) takes \(parameters.count) arguments; the array has \(list.count)."
                )
            }
            values = list
        case .object(let fields):
            let keys = parameters.enumerated().map { $0.element.label == "_" ? "\($0.offset)" : $0.element.label }
            if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
                throw ContainmentError(
                    .malformed,
                    "\(name) has no parameter \(unknown); its parameters: "
                        + (keys.isEmpty ? "none" : keys.joined(separator: ", ")) + "."
                )
            }
            values = try keys.map { key throws(ContainmentError) in
                guard let field = fields[key] else {
                    throw ContainmentError(.malformed, "The arguments of \(name) lack \(key).")
                }
                return field
            }
        default:
            throw ContainmentError(
                .malformed,
                "The arguments of \(name) are a JSON object keyed by its labels, or an array in order."
            )
        }
        return values.map(\.text)
    }
}

/// Any JSON value, numbers kept as written: an integer stays an integer (a `UInt64` keeps every digit).
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsigned(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Its JSON text, keys sorted.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every case encodes: no float here is NaN or infinite, since JSON has none to decode.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
