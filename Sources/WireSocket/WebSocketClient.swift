internal import CLibWebSockets
import Glibc

/// A libwebsockets client on its own service thread, hosting any number of connections.
/// Used by the project's tests, benchmarks, reference clients and the mock's proxy mode.
/// `ws://`, and `wss://` with `tls: true` (libwebsockets' OpenSSL client).
///
/// A thin handle: the state lives in a `ClientCore` that its service thread keeps alive, so the
/// handle's `deinit` (which joins that thread) never runs on the thread itself, whatever
/// releases the last reference to the connections.
package final class WebSocketClient: Sendable {
    let core: ClientCore

    /// - Parameter tls: initialise OpenSSL in this client's context, so it can open `wss://` URLs.
    package init(eventLoop: WebSocketServer.EventLoop = .poll, perMessageDeflate: Bool = false, tls: Bool = false) {
        core = ClientCore(eventLoop: eventLoop, perMessageDeflate: perMessageDeflate, tls: tls)
    }

    deinit { core.shutdown() }

    /// Closes every connection (code 1001) and stops the service thread.
    package func shutdown() { core.shutdown() }

    /// Opens `url` (`ws://host:port/path?query`) with extra handshake headers.
    /// - Throws: `WebSocketError` naming the HTTP status when the server refused the upgrade.
    package func connect(
        _ url: String, headers: [(String, String)] = [], maxMessageBytes: Int = 64 << 20,
        timeoutMillis: Int = 5000
    ) async throws(WebSocketError) -> ClientConnection {
        try await core.connect(url, headers: headers, maxMessageBytes: maxMessageBytes, timeoutMillis: timeoutMillis)
    }

    /// Opens `url` without waiting: `events` gets, on the client's service thread and in order,
    /// `.opened` or `.failed`, then the connection's messages and its close. Returns at once
    /// (lws connects without blocking; only its own service thread resolves the host).
    /// - Parameter insecureTLS: accept a self-signed or mismatched `wss://` certificate (tests).
    package func open(
        _ url: String, headers: [(String, String)] = [], maxMessageBytes: Int = 64 << 20, insecureTLS: Bool = false,
        events: @escaping @Sendable (ClientStreamEvent) -> Void
    ) {
        core.open(url, headers: headers, maxMessageBytes: maxMessageBytes, insecureTLS: insecureTLS, events: events)
    }
}

/// The client's state and lws context, owned by its service thread while that runs.
final class ClientCore: @unchecked Sendable {
    // @unchecked Sendable: `attempts` and the lws state are touched only on the service thread.

    let loop: ServiceLoop
    let table: ProtocolTable
    var attempts: [ObjectIdentifier: ConnectAttempt] = [:]
    private var started = false
    private var nextID: UInt64 = 1
    /// OpenSSL is initialised in the context: `wss://` URLs can be opened.
    let tls: Bool
    init(eventLoop: WebSocketServer.EventLoop, perMessageDeflate: Bool, tls: Bool) {
        self.tls = tls
        loop = ServiceLoop(eventLoop: eventLoop)
        table = ProtocolTable(name: "dialogmock-client", callback: clientCallback, deflate: perMessageDeflate)
        do {
            try loop.start { [self] () throws(WebSocketError) -> OpaquePointer in
                var info = lws_context_creation_info()
                info.port = CONTEXT_PORT_NO_LISTEN
                info.protocols = UnsafePointer(table.protocols)
                info.extensions = UnsafePointer(table.extensions)
                info.gid = -1
                info.uid = -1
                info.user = Unmanaged.passUnretained(self).toOpaque()
                if tls { info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) }
                try loop.prepare(&info)
                LibWebSocketsLog.install()
                let context = Self.systemCertificates.withCString { bundle -> OpaquePointer? in
                    if tls && access(bundle, R_OK) == 0 { info.client_ssl_ca_filepath = bundle }
                    return lws_create_context(&info)
                }
                guard let context else { throw WebSocketError("cannot create a client context") }
                return context
            }
        } catch {
            preconditionFailure("libwebsockets client context: \(error)")
        }
        loop.owner = self
    }

    /// Debian's bundle of the system's trusted certificates (`ca-certificates`).
    static let systemCertificates = "/etc/ssl/certs/ca-certificates.crt"

    func shutdown() {
        loop.stop { [self] in
            for attempt in attempts.values { attempt.connection?.close(code: .goingAway) }
            drain(deadline: MonotonicClock.nowMicros() + 500_000)
        }
    }

    private func drain(deadline: Int64) {
        if attempts.values.allSatisfy({ $0.connection == nil }) || MonotonicClock.nowMicros() > deadline {
            loop.finish()
        } else {
            _ = loop.schedule(atMicros: MonotonicClock.nowMicros() + 5_000) { [self] in drain(deadline: deadline) }
        }
    }

    func connect(
        _ url: String, headers: [(String, String)], maxMessageBytes: Int,
        timeoutMillis: Int
    ) async throws(WebSocketError) -> ClientConnection {
        guard let target = ClientURL(url) else { throw WebSocketError("not a ws:// or wss:// URL: \(url)") }
        let mailbox = Mailbox<ClientEvent>()
        let outcome = Mailbox<Result<ClientConnection, WebSocketError>>()
        let request = SendableBox(
            ConnectRequest(
                target: target, headers: headers, maxMessageBytes: maxMessageBytes, insecureTLS: false,
                delivery: .mailboxes(events: mailbox, outcome: outcome)))
        loop.execute { [self] in begin(request.value) }
        guard let result = await outcome.take(timeoutMillis: timeoutMillis) else {
            throw WebSocketError("connecting to \(url) timed out after \(timeoutMillis) ms")
        }
        return try result.get()
    }

    func open(
        _ url: String, headers: [(String, String)], maxMessageBytes: Int, insecureTLS: Bool,
        events: @escaping @Sendable (ClientStreamEvent) -> Void
    ) {
        guard let target = ClientURL(url) else {
            events(.failed(WebSocketError("not a ws:// or wss:// URL: \(url)"), status: nil))
            return
        }
        let request = SendableBox(
            ConnectRequest(
                target: target, headers: headers, maxMessageBytes: maxMessageBytes, insecureTLS: insecureTLS,
                delivery: .callback(events)))
        loop.execute { [self] in begin(request.value) }
    }

    private func begin(_ request: ConnectRequest) {
        guard let context = loop.context else {
            request.settle(.failure(WebSocketError("client is shut down")), status: nil)
            return
        }
        if request.target.secure && !tls {
            request.settle(.failure(WebSocketError("wss:// needs a client made with tls: true")), status: nil)
            return
        }
        let attempt = ConnectAttempt(request: request, client: self)
        attempts[ObjectIdentifier(attempt)] = attempt
        var info = lws_client_connect_info()
        info.context = context
        info.port = Int32(request.target.port)
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = Unmanaged.passUnretained(attempt).toOpaque()
        info.ssl_connection = request.target.secure ? Int32(request.tlsFlags) : 0
        let hostHeader = request.target.hostHeader
        let wsi = request.target.host.withCString { host in
            request.target.pathAndQuery.withCString { path in
                hostHeader.withCString { hostValue in
                    info.address = host
                    info.path = path
                    info.host = hostValue
                    info.origin = hostValue
                    info.protocol = nil
                    return lws_client_connect_via_info(&info)
                }
            }
        }
        if wsi == nil {
            attempts[ObjectIdentifier(attempt)] = nil
            request.settle(.failure(WebSocketError("cannot connect to \(hostHeader)")), status: nil)
        }
    }

    /// Drops the attempt; lws may still call back for this wsi (e.g. WSI_DESTROY), so the
    /// opaque pointer to the attempt is cleared first.
    func forget(_ attempt: ConnectAttempt, _ wsi: OpaquePointer) {
        lws_set_opaque_user_data(wsi, nil)
        attempts[ObjectIdentifier(attempt)] = nil
    }

    func nextConnectionID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }
}

/// Carries a value to the service thread; the value is used only there.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
