import Foundation

/// Prints a report as pretty JSON with sorted keys (`stress --json`, `bench --json`).
package func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
