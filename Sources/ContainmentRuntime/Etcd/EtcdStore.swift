import ContainmentConfig
/// A request to etcd that did not succeed: no member answered, or etcd refused it (its gRPC status code and message).
package struct EtcdError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// No member answered within the request timeout (each endpoint was tried), or the cluster has no quorum.
        case unreachable
        /// etcd refused the request: its gRPC status code (5: not found, 9: failed precondition, 16: unauthenticated …).
        case refused(code: Int)
        /// An answer that is not what the API says.
        case malformed
    }

    package let kind: Kind
    package let description: String

    package init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}

/// One key and its value as etcd holds it.
package struct EtcdKeyValue: Sendable, Equatable {
    package var key: String
    package var value: [UInt8]
    package var createRevision: Int64
    package var modRevision: Int64
    package var lease: Int64

    package init(key: String, value: [UInt8], createRevision: Int64, modRevision: Int64, lease: Int64) {
        self.key = key
        self.value = value
        self.createRevision = createRevision
        self.modRevision = modRevision
        self.lease = lease
    }
}

/// A comparison of a transaction (`Compare` of etcd's API): always "equal".
package struct EtcdCompare: Sendable, Equatable {
    package enum Target: Sendable, Equatable {
        /// The revision the key was created at (0: it does not exist).
        case createRevision(Int64)
        /// How many times the key was written since it was created (0: it does not exist).
        case version(Int64)
    }

    package var key: String
    package var target: Target

    package init(key: String, target: Target) {
        self.key = key
        self.target = target
    }
}

/// An operation of a transaction.
package enum EtcdOperation: Sendable, Equatable {
    case put(key: String, value: [UInt8], lease: Int64)
    case range(key: String)
    case delete(key: String, end: String?)
}

/// What a transaction came to: whether its comparisons held (then its success operations ran, else its failure ones),
/// the cluster's revision after it, and the keys its range operations read.
package struct EtcdTxnResult: Sendable, Equatable {
    package var succeeded: Bool
    package var revision: Int64
    package var read: [EtcdKeyValue]

    package init(succeeded: Bool, revision: Int64, read: [EtcdKeyValue]) {
        self.succeeded = succeeded
        self.revision = revision
        self.read = read
    }
}

/// What a watch saw: keys written (their new values) and keys deleted, at the revision given.
package struct EtcdChange: Sendable, Equatable {
    package var put: EtcdKeyValue?
    package var deleted: String?
    package var revision: Int64

    package init(put: EtcdKeyValue? = nil, deleted: String? = nil, revision: Int64) {
        self.put = put
        self.deleted = deleted
        self.revision = revision
    }
}

/// A watch of a range of keys from a revision on: its changes as they come.
package protocol EtcdWatch: Sendable {
    /// The changes seen since the last call, waiting up to `timeout` for the first; empty when none came. Throws when
    /// the watch ended (the cluster compacted past its revision, or it cannot be reached).
    func next(timeout: Duration) throws(EtcdError) -> [EtcdChange]
    func cancel()
}

/// The part of etcd's v3 API the replicated journal uses (docs/DURABILITY.md, "Replicated"), as blocking calls that a
/// daemon's own thread may make: the runtime defines it and the `containment` executable gives it an implementation
/// (ContainmentEtcd, over gRPC), so the libraries an app links carry no gRPC.
///
/// A request a member does not answer in time is sent to the next member: one whose answer was lost may so be
/// applied twice. Every caller allows for it — an append or a campaign whose comparison then fails reads back
/// whether the key is its own; puts of the same value and deletes are the same done twice.
package protocol EtcdStore: Sendable {
    /// The keys from `key` up to `end` (not included; `nil`: `key` alone), at most `limit` (0: all), in key order;
    /// whether more are past the limit; the cluster's revision.
    func range(
        _ key: String,
        end: String?,
        limit: Int
    ) throws(EtcdError) -> (
        kvs: [EtcdKeyValue], more: Bool, revision: Int64
    )
    /// How many keys there are from `key` up to `end` (not included), without reading them.
    func count(_ key: String, end: String) throws(EtcdError) -> Int
    /// One transaction: when every comparison holds, `success` runs, else `failure` — atomically.
    func txn(
        _ compare: [EtcdCompare],
        success: [EtcdOperation],
        failure: [EtcdOperation]
    ) throws(EtcdError)
        -> EtcdTxnResult
    /// A new lease of `seconds`: its id and the seconds etcd granted.
    func grantLease(seconds: Int) throws(EtcdError) -> (id: Int64, seconds: Int)
    /// Renews lease `id`: the seconds it has again, 0 when it has lapsed or was revoked.
    func keepAlive(_ id: Int64) throws(EtcdError) -> Int
    /// Ends lease `id` now, and with it the keys tied to it (nothing when it is gone already).
    func revoke(_ id: Int64) throws(EtcdError)
    /// Watches the keys from `key` up to `end`, from revision `revision` on.
    func watch(_ key: String, end: String, from revision: Int64) throws(EtcdError) -> any EtcdWatch
    /// Closes its connections.
    func close()
}

extension EtcdStore {
    /// Writes `value` at `key` (tied to `lease` when not 0); the cluster's revision after it.
    @discardableResult
    package func put(_ key: String, _ value: [UInt8], lease: Int64 = 0) throws(EtcdError) -> Int64 {
        try txn([], success: [.put(key: key, value: value, lease: lease)], failure: []).revision
    }

    /// A transaction with nothing to do when its comparisons fail.
    package func txn(_ compare: [EtcdCompare], success: [EtcdOperation]) throws(EtcdError) -> EtcdTxnResult {
        try txn(compare, success: success, failure: [])
    }

    /// Removes the keys from `key` up to `end` (not included).
    package func delete(_ key: String, end: String? = nil) throws(EtcdError) {
        _ = try txn([], success: [.delete(key: key, end: end)], failure: [])
    }

    package func range(
        _ key: String,
        end: String? = nil
    ) throws(EtcdError) -> (
        kvs: [EtcdKeyValue], more: Bool, revision: Int64
    ) {
        try range(key, end: end, limit: 0)
    }
}
