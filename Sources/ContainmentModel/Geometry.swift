/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// Within the geometry's range (``Double/isGeometric``) and not negative.
    public var isValid: Bool { width.isGeometric && height.isGeometric && width >= 0 && height >= 0 }

    public var description: String { "\(width.compact)x\(height.compact)" }
}

/// A point, in some view's coordinates (or a window's).
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var isValid: Bool { x.isGeometric && y.isGeometric }

    public var description: String { "\(x.compact),\(y.compact)" }
}

/// A view's frame: origin and size, as doubles (SPEC §1).
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin x: Double = 0, _ y: Double = 0, size: Size) {
        self.init(x: x, y: y, width: size.width, height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var size: Size { Size(width: width, height: height) }

    /// Whether `point` (in the same coordinates as the frame) lies inside: half-open, x ≤ px < x + width (SPEC §12).
    public func contains(_ point: Point) -> Bool {
        x <= point.x && point.x < x + width && y <= point.y && point.y < y + height
    }

    /// Every coordinate within the geometry's range and the size not negative.
    public var isValid: Bool { x.isGeometric && y.isGeometric && size.isValid }

    public var description: String { "\(x.compact),\(y.compact),\(width.compact),\(height.compact)" }
}

extension Double {
    /// The range of a coordinate or a length a command may give: finite and within ±1,000,000,000 points, so that no
    /// sum of them the model makes (a frame's end, a layout) overflows (issue 42: `resize 1e300x1e300` and a frame at
    /// 1e308 were accepted).
    public static let geometryLimit = 1e9

    /// Finite and within ±``geometryLimit``.
    public var isGeometric: Bool { isFinite && abs(self) <= Self.geometryLimit }

    /// `320` rather than `320.0`; fractions kept.
    var compact: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
