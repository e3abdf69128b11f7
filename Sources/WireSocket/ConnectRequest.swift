internal import CLibWebSockets

/// One connect: where, with what, and where its outcome and events go.
struct ConnectRequest {
    /// Where the outcome and the events go: mailboxes an async caller waits on, or a callback.
    enum Delivery {
        case mailboxes(events: Mailbox<ClientEvent>, outcome: Mailbox<Result<ClientConnection, WebSocketError>>)
        case callback(@Sendable (ClientStreamEvent) -> Void)
    }

    let target: ClientURL
    let headers: [(String, String)]
    let maxMessageBytes: Int
    let insecureTLS: Bool
    let delivery: Delivery

    /// The mailbox `ClientConnection.next` reads (unused with a callback).
    var mailbox: Mailbox<ClientEvent> {
        if case .mailboxes(let events, _) = delivery { return events }
        return Mailbox()
    }

    /// `lws_client_connect_info.ssl_connection` for a `wss://` target.
    var tlsFlags: UInt32 {
        var flags = LCCSCF_USE_SSL.rawValue
        if insecureTLS {
            flags |=
                LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue
                | LCCSCF_ALLOW_EXPIRED.rawValue | LCCSCF_ALLOW_INSECURE.rawValue
        }
        return flags
    }

    /// The connect's outcome; `status` is the HTTP status of a refused upgrade.
    func settle(_ result: Result<ClientConnection, WebSocketError>, status: Int?) {
        switch delivery {
        case .mailboxes(_, let outcome): outcome.put(result)
        case .callback(let events):
            switch result {
            case .success(let connection): events(.opened(connection))
            case .failure(let error): events(.failed(error, status: status))
            }
        }
    }

    /// A message or the close of the open connection.
    func deliver(_ event: ClientEvent) {
        switch delivery {
        case .mailboxes(let events, _): events.put(event)
        case .callback(let events): events(.event(event))
        }
    }
}

/// `ws://host:port/path?query` or `wss://…`, split.
struct ClientURL {
    let secure: Bool
    let host: String
    let port: Int
    let pathAndQuery: String

    init?(_ url: String) {
        if url.hasPrefix("ws://") {
            secure = false
        } else if url.hasPrefix("wss://") {
            secure = true
        } else {
            return nil
        }
        let rest = url.dropFirst(secure ? 6 : 5)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        let parts = authority.split(separator: ":", maxSplits: 1)
        guard let hostPart = parts.first, !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
            self.port = port
        } else {
            port = secure ? 443 : 80
        }
        pathAndQuery = path
    }

    /// The `Host` header: the port only when it is not the scheme's default.
    var hostHeader: String { port == (secure ? 443 : 80) ? host : "\(host):\(port)" }
}
