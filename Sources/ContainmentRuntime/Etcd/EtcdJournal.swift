import ContainmentConfig
import Foundation

/// The supervisor's journal in etcd (`journal: etcd`): each ``flush()`` appends what was buffered as the next batch
/// key (``EtcdKeys/journal(_:)``) in one transaction, conditioned on the leader's election key (fenced: a supervisor
/// that lost the leadership can no longer append) and on that batch not existing yet. It returns once etcd has
/// committed it — on a majority of the members — so nothing is answered before.
///
/// A member that does not answer is passed over for the next; while none answers (etcd electing its own leader, a
/// cut network) the append is tried again for as long as the leadership may still be valid, then fails. An append
/// whose outcome is unknown (the answer was lost) is tried again as it was, and read back when it finds its batch
/// written: it is the same bytes, or it is someone else's and the leadership was lost.
package final class EtcdJournal: JournalAppender {
    let store: any EtcdStore
    let keys: EtcdKeys
    let leadership: EtcdLeadership
    /// The next batch's number.
    package private(set) var segment: Int
    package private(set) var appended = 0
    /// Framed records, not yet appended; where each ends.
    private var buffer: [UInt8] = []
    private var ends: [Int] = []
    /// The largest value one batch key is given (etcd refuses requests past its `--max-request-bytes`, 1.5 MiB by
    /// default): a larger flush is several batches, each a transaction of its own.
    static let batchBytes = 1 << 20

    package init(store: any EtcdStore, keys: EtcdKeys, leadership: EtcdLeadership, next: Int) {
        self.store = store
        self.keys = keys
        self.leadership = leadership
        segment = next
    }

    package func append(serialized payload: [UInt8]) throws(JournalFailure) {
        JournalFormat.frame(payload, into: &buffer)
        ends.append(buffer.count)
        appended += 1
        if buffer.count > Self.batchBytes { try flush() }
    }

    package func flush() throws(JournalFailure) {
        var start = 0
        var index = 0
        while index < ends.count {
            // As many records as fit in one batch (at least one).
            var end = ends[index]
            index += 1
            while index < ends.count, ends[index] - start <= Self.batchBytes {
                end = ends[index]
                index += 1
            }
            try appendBatch(JournalFormat.magic + buffer[start..<end])
            start = end
        }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * Self.batchBytes)
        ends.removeAll(keepingCapacity: true)
    }

    /// Appends one batch, or throws once it cannot be (fenced, or etcd unreachable past the leadership's validity).
    private func appendBatch(_ value: [UInt8]) throws(JournalFailure) {
        let key = keys.journal(segment)
        var lastError: EtcdError?
        while leadership.isValid {
            let result: EtcdTxnResult
            do {
                result = try store.txn(
                    [
                        EtcdCompare(key: keys.leader, target: .createRevision(leadership.fence)),
                        EtcdCompare(key: key, target: .version(0)),
                    ],
                    success: [.put(key: key, value: value, lease: 0)],
                    failure: [.range(key: key)]
                )
            } catch  where error.kind == .unreachable {
                lastError = error
                Thread.sleep(forTimeInterval: 0.02)
                continue
            } catch {
                throw JournalFailure(description: "etcd refused journal batch \(segment): \(error.description)")
            }
            if result.succeeded || result.read.first?.value == value {
                // Written now, or by the try before whose answer was lost.
                segment += 1
                return
            }
            leadership.lose()
            throw JournalFailure(
                description: result.read.isEmpty
                    ? "etcd: this supervisor no longer holds the leadership (its election key is gone or another's):"
                        + " it stops acknowledging"
                    : "etcd: journal batch \(segment) was written by another supervisor: this one no longer leads"
            )
        }
        throw JournalFailure(
            description: "etcd: journal batch \(segment) could not be appended while this supervisor's lease held"
                + (lastError.map { " (\($0.description))" } ?? "") + ": it stops acknowledging"
        )
    }

    func syncIfDue() throws(JournalFailure) {}

    /// Every batch is a key of its own: the next record begins one anyway.
    func beginSegment() throws(JournalFailure) {}

    func finish() { try? flush() }
}
