import ArgumentParser
import ContainmentHost
import ContainmentConfig
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ZeroMQ

/// `containment-web inspector`: a web page of the running tree, live — an ordinary client of the protocol (a snapshot,
/// then the events), so it runs on any machine that reaches the bus, with CURVE keys where the runtime has them.
struct InspectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspector",
        abstract: "Serve a live web page of the tree: controllers, windows drawn to scale, events and hosts."
    )

    @Option(help: "The TCP port to serve the page on.")
    var port: Int = 8080

    @Option(help: "The address to listen on (0.0.0.0: every interface).")
    var bind: String = "127.0.0.1"

    @Option(help: "Write the process id here once serving; removed on exit.")
    var pidFile: String?

    @OptionGroup var runtime: RuntimeOptions

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
    }

    func run() async throws {
        let config = try runtime.load()
        let keys = try runtime.clientKeys(of: config)
        var logger = Logger(label: "containment.inspector")
        logger.logLevel = .warning
        let hub = InspectorHub()
        let (updates, continuation) = AsyncStream.makeStream(of: InspectorUpdate.self)
        let feed = InspectorFeed(config: config, keys: keys, updates: continuation)
        feed.start()
        defer { feed.stop() }
        let pump = Task {
            for await update in updates { await hub.apply(update) }
        }
        defer { pump.cancel() }

        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorPage.html))
            )
        }
        router.get("state") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: await hub.state))
            )
        }
        router.get("inspect/:controller") { _, context in
            let controller = context.parameters.get("controller") ?? ""
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: await feed.inspect(controller)))
            )
        }
        router.get("events") { _, _ in
            let stream = await hub.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    for await message in stream { try await writer.write(ByteBuffer(string: message)) }
                    try await writer.finish(nil)
                }
            )
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(bind, port: port)),
            onServerRunning: { [pidFile] _ in
                if let pidFile {
                    try? "\(ProcessInfo.processInfo.processIdentifier)\n".write(
                        toFile: pidFile,
                        atomically: true,
                        encoding: .utf8
                    )
                }
                // Unbuffered, so a script waiting for it sees it at once.
                FileHandle.standardOutput.write(
                    Data("inspector: http://\(bind):\(port)/  (bus: \(config.commandEndpoint))\n".utf8)
                )
            },
            logger: logger
        )
        let keepAlive = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                await hub.keepAlive()
            }
        }
        defer { keepAlive.cancel() }
        // Last, so it hears of the shutdown first (a group tells its services in reverse order): the pages' streams
        // end before the server waits for its open responses.
        let closer = InspectorCloser(hub: hub, feed: feed)
        let group = ServiceGroup(
            configuration: .init(
                services: [app, closer],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        defer { if let pidFile { try? FileManager.default.removeItem(atPath: pidFile) } }
        try await group.run()
    }
}

/// Ends the pages' event streams and the bus feed when the inspector is asked to stop.
struct InspectorCloser: Service {
    let hub: InspectorHub
    let feed: InspectorFeed

    func run() async throws {
        try? await gracefulShutdown()
        feed.stop()
        await hub.close()
    }
}
