internal import CZeroMQ

/// A socket option that can be written and read back, typed by its Swift value.
///
/// Use it with `Socket.set(_:to:)` and ``Socket/get(_:)``:
/// `try socket.set(.receiveTimeout, to: .milliseconds(200))`, `try socket.get(.heartbeatInterval)`.
/// Durations are passed to libzmq in whole milliseconds, rounded up.
public struct SocketOption<Value>: Sendable {
    let name: CInt
    let label: String
    let codec: OptionCodec<Value>
}

/// A socket option that libzmq only lets you write, typed by its Swift value.
///
/// Use it with `Socket.set(_:to:)`: `try router.set(.routerMandatory, to: true)`.
public struct WriteOnlySocketOption<Value>: Sendable {
    let name: CInt
    let label: String
    let codec: OptionCodec<Value>
}

extension SocketOption where Value == Duration? {
    /// `ZMQ_LINGER`: how long unsent messages are kept after ``Socket/close()``; `nil` is forever. This wrapper
    /// creates every socket with zero, so that closing sockets and terminating the context never hangs.
    public static var linger: Self { .init(name: ZMQ_LINGER, label: "ZMQ_LINGER", codec: .optionalMilliseconds) }

    /// `ZMQ_SNDTIMEO`: how long a blocking send waits before returning `false`; `nil` (the default) is forever.
    public static var sendTimeout: Self {
        .init(name: ZMQ_SNDTIMEO, label: "ZMQ_SNDTIMEO", codec: .optionalMilliseconds)
    }

    /// `ZMQ_RCVTIMEO`: how long a blocking receive waits before returning `nil`; `nil` (the default) is forever.
    public static var receiveTimeout: Self {
        .init(name: ZMQ_RCVTIMEO, label: "ZMQ_RCVTIMEO", codec: .optionalMilliseconds)
    }

    /// `ZMQ_HEARTBEAT_TIMEOUT`: how long to wait for any traffic after sending a ZMTP PING before closing the
    /// connection; `nil` (the default) means the same as ``heartbeatInterval``. libzmq cannot be set back to that
    /// default: setting `nil` throws ``ZMQError/Code/invalidArgument``.
    public static var heartbeatTimeout: Self {
        .init(name: ZMQ_HEARTBEAT_TIMEOUT, label: "ZMQ_HEARTBEAT_TIMEOUT", codec: .optionalMilliseconds)
    }
}

extension SocketOption where Value == Duration {
    /// `ZMQ_HEARTBEAT_IVL`: the interval between ZMTP PINGs on each connection; zero (the default) disables them.
    public static var heartbeatInterval: Self {
        .init(name: ZMQ_HEARTBEAT_IVL, label: "ZMQ_HEARTBEAT_IVL", codec: .milliseconds)
    }

    /// `ZMQ_HEARTBEAT_TTL`: the time-to-live announced to the peer in PINGs, after which the peer drops the
    /// connection if it receives no traffic; zero (the default) disables it. libzmq keeps it in tenths of a second
    /// (rounding down) up to 6553.5 s.
    public static var heartbeatTTL: Self {
        .init(name: ZMQ_HEARTBEAT_TTL, label: "ZMQ_HEARTBEAT_TTL", codec: .milliseconds)
    }
}

extension SocketOption where Value == Int {
    /// `ZMQ_SNDHWM`: the maximum number of outgoing messages queued per peer; zero means no limit. Default 1000.
    public static var sendHighWaterMark: Self { .init(name: ZMQ_SNDHWM, label: "ZMQ_SNDHWM", codec: .count) }

    /// `ZMQ_RCVHWM`: the maximum number of incoming messages queued per peer; zero means no limit. Default 1000.
    public static var receiveHighWaterMark: Self { .init(name: ZMQ_RCVHWM, label: "ZMQ_RCVHWM", codec: .count) }
}

extension SocketOption where Value == Int? {
    /// `ZMQ_MAXMSGSIZE`: the largest inbound message (in bytes) a peer may send before being disconnected; `nil`
    /// (the default) is no limit.
    public static var maxMessageSize: Self {
        .init(name: ZMQ_MAXMSGSIZE, label: "ZMQ_MAXMSGSIZE", codec: .optionalSize)
    }
}

extension SocketOption where Value == Bool {
    /// `ZMQ_IMMEDIATE`: queue messages only to completed connections (instead of to every connecting peer).
    public static var immediate: Self { .init(name: ZMQ_IMMEDIATE, label: "ZMQ_IMMEDIATE", codec: .bool) }

    /// `ZMQ_IPV6`: allow IPv6 on TCP endpoints (and name resolution to IPv6 addresses).
    public static var ipv6: Self { .init(name: ZMQ_IPV6, label: "ZMQ_IPV6", codec: .bool) }

    /// `ZMQ_CURVE_SERVER`: act as a CURVE server (set ``curveSecretKey`` too). Requires ``hasCurve``.
    public static var curveServer: Self {
        .init(name: ZMQ_CURVE_SERVER, label: "ZMQ_CURVE_SERVER", codec: .bool)
    }
}

extension SocketOption where Value == [UInt8] {
    /// `ZMQ_ROUTING_ID` (formerly `ZMQ_IDENTITY`): the identity a ROUTER peer sees for this socket; 1 to 255
    /// bytes, not starting with a zero byte. Set it before connecting.
    public static var routingID: Self {
        .init(name: ZMQ_ROUTING_ID, label: "ZMQ_ROUTING_ID", codec: .bytes(capacity: 255))
    }
}

extension SocketOption where Value == String {
    /// `ZMQ_ZAP_DOMAIN`: the domain this (bound) socket's ZAP requests name, so one handler can tell sockets apart.
    /// Set, it also sends peers of the NULL mechanism (no CURVE) through the ZAP handler, which may then refuse them.
    public static var zapDomain: Self {
        .init(name: ZMQ_ZAP_DOMAIN, label: "ZMQ_ZAP_DOMAIN", codec: .text(capacity: 255))
    }
}

extension SocketOption where Value == CurveKey {
    /// `ZMQ_CURVE_PUBLICKEY`: this socket's long-term public key (CURVE clients).
    public static var curvePublicKey: Self {
        .init(name: ZMQ_CURVE_PUBLICKEY, label: "ZMQ_CURVE_PUBLICKEY", codec: .curveKey)
    }

    /// `ZMQ_CURVE_SECRETKEY`: this socket's long-term secret key (CURVE clients and servers).
    public static var curveSecretKey: Self {
        .init(name: ZMQ_CURVE_SECRETKEY, label: "ZMQ_CURVE_SECRETKEY", codec: .curveKey)
    }

    /// `ZMQ_CURVE_SERVERKEY`: the server's public key, which makes this socket a CURVE client.
    public static var curveServerKey: Self {
        .init(name: ZMQ_CURVE_SERVERKEY, label: "ZMQ_CURVE_SERVERKEY", codec: .curveKey)
    }
}

extension WriteOnlySocketOption where Value == Bool {
    /// `ZMQ_ROUTER_MANDATORY` (ROUTER): fail sends to unknown routing ids with ``ZMQError/Code/hostUnreachable``
    /// instead of dropping them silently.
    public static var routerMandatory: Self {
        .init(name: ZMQ_ROUTER_MANDATORY, label: "ZMQ_ROUTER_MANDATORY", codec: .bool)
    }

    /// `ZMQ_XPUB_VERBOSE` (XPUB): pass every subscription message up, not only the first one for each topic.
    public static var xpubVerbose: Self {
        .init(name: ZMQ_XPUB_VERBOSE, label: "ZMQ_XPUB_VERBOSE", codec: .bool)
    }

    /// `ZMQ_XPUB_NODROP` (XPUB, PUB): at the high-water mark, fail the send with `EAGAIN` (``Socket/send(_:dontWait:)``
    /// returns `false`) instead of dropping the message for the subscribers that are that far behind.
    public static var xpubNoDrop: Self {
        .init(name: ZMQ_XPUB_NODROP, label: "ZMQ_XPUB_NODROP", codec: .bool)
    }
}

/// How an option's value travels through `zmq_setsockopt` / `zmq_getsockopt`.
enum OptionRepresentation: Sendable {
    /// A C `int`.
    case int
    /// A C `int64_t`.
    case int64
    /// A byte buffer of at most `capacity` bytes.
    case bytes(capacity: Int)
}

/// An option's value as libzmq sees it.
enum OptionRawValue: Sendable {
    case int(CInt)
    case int64(Int64)
    case bytes([UInt8])
}

/// Converts an option's Swift value to and from its libzmq representation.
struct OptionCodec<Value>: Sendable {
    let representation: OptionRepresentation
    /// `nil` when the value cannot be represented (e.g. a negative duration).
    let encode: @Sendable (Value) -> OptionRawValue?
    /// `nil` when libzmq returned something unexpected.
    let decode: @Sendable (OptionRawValue) -> Value?
}

extension OptionRawValue {
    fileprivate var int: CInt? {
        if case .int(let value) = self {
            return value
        }
        return nil
    }

    fileprivate var int64: Int64? {
        if case .int64(let value) = self {
            return value
        }
        return nil
    }

    fileprivate var bytes: [UInt8]? {
        if case .bytes(let value) = self {
            return value
        }
        return nil
    }
}

extension OptionCodec where Value == Bool {
    static var bool: Self {
        .init(representation: .int, encode: { .int($0 ? 1 : 0) }, decode: { $0.int.map { $0 != 0 } })
    }
}

extension OptionCodec where Value == Int {
    /// A non-negative count.
    static var count: Self {
        .init(
            representation: .int,
            encode: { value in CInt(exactly: value).flatMap { $0 >= 0 ? .int($0) : nil } },
            decode: { $0.int.map(Int.init) }
        )
    }
}

extension OptionCodec where Value == Int? {
    /// A non-negative size, or -1 for `nil`.
    static var optionalSize: Self {
        .init(
            representation: .int64,
            encode: { value in
                guard let value else {
                    return .int64(-1)
                }
                return Int64(exactly: value).flatMap { $0 >= 0 ? .int64($0) : nil }
            },
            decode: { raw in raw.int64.flatMap { $0 < 0 ? .some(nil) : Int(exactly: $0).map { .some($0) } } }
        )
    }
}

extension OptionCodec where Value == Duration {
    /// A non-negative number of milliseconds.
    static var milliseconds: Self {
        .init(
            representation: .int,
            encode: { duration in duration.roundedUpMilliseconds.flatMap(CInt.init(exactly:)).map { .int($0) } },
            decode: { raw in raw.int.flatMap { $0 >= 0 ? .milliseconds($0) : nil } }
        )
    }
}

extension OptionCodec where Value == Duration? {
    /// A non-negative number of milliseconds, or -1 for `nil` (forever, or libzmq's default).
    static var optionalMilliseconds: Self {
        .init(
            representation: .int,
            encode: { duration in
                guard let duration else {
                    return .int(-1)
                }
                return duration.roundedUpMilliseconds.flatMap(CInt.init(exactly:)).map { .int($0) }
            },
            decode: { raw in raw.int.map { $0 < 0 ? nil : .milliseconds($0) } }
        )
    }
}

extension OptionCodec where Value == [UInt8] {
    static func bytes(capacity: Int) -> Self {
        .init(
            representation: .bytes(capacity: capacity),
            encode: { $0.count <= capacity ? .bytes($0) : nil },
            decode: { $0.bytes }
        )
    }
}

extension OptionCodec where Value == String {
    /// UTF-8 text without its terminating zero (libzmq answers with one, which is dropped).
    static func text(capacity: Int) -> Self {
        .init(
            representation: .bytes(capacity: capacity + 1),
            encode: { $0.utf8.count <= capacity ? .bytes(Array($0.utf8)) : nil },
            decode: { raw in raw.bytes.map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        )
    }
}

extension OptionCodec where Value == CurveKey {
    /// A key in its 32-byte binary form (libzmq answers in binary when asked for exactly 32 bytes).
    static var curveKey: Self {
        .init(
            representation: .bytes(capacity: CurveKey.byteCount),
            encode: { .bytes($0.bytes) },
            decode: { raw in raw.bytes.flatMap { try? CurveKey(bytes: $0) } }
        )
    }
}
