import ContainmentModel
import Foundation

/// What a tile tells its delegate: a typed message, sent as JSON in a `report` message (SPEC §11).
public struct TileReport: Codable, Hashable, Sendable {
    /// The message's name.
    public static let name = "report"

    /// The tile that reports.
    public var tile: String
    /// Its root view's size when it appeared.
    public var width: Double
    public var height: Double

    public init(tile: String, width: Double, height: Double) {
        self.tile = tile
        self.width = width
        self.height = height
    }

    /// The message's payload.
    public func encoded() throws -> [UInt8] { Array(try JSONEncoder().encode(self)) }

    /// A report from a payload, `nil` if it is not one.
    public init?(payload: [UInt8]) {
        guard let report = try? JSONDecoder().decode(TileReport.self, from: Data(payload)) else { return nil }
        self = report
    }
}
