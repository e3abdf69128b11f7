/// What the server does with an upgrade request.
package enum UpgradeDecision {
    /// Accept; the handler receives the connection's events on the service thread.
    /// `maxMessageBytes` caps one reassembled message (larger → close 1009).
    case accept(any ConnectionHandler, maxMessageBytes: Int? = nil)
    /// Refuse the upgrade with this HTTP response (e.g. 401 with a JSON body).
    case reject(HTTPResponse)
}

/// Routes requests. Every method runs on the server's service thread.
package protocol WebSocketServerDelegate: AnyObject {
    /// A WebSocket upgrade request arrived.
    func upgrade(_ request: HTTPRequestHead) -> UpgradeDecision
    /// A plain HTTP request arrived (body complete).
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// A plain HTTP request arrived (body complete): answer it through `reply`, now or later
    /// from any thread (work too heavy for the service thread goes elsewhere first). The
    /// default answers with ``respond(to:)`` at once.
    func respond(to request: HTTPRequest, reply: HTTPReply)
}

extension WebSocketServerDelegate {
    package func respond(to request: HTTPRequest, reply: HTTPReply) { reply(respond(to: request)) }
}

/// Answers one HTTP request, once, from any thread: on the service thread the response is
/// written at once, from another it is handed to the service thread. A reply whose client has
/// gone meanwhile is dropped.
package struct HTTPReply: Sendable {
    private let send: @Sendable (HTTPResponse) -> Void

    init(_ send: @escaping @Sendable (HTTPResponse) -> Void) { self.send = send }

    package func callAsFunction(_ response: HTTPResponse) { send(response) }
}

/// Receives one connection's events, on the service thread, in order.
package protocol ConnectionHandler: AnyObject {
    func connectionOpened(_ connection: Connection)
    func connection(_ connection: Connection, received message: WebSocketMessage)
    /// The connection is gone. `peerCode` is the code of the peer's close frame, if it sent one.
    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String)
}
