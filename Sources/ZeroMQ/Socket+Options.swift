internal import CZeroMQ

extension Socket {
    /// Sets a socket option (`zmq_setsockopt`), e.g. `try socket.set(.sendHighWaterMark, to: 10_000)`.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when the value is out of range (e.g. a
    ///   negative duration) or libzmq refuses it for this socket type.
    public func set<Value>(_ option: SocketOption<Value>, to value: Value) throws(ZMQError) {
        try setOption(name: option.name, label: option.label, codec: option.codec, value: value)
    }

    /// Sets a write-only socket option (`zmq_setsockopt`), e.g. `try router.set(.routerMandatory, to: true)`.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when libzmq refuses it for this socket type.
    public func set<Value>(_ option: WriteOnlySocketOption<Value>, to value: Value) throws(ZMQError) {
        try setOption(name: option.name, label: option.label, codec: option.codec, value: value)
    }

    /// Reads a socket option (`zmq_getsockopt`), e.g. `try socket.get(.linger)`.
    public func get<Value>(_ option: SocketOption<Value>) throws(ZMQError) -> Value {
        let operation = "zmq_getsockopt(\(option.label))"
        let raw = try getRawOption(name: option.name, representation: option.codec.representation, operation)
        guard let value = option.codec.decode(raw) else {
            throw ZMQError(.invalidArgument, operation: "\(operation): unexpected value \(raw)")
        }
        return value
    }

    /// Subscribes a SUB socket to messages whose first frame starts with `prefix` (`ZMQ_SUBSCRIBE`); an empty
    /// prefix subscribes to everything.
    public func subscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try setRawOption(name: ZMQ_SUBSCRIBE, value: .bytes(prefix), "zmq_setsockopt(ZMQ_SUBSCRIBE)")
    }

    /// Subscribes a SUB socket to messages whose first frame starts with the UTF-8 bytes of `topic`.
    public func subscribe(_ topic: String) throws(ZMQError) {
        try subscribe(Array(topic.utf8))
    }

    /// Removes one matching subscription made by `subscribe(_:)` with bytes (`ZMQ_UNSUBSCRIBE`).
    public func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try setRawOption(name: ZMQ_UNSUBSCRIBE, value: .bytes(prefix), "zmq_setsockopt(ZMQ_UNSUBSCRIBE)")
    }

    /// Removes one matching subscription made by `subscribe(_:)` with a string.
    public func unsubscribe(_ topic: String) throws(ZMQError) {
        try unsubscribe(Array(topic.utf8))
    }

    /// The endpoint last bound or connected (`ZMQ_LAST_ENDPOINT`), with wildcards resolved: after
    /// `bind("tcp://127.0.0.1:*")` it holds the chosen port, e.g. `"tcp://127.0.0.1:41235"`. Empty before any.
    public var lastEndpoint: String {
        get throws(ZMQError) {
            let raw = try getRawOption(
                name: ZMQ_LAST_ENDPOINT,
                representation: .bytes(capacity: 1024),
                "zmq_getsockopt(ZMQ_LAST_ENDPOINT)"
            )
            guard case .bytes(let bytes) = raw else {
                return ""
            }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// What the socket can do right now without blocking (`ZMQ_EVENTS`): ``PollEvents/readable`` when at least one
    /// message is waiting, ``PollEvents/writable`` when at least one message can be queued.
    public var events: PollEvents {
        get throws(ZMQError) {
            let raw = try getRawOption(name: ZMQ_EVENTS, representation: .int, "zmq_getsockopt(ZMQ_EVENTS)")
            guard case .int(let value) = raw else {
                return []
            }
            return PollEvents(rawValue: Int16(truncatingIfNeeded: value)).intersection([.readable, .writable])
        }
    }

    private func setOption<Value>(
        name: CInt,
        label: String,
        codec: OptionCodec<Value>,
        value: Value
    ) throws(ZMQError) {
        let operation = "zmq_setsockopt(\(label))"
        guard let raw = codec.encode(value) else {
            throw ZMQError(.invalidArgument, operation: "\(operation): value \(value) out of range")
        }
        try setRawOption(name: name, value: raw, operation)
    }

    private func setRawOption(
        name: CInt,
        value: OptionRawValue,
        _ operation: @autoclosure () -> String
    ) throws(ZMQError) {
        let handle = try openHandle(operation())
        switch value {
        case .int(var int):
            try zmqCall(operation()) { zmq_setsockopt(handle, name, &int, MemoryLayout<CInt>.size) }
        case .int64(var int64):
            try zmqCall(operation()) { zmq_setsockopt(handle, name, &int64, MemoryLayout<Int64>.size) }
        case .bytes(let bytes):
            // An empty value still gets a valid pointer: libzmq copies zero bytes from it.
            let storage = bytes.isEmpty ? [0] : bytes
            try zmqCall(operation()) { zmq_setsockopt(handle, name, storage, bytes.count) }
        }
    }

    private func getRawOption(
        name: CInt,
        representation: OptionRepresentation,
        _ operation: @autoclosure () -> String
    ) throws(ZMQError) -> OptionRawValue {
        let handle = try openHandle(operation())
        switch representation {
        case .int:
            var value: CInt = 0
            var size = MemoryLayout<CInt>.size
            try zmqCall(operation()) { zmq_getsockopt(handle, name, &value, &size) }
            return .int(value)
        case .int64:
            var value: Int64 = 0
            var size = MemoryLayout<Int64>.size
            try zmqCall(operation()) { zmq_getsockopt(handle, name, &value, &size) }
            return .int64(value)
        case .bytes(let capacity):
            var buffer = [UInt8](repeating: 0, count: capacity)
            var size = capacity
            try zmqCall(operation()) {
                size = capacity
                return zmq_getsockopt(handle, name, &buffer, &size)
            }
            return .bytes(Array(buffer.prefix(size)))
        }
    }
}
