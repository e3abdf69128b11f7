internal import CLibWebSockets

/// What a client connection observes.
package enum ClientEvent: Sendable, Equatable {
    case message(WebSocketMessage)
    /// The connection ended; `code` is the server's close code (nil when it sent no close frame).
    case closed(code: CloseCode?, reason: String)
}

/// What a connection opened with ``WebSocketClient/open(_:headers:maxMessageBytes:insecureTLS:events:)``
/// reports, on the client's service thread, in order.
package enum ClientStreamEvent: Sendable {
    /// The upgrade succeeded.
    case opened(ClientConnection)
    /// The connect or the upgrade failed; `status` is the HTTP status of a refused upgrade.
    case failed(WebSocketError, status: Int?)
    /// A message, or (last) the close.
    case event(ClientEvent)
}

/// One client connection. Safe to use from any thread: operations are forwarded to the
/// client's service thread.
package final class ClientConnection: Sendable {
    private let client: ClientCore
    private let connection: SendableBox<Connection>
    private let mailbox: Mailbox<ClientEvent>

    init(client: ClientCore, connection: Connection, mailbox: Mailbox<ClientEvent>) {
        self.client = client
        self.connection = SendableBox(connection)
        self.mailbox = mailbox
    }

    package func send(_ message: WebSocketMessage) {
        client.loop.execute { [connection] in connection.value.send(message) }
    }

    package func send(text: String) { send(.text(Array(text.utf8))) }

    /// Sends one message as the given fragments (continuation frames after the first).
    package func sendFragments(_ fragments: [[UInt8]], binary: Bool) {
        client.loop.execute { [connection] in connection.value.sendFragments(fragments, binary: binary) }
    }

    package func close(code: CloseCode = .normal, reason: String = "") {
        client.loop.execute { [connection] in connection.value.close(code: code, reason: reason) }
    }

    /// Closes after the queued messages; cuts the connection if it has not ended
    /// `abortAfterMillis` later (a server that does not read, or never answers the close).
    package func close(code: CloseCode, reason: String, abortAfterMillis: Int) {
        client.loop.execute { [connection] in
            connection.value.close(code: code, reason: reason, abortAfterMicros: Int64(abortAfterMillis) * 1000)
        }
    }

    /// Drops the TCP connection without a close frame.
    package func abort() {
        client.loop.execute { [connection] in connection.value.abort() }
    }

    /// The next event, or nil if none arrives within `timeoutMillis`.
    package func next(timeoutMillis: Int = 5000) async -> ClientEvent? {
        await mailbox.take(timeoutMillis: timeoutMillis)
    }

    /// The next message, skipping nothing; nil on timeout or when the connection closed.
    package func nextMessage(timeoutMillis: Int = 5000) async -> WebSocketMessage? {
        if case .message(let message) = await next(timeoutMillis: timeoutMillis) { return message }
        return nil
    }

    /// Events already received, without waiting.
    package func drainEvents() -> [ClientEvent] { mailbox.drain() }
}

/// Service-thread state of one connect: the request, then the connection once established.
final class ConnectAttempt: ConnectionHandler {
    let request: ConnectRequest
    unowned let client: ClientCore
    var connection: Connection?
    var settled = false

    init(request: ConnectRequest, client: ClientCore) {
        self.request = request
        self.client = client
    }

    func connectionOpened(_ connection: Connection) {}

    func connection(_ connection: Connection, received message: WebSocketMessage) {
        request.deliver(.message(message))
    }

    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {
        request.deliver(.closed(code: peerCode, reason: peerReason))
    }
}

func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let client = Unmanaged<ClientCore>.fromOpaque(owner).takeUnretainedValue()
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
        client.loop.drainInbox()
        return 0
    }
    guard let opaque = lws_get_opaque_user_data(wsi) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let attempt = Unmanaged<ConnectAttempt>.fromOpaque(opaque).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        guard let input else { return 0 }
        let cursor = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = cursor.pointee else { return 0 }
        let end = start + length
        for (name, value) in attempt.request.headers {
            let key = name.lowercased() + ":"
            if lws_add_http_header_by_name(wsi, key, value, Int32(value.utf8.count), cursor, end) != 0 { return -1 }
        }
        return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        let head = HTTPRequestHead(method: "GET", path: attempt.request.target.pathAndQuery, headers: [:])
        let connection = Connection(
            id: client.nextConnectionID(), request: head, handler: attempt,
            maxMessageBytes: attempt.request.maxMessageBytes, loop: client.loop, wsi: wsi)
        connection.writesAtOnce = !client.table.offersDeflate
        attempt.connection = connection
        attempt.settled = true
        attempt.request.settle(
            .success(ClientConnection(client: client, connection: connection, mailbox: attempt.request.mailbox)),
            status: nil)
        return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let text = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
        let status = lws_http_client_http_response(wsi)
        if !attempt.settled {
            attempt.settled = true
            let detail = status > 0 ? "HTTP \(status): \(text)" : text
            attempt.request.settle(.failure(WebSocketError(detail)), status: status > 0 ? Int(status) : nil)
        }
        client.forget(attempt, wsi)
        return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return attempt.connection?.receive(input, length) ?? -1
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return attempt.connection?.writeNext() ?? 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        return attempt.connection?.notePeerClose(input, length) ?? 0
    case LWS_CALLBACK_CLIENT_CLOSED:
        if let connection = attempt.connection {
            connection.markClosed()
            attempt.connection = nil
            attempt.connectionClosed(
                connection, peerCode: connection.peerCloseCode, peerReason: connection.peerCloseReason)
        }
        client.forget(attempt, wsi)
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
