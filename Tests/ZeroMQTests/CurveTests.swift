import Foundation
import Testing
import ZeroMQ

@Suite("CURVE security and Z85")
struct CurveTests {
    @Test("Z85 encodes and decodes the reference vector, and rejects bad lengths and characters")
    func z85() throws {
        let bytes: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
        #expect(try Z85.encode(bytes) == "HelloWorld")
        #expect(try Z85.decode("HelloWorld") == bytes)
        #expect(try Z85.encode([]).isEmpty)
        #expect(try Z85.decode("").isEmpty)
        let badLength = #expect(throws: ZMQError.self) { try Z85.encode([1, 2, 3]) }
        #expect(badLength?.code == .invalidArgument)
        #expect(try Z85.decode("Hello").count == 4)
        let badCharacter = #expect(throws: ZMQError.self) { try Z85.decode("Hell\"") }
        #expect(badCharacter?.code == .invalidArgument)
        let badDecodeLength = #expect(throws: ZMQError.self) { try Z85.decode("Hell") }
        #expect(badDecodeLength?.code == .invalidArgument)
    }

    @Test("key pairs are 40 Z85 characters and the public key derives from the secret key", .enabled(if: hasCurve))
    func keyPair() throws {
        let pair = try Curve.keyPair()
        #expect(pair.publicKey.utf8.count == 40)
        #expect(pair.secretKey.utf8.count == 40)
        #expect(try Curve.publicKey(forSecretKey: pair.secretKey) == pair.publicKey)
        let key = try CurveKey(z85: pair.publicKey)
        #expect(key.bytes.count == 32)
        #expect(key.z85 == pair.publicKey)
        #expect(try CurveKey(bytes: key.bytes) == key)
        #expect(try Curve.keyPair().publicKey != pair.publicKey)
        let shortKey = #expect(throws: ZMQError.self) { try CurveKey(z85: "HelloWorld") }
        #expect(shortKey?.code == .invalidArgument)
        let shortBytes = #expect(throws: ZMQError.self) { try CurveKey(bytes: [1, 2, 3]) }
        #expect(shortBytes?.code == .invalidArgument)
    }

    @Test("a CURVE client with the server's public key exchanges messages with the server", .enabled(if: hasCurve))
    func encryptedExchange() throws {
        let context = try Context()
        let serverKeys = try Curve.keyPair()
        let server = try curveServer(context, keys: serverKeys)
        let client = try curveClient(context, serverPublicKey: serverKeys.publicKey)
        try client.connect(server.lastEndpoint)

        #expect(try server.get(.curveServer))
        #expect(try client.get(.curveServerKey) == CurveKey(z85: serverKeys.publicKey))
        try client.send(frames("secret", "hello"))
        #expect(try server.receive() == frames("secret", "hello"))
        try server.send("secret reply")
        #expect(try client.receive() == frames("secret reply"))
    }

    @Test("a CURVE client with a wrong server key gets nothing through", .enabled(if: hasCurve))
    func wrongServerKey() throws {
        let context = try Context()
        let server = try curveServer(context, keys: try Curve.keyPair())
        let client = try curveClient(context, serverPublicKey: try Curve.keyPair().publicKey)
        try client.connect(server.lastEndpoint)

        try client.send("hello?")
        try server.set(.receiveTimeout, to: .milliseconds(300))
        try client.set(.receiveTimeout, to: .milliseconds(300))
        #expect(try server.receive() == nil)
        #expect(try client.receive() == nil)
    }

    @Test("a ZAP handler admits only the keys it allows, and names each peer's user id", .enabled(if: hasCurve))
    func zapAllowList() throws {
        let context = try Context()
        let zap = try ZapHandler(context: context)
        let serverKeys = try Curve.keyPair()
        let router = try context.testSocket(.router)
        try router.makeCurveServer(secretKey: CurveKey(z85: serverKeys.secretKey))
        try router.bind("tcp://127.0.0.1:*")
        func client() throws -> (Socket, CurveKey) {
            let pair = try Curve.keyPair()
            let dealer = try context.testSocket(.dealer)
            try dealer.makeCurveClient(
                CurveClientKeys(
                    server: CurveKey(z85: serverKeys.publicKey),
                    publicKey: CurveKey(z85: pair.publicKey),
                    secretKey: CurveKey(z85: pair.secretKey)
                )
            )
            try dealer.connect(router.lastEndpoint)
            return (dealer, try CurveKey(z85: pair.publicKey))
        }
        let (allowed, allowedKey) = try client()
        let (stranger, _) = try client()
        var asked: [ZapHandler.Request] = []
        try allowed.send("from the allowed")
        try stranger.send("from the stranger")
        var received: [(frames: [[UInt8]], property: String?)] = []
        // Time under test: two seconds in which the stranger's message must not come, the handler answering all along.
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            try zap.handlePending { request in
                asked.append(request)
                return request.curveKey == allowedKey ? "operator" : nil
            }
            if let message = try router.receive(dontWait: true, property: "User-Id") { received.append(message) }
            Thread.sleep(forTimeInterval: 0.005)  // the poll interval
        }
        #expect(received.map { $0.frames.last.map { String(decoding: $0, as: UTF8.self) } } == ["from the allowed"])
        #expect(received.first?.property == "operator")
        #expect(asked.count == 2 && asked.allSatisfy { $0.mechanism == "CURVE" && $0.curveKey != nil })
    }

    private func curveServer(_ context: Context, keys: (publicKey: String, secretKey: String)) throws -> Socket {
        let server = try context.testSocket(.rep)
        try server.set(.curveServer, to: true)
        try server.set(.curveSecretKey, to: CurveKey(z85: keys.secretKey))
        try server.bind("tcp://127.0.0.1:*")
        return server
    }

    private func curveClient(_ context: Context, serverPublicKey: String) throws -> Socket {
        let clientKeys = try Curve.keyPair()
        let client = try context.testSocket(.req)
        try client.set(.curveServerKey, to: CurveKey(z85: serverPublicKey))
        try client.set(.curvePublicKey, to: CurveKey(z85: clientKeys.publicKey))
        try client.set(.curveSecretKey, to: CurveKey(z85: clientKeys.secretKey))
        #expect(try client.get(.curvePublicKey).z85 == clientKeys.publicKey)
        return client
    }
}
