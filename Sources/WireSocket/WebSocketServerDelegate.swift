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
}

/// Receives one connection's events, on the service thread, in order.
package protocol ConnectionHandler: AnyObject {
    func connectionOpened(_ connection: Connection)
    func connection(_ connection: Connection, received message: WebSocketMessage)
    /// The connection is gone. `peerCode` is the code of the peer's close frame, if it sent one.
    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String)
}
