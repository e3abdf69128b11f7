import WireSocket

/// `/_mock/echo`: every text and binary message comes back verbatim, for WebSocket-layer
/// conformance tools (Autobahn|Testsuite's fuzzingclient).
final class EchoHandler: ConnectionHandler {
    func connectionOpened(_ connection: Connection) {}

    func connection(_ connection: Connection, received message: WebSocketMessage) {
        connection.send(message)
    }

    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {}
}
