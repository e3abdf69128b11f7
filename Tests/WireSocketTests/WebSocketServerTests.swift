import Synchronization
import Testing
import WireSocket

@Suite("WebSocketServer over loopback")
struct WebSocketServerTests {
    private func withServer(cap: Int? = nil, eventLoop: WebSocketServer.EventLoop = .poll,
                            _ body: (WebSocketServer, EchoDelegate, WebSocketClient) async throws -> Void) async throws {
        let delegate = EchoDelegate(cap: cap)
        var configuration = WebSocketServer.Configuration()
        configuration.eventLoop = eventLoop
        let server = WebSocketServer(configuration: configuration, delegate: delegate)
        let port = try server.start()
        #expect(port > 0)
        let client = WebSocketClient()
        try await body(server, delegate, client)
        client.shutdown()
        server.stop()
    }

    @Test(arguments: WebSocketServer.EventLoop.allCases)
    func echoesTextAndBinary(eventLoop: WebSocketServer.EventLoop) async throws {
        try await withServer(eventLoop: eventLoop) { server, delegate, client in
            let connection = try await client.connect("ws://127.0.0.1:\(server.port)/echo?model=qwen&x=%41",
                                                      headers: [("Authorization", "Bearer sk-test"), ("X-Test-Id", "t1")])
            connection.send(text: "héllo")
            #expect(await connection.nextMessage() == .text("héllo"))
            connection.send(.binary([0, 1, 2, 255]))
            #expect(await connection.nextMessage() == .binary([0, 1, 2, 255]))
            let upgrade = delegate.events.withLock { $0.first { $0.hasPrefix("upgrade") } }
            #expect(upgrade == "upgrade /echo?model=qwen&x=A auth=Bearer sk-test test=t1")
        }
    }
}
