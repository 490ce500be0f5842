internal import CZeroMQ

/// CURVE key generation (the CURVE security mechanism needs libzmq built with libsodium; see ``hasCurve``).
///
/// A CURVE server sets ``SocketOption/curveServer`` and its ``SocketOption/curveSecretKey``; a client sets the
/// server's public key as ``SocketOption/curveServerKey`` plus its own ``SocketOption/curvePublicKey`` and
/// ``SocketOption/curveSecretKey``.
public enum Curve {
    /// Generates a new long-term key pair (`zmq_curve_keypair`), both keys as 40-character Z85 strings.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/notSupported`` when libzmq was built without CURVE.
    public static func keyPair() throws(ZMQError) -> (publicKey: String, secretKey: String) {
        var publicKey = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        var secretKey = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        try zmqCall("zmq_curve_keypair") { zmq_curve_keypair(&publicKey, &secretKey) }
        return (String(nulTerminated: publicKey), String(nulTerminated: secretKey))
    }

    /// Derives the Z85 public key of a Z85 secret key (`zmq_curve_public`).
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when `secretKey` is not a 40-character Z85
    ///   string, ``ZMQError/Code/notSupported`` when libzmq was built without CURVE.
    public static func publicKey(forSecretKey secretKey: String) throws(ZMQError) -> String {
        let operation = "zmq_curve_public"
        guard secretKey.utf8.count == CurveKey.z85Count, !secretKey.utf8.contains(0) else {
            throw ZMQError(.invalidArgument, operation: operation)
        }
        var publicKey = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        try zmqCall(operation) { zmq_curve_public(&publicKey, secretKey) }
        return String(nulTerminated: publicKey)
    }
}

/// A 32-byte CURVE key (public or secret), the value of the CURVE socket options.
///
/// It deliberately has no textual description, so that secret keys do not end up in logs by accident; use ``z85``
/// explicitly.
public struct CurveKey: Hashable, Sendable {
    /// The size of a key in bytes.
    public static let byteCount = 32
    /// The size of a key in Z85 characters.
    public static let z85Count = 40

    /// The 32 bytes of the key.
    public let bytes: [UInt8]

    /// A key from its 32-byte binary form.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when `bytes` does not hold exactly 32 bytes.
    public init(bytes: [UInt8]) throws(ZMQError) {
        guard bytes.count == Self.byteCount else {
            throw ZMQError(.invalidArgument, operation: "CurveKey(bytes:) with \(bytes.count) bytes")
        }
        self.bytes = bytes
    }

    /// A key from its 40-character Z85 form, as produced by ``Curve/keyPair()``.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when `z85` is not 40 Z85 characters.
    public init(z85: String) throws(ZMQError) {
        guard z85.utf8.count == Self.z85Count else {
            throw ZMQError(.invalidArgument, operation: "CurveKey(z85:) with \(z85.utf8.count) characters")
        }
        try self.init(bytes: Z85.decode(z85))
    }

    /// The key as 40 Z85 characters.
    public var z85: String {
        // 32 bytes is a multiple of 4, the only condition under which Z85 encoding can fail.
        (try? Z85.encode(bytes)) ?? ""
    }
}

/// What a CURVE client needs: the server's public key, and its own key pair.
public struct CurveClientKeys: Sendable, Equatable {
    public var server: CurveKey
    public var publicKey: CurveKey
    public var secretKey: CurveKey

    public init(server: CurveKey, publicKey: CurveKey, secretKey: CurveKey) {
        self.server = server
        self.publicKey = publicKey
        self.secretKey = secretKey
    }
}

extension Socket {
    /// Makes this socket a CURVE server with `secretKey` (before it binds): only CURVE clients that know the public
    /// key get through, and a ZAP handler, if one is bound in the context, decides which of them.
    public func makeCurveServer(secretKey: CurveKey) throws(ZMQError) {
        try set(.curveServer, to: true)
        try set(.curveSecretKey, to: secretKey)
    }

    /// Makes this socket a CURVE client with `keys` (before it connects).
    public func makeCurveClient(_ keys: CurveClientKeys) throws(ZMQError) {
        try set(.curveServerKey, to: keys.server)
        try set(.curvePublicKey, to: keys.publicKey)
        try set(.curveSecretKey, to: keys.secretKey)
    }
}
