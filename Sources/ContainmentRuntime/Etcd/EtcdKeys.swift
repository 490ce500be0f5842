import ContainmentConfig
/// The keys a runtime keeps in etcd, under its prefix (docs/DURABILITY.md, "Replicated"):
///
/// - `leader`: the election key, tied to the leader's lease; its value names the leader (``LeaderRecord``).
/// - `journal/NNNNNNNNNNNNNNNN`: the journal, one key per batch the leader appended in one transaction, numbered from 1;
///   a value is a segment's bytes (the magic, then framed records: docs/PROTOCOL.md, "The journal").
/// - `checkpoints/NNNNNNNNNNNNNNNN`: a checkpoint's manifest (``EtcdCheckpointer``), numbered by the batch recovery
///   replays from after it; `checkpoint-data/NNNNNNNNNNNNNNNN/PPPP`: its parts.
/// - `standbys/NAME`: each standby's report (``StandbyRecord``), tied to its lease.
package struct EtcdKeys: Sendable, Equatable {
    package let root: String

    package init(prefix: String) {
        root = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    }

    package var leader: String { root + "/leader" }

    func journal(_ number: Int) -> String { root + "/journal/" + Self.padded(number) }
    package var journalPrefix: String { root + "/journal/" }

    func checkpoint(_ number: Int) -> String { root + "/checkpoints/" + Self.padded(number) }
    var checkpointPrefix: String { root + "/checkpoints/" }

    func checkpointParts(_ number: Int) -> String { root + "/checkpoint-data/" + Self.padded(number) + "/" }
    func checkpointPart(_ number: Int, _ part: Int) -> String {
        checkpointParts(number) + String(Self.padded(part).suffix(4))
    }

    func standby(_ name: String) -> String { root + "/standbys/" + name }
    var standbyPrefix: String { root + "/standbys/" }

    /// The end of the range of keys that begin with `prefix` (etcd's `range_end`: the prefix with its last byte plus
    /// one).
    static func end(of prefix: String) -> String {
        var bytes = Array(prefix.utf8)
        bytes[bytes.count - 1] += 1
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number at the end of `key`, under `prefix`.
    static func number(of key: String, under prefix: String) -> Int? {
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.dropFirst(prefix.count)
        return rest.count == 16 ? Int(rest) : nil
    }

    static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
