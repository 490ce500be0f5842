import ArgumentParser
import ContainmentModel
import Foundation

/// Command-line forms of the model's values.
package enum Parse {
    package static func size(_ text: String) throws -> Size {
        guard let size = parseSize(text) else {
            throw ValidationError("\"\(text)\" is not a size (WIDTHxHEIGHT, e.g. 1024x768)")
        }
        return size
    }

    package static func rect(_ text: String) throws -> Rect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3] else {
            throw ValidationError("\"\(text)\" is not a frame (x,y,width,height, e.g. 0,0,320,480)")
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    package static func point(_ text: String) throws -> Point {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else {
            throw ValidationError("\"\(text)\" is not a point (x,y, e.g. 100,200)")
        }
        return Point(x: x, y: y)
    }

    package static func view(_ text: String) throws -> ViewID {
        guard let view = ViewID(parsing: text) else {
            throw ValidationError("\"\(text)\" is not a view (ID or ID/NAME)")
        }
        return view
    }

    package static func bool(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw ValidationError("\"\(text)\" is not true or false")
        }
    }
}

/// WIDTHxHEIGHT, a valid size; nil otherwise.
package func parseSize(_ text: String) -> Size? {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]) else { return nil }
    let size = Size(width: width, height: height)
    return size.isValid ? size : nil
}
