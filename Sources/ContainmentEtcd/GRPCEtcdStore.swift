import ContainmentConfig
import ContainmentRuntime
import Dispatch
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf
import Synchronization

/// The runtime's ``EtcdStore`` over etcd's gRPC API (grpc-swift-2, HTTP/2): one connection to each member, a
/// request to the member that answered last and on to the next ones in turn when it cannot answer (unreachable,
/// or without a quorum). Blocking calls for the supervisor's own thread: each runs as a task and is waited for.
package final class GRPCEtcdStore: EtcdStore {
    let settings: EtcdSettings
    /// Ranges answered from the asked member's own state, without a quorum (etcd's serializable reads): what a member
    /// last knew, possibly stale — for `status` when etcd has no majority. Off for the supervisors.
    private let readsLocally: Bool
    private let members: [EtcdMember]
    private let current = Mutex(0)
    /// etcd's authentication token (with `user`), sent with every request.
    private let token = Mutex<String?>(nil)

    package init(settings: EtcdSettings, readsLocally: Bool = false) throws(EtcdError) {
        self.settings = settings
        self.readsLocally = readsLocally
        guard !settings.endpoints.isEmpty else {
            throw EtcdError(kind: .malformed, description: "etcd.endpoints is empty")
        }
        var members: [EtcdMember] = []
        for endpoint in settings.endpoints {
            members.append(try EtcdMember(endpoint: endpoint, settings: settings))
        }
        self.members = members
    }

    deinit { close() }

    package func close() {
        for member in members { member.close() }
    }

    // MARK: EtcdStore

    package func range(
        _ key: String,
        end: String?,
        limit: Int
    ) throws(EtcdError) -> (
        kvs: [EtcdKeyValue], more: Bool, revision: Int64
    ) {
        var request = Etcdserverpb_RangeRequest()
        request.key = Data(key.utf8)
        if let end { request.rangeEnd = Data(end.utf8) }
        request.limit = Int64(limit)
        request.serializable = readsLocally
        let response = try call { [request] metadata, member, options in
            try await member.kv.range(request, metadata: metadata, options: options)
        }
        return (response.kvs.map(Self.keyValue), response.more, response.header.revision)
    }

    package func count(_ key: String, end: String) throws(EtcdError) -> Int {
        var request = Etcdserverpb_RangeRequest()
        request.key = Data(key.utf8)
        request.rangeEnd = Data(end.utf8)
        request.countOnly = true
        request.serializable = readsLocally
        let response = try call { [request] metadata, member, options in
            try await member.kv.range(request, metadata: metadata, options: options)
        }
        return Int(response.count)
    }

    package func txn(
        _ compare: [EtcdCompare],
        success: [EtcdOperation],
        failure: [EtcdOperation]
    ) throws(EtcdError)
        -> EtcdTxnResult
    {
        var request = Etcdserverpb_TxnRequest()
        request.compare = compare.map(Self.message)
        request.success = success.map(Self.message)
        request.failure = failure.map(Self.message)
        let response = try call { [request] metadata, member, options in
            try await member.kv.txn(request, metadata: metadata, options: options)
        }
        let read = response.responses.flatMap { $0.responseRange.kvs.map(Self.keyValue) }
        return EtcdTxnResult(succeeded: response.succeeded, revision: response.header.revision, read: read)
    }

    package func grantLease(seconds: Int) throws(EtcdError) -> (id: Int64, seconds: Int) {
        var request = Etcdserverpb_LeaseGrantRequest()
        request.ttl = Int64(seconds)
        let response = try call { [request] metadata, member, options in
            try await member.lease.leaseGrant(request, metadata: metadata, options: options)
        }
        guard response.id != 0 else {
            throw EtcdError(kind: .malformed, description: "etcd granted a lease without an id: \(response.error)")
        }
        return (response.id, Int(response.ttl))
    }

    package func keepAlive(_ id: Int64) throws(EtcdError) -> Int {
        var request = Etcdserverpb_LeaseKeepAliveRequest()
        request.id = id
        // One renewal: the stream sends it, reads the answer, and ends.
        let ttl = try call { [request] metadata, member, options in
            try await member.lease.leaseKeepAlive(
                metadata: metadata,
                options: options,
                requestProducer: { writer in try await writer.write(request) },
                onResponse: { response in
                    for try await message in response.messages { return message.ttl }
                    return 0
                }
            )
        }
        return Int(ttl)
    }

    package func revoke(_ id: Int64) throws(EtcdError) {
        var request = Etcdserverpb_LeaseRevokeRequest()
        request.id = id
        do {
            _ = try call { [request] metadata, member, options in
                try await member.lease.leaseRevoke(request, metadata: metadata, options: options)
            }
        } catch let error where error.kind == .refused(code: RPCError.Code.notFound.rawValue) {
            // Gone already.
        }
    }

    package func watch(_ key: String, end: String, from revision: Int64) throws(EtcdError) -> any EtcdWatch {
        var request = Etcdserverpb_WatchRequest()
        var create = Etcdserverpb_WatchCreateRequest()
        create.key = Data(key.utf8)
        create.rangeEnd = Data(end.utf8)
        create.startRevision = revision
        request.createRequest = create
        let member = members[current.withLock { $0 }]
        return GRPCEtcdWatch(member: member, request: request, metadata: metadata())
    }

    // MARK: Calls

    private func metadata() -> Metadata {
        guard let token = token.withLock({ $0 }) else { return [:] }
        var metadata = Metadata()
        metadata.addString(token, forKey: "token")
        return metadata
    }

    /// Runs `body` against the member that answered last, then each other in turn while they cannot answer;
    /// authenticates first (with `user`), and again once when etcd says the token is no longer valid.
    private func call<Result: Sendable>(
        _ body: @escaping @Sendable (Metadata, EtcdMember, CallOptions) async throws -> Result
    ) throws(EtcdError) -> Result {
        if settings.user != nil, token.withLock({ $0 }) == nil { try authenticate() }
        do {
            return try onAnyMember(body)
        } catch let error
            where error.kind == .refused(code: RPCError.Code.unauthenticated.rawValue) && settings.user != nil
        {
            try authenticate()
            return try onAnyMember(body)
        }
    }

    private func onAnyMember<Result: Sendable>(
        _ body: @escaping @Sendable (Metadata, EtcdMember, CallOptions) async throws -> Result
    ) throws(EtcdError) -> Result {
        var options = CallOptions.defaults
        options.timeout = settings.requestTimeout
        let metadata = metadata()
        let first = current.withLock { $0 }
        var failures: [String] = []
        for step in 0..<members.count {
            let index = (first + step) % members.count
            let member = members[index]
            switch waitFor({ [options] in try await body(metadata, member, options) }) {
            case .success(let result):
                if step > 0 { current.withLock { $0 = index } }
                return result
            case .failure(let error) where error.kind == .unreachable:
                failures.append("\(member.endpoint): \(error.description)")
            case .failure(let error):
                throw error
            }
        }
        throw EtcdError(
            kind: .unreachable,
            description: "no etcd member answered (\(failures.joined(separator: "; ")))"
        )
    }

    private func authenticate() throws(EtcdError) {
        guard let user = settings.user else { return }
        let password: String
        do {
            password = try String(contentsOfFile: settings.passwordFile ?? "", encoding: .utf8)
                .trimmingCharacters(in: .newlines)
        } catch {
            throw EtcdError(
                kind: .refused(code: RPCError.Code.unauthenticated.rawValue),
                description: "cannot read etcd's password file \(settings.passwordFile ?? "(none)")"
            )
        }
        token.withLock { $0 = nil }
        var request = Etcdserverpb_AuthenticateRequest()
        request.name = user
        request.password = password
        let response = try onAnyMember { [request] _, member, options in
            try await member.auth.authenticate(request, options: options)
        }
        token.withLock { $0 = response.token }
    }

    // MARK: Messages

    static func keyValue(_ message: Mvccpb_KeyValue) -> EtcdKeyValue {
        EtcdKeyValue(
            key: String(decoding: message.key, as: UTF8.self),
            value: [UInt8](message.value),
            createRevision: message.createRevision,
            modRevision: message.modRevision,
            lease: message.lease
        )
    }

    private static func message(_ compare: EtcdCompare) -> Etcdserverpb_Compare {
        var message = Etcdserverpb_Compare()
        message.key = Data(compare.key.utf8)
        message.result = .equal
        switch compare.target {
        case .createRevision(let revision):
            message.target = .create
            message.createRevision = revision
        case .version(let version):
            message.target = .version
            message.version = version
        }
        return message
    }

    private static func message(_ operation: EtcdOperation) -> Etcdserverpb_RequestOp {
        var message = Etcdserverpb_RequestOp()
        switch operation {
        case .put(let key, let value, let lease):
            var put = Etcdserverpb_PutRequest()
            put.key = Data(key.utf8)
            put.value = Data(value)
            put.lease = lease
            message.requestPut = put
        case .range(let key):
            var range = Etcdserverpb_RangeRequest()
            range.key = Data(key.utf8)
            message.requestRange = range
        case .delete(let key, let end):
            var delete = Etcdserverpb_DeleteRangeRequest()
            delete.key = Data(key.utf8)
            if let end { delete.rangeEnd = Data(end.utf8) }
            message.requestDeleteRange = delete
        }
        return message
    }
}

/// An RPC's error as the store's: a member that cannot answer now (unreachable, no quorum, too slow) is
/// `unreachable`, so the next member is asked; any other is etcd's refusal, with its code.
func etcdError(_ error: any Error) -> EtcdError {
    guard let error = error as? RPCError else {
        return EtcdError(kind: .unreachable, description: "\(error)")
    }
    switch error.code {
    case .unavailable, .deadlineExceeded, .cancelled, .unknown:
        return EtcdError(kind: .unreachable, description: error.message)
    default:
        return EtcdError(kind: .refused(code: error.code.rawValue), description: error.message)
    }
}

/// Runs `body` as a task and waits for it on this thread (a daemon's own thread, never a task's).
func waitFor<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) -> Swift.Result<Result, EtcdError>
{
    let outcome = Mutex<Swift.Result<Result, EtcdError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Swift.Result<Result, EtcdError>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(etcdError(error))
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return outcome.withLock { $0 } ?? .failure(EtcdError(kind: .malformed, description: "no outcome"))
}
