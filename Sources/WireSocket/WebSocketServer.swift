internal import CLibWebSockets
import Dispatch
import Glibc
import Synchronization

/// A libwebsockets server on one dedicated service thread.
///
/// Every lws call, every `Connection`, every delegate and handler callback and every timer runs
/// on that thread. Other threads reach it only through `execute(_:)`, which queues a closure and
/// wakes the loop with `lws_cancel_service` (the one lws call documented as thread-safe).
package final class WebSocketServer: @unchecked Sendable {
    // @unchecked Sendable: all mutable state below `// MARK: service thread` is confined to the
    // service thread; `inbox` and `stopRequested` are the only cross-thread state and are locked.

    package enum EventLoop: String, Sendable, CaseIterable {
        /// lws' own poll() loop: best timer precision; each wake-up scans every descriptor.
        case poll
        /// libuv through the lws plugin: epoll, scales to thousands of idle connections.
        case libuv
        /// libev (epoll) through the lws plugin, on a loop each service thread owns: no scan of
        /// every descriptor per wake-up and microsecond timers.
        case libev

        /// The lws event-library plugin this loop needs (`ev` for libev-dev's evlib_ev), nil for poll.
        private var pluginSuffix: String? {
            switch self {
            case .poll: nil
            case .libuv: "uv"
            case .libev: "ev"
            }
        }

        /// The Debian package with the lws plugin this loop needs (lws loads it at run time).
        package var pluginPackage: String? { pluginSuffix.map { "libwebsockets-evlib-\($0)" } }

        /// The plugin file lws loads for this loop: lws looks only in the library folder it was
        /// built for (`LWS_INSTALL_LIBDIR`).
        package var pluginPath: String? { pluginSuffix.map { LWS_INSTALL_LIBDIR + "/libwebsockets-evlib_\($0).so" } }

        /// Whether lws can run this loop here (its plugin file is readable).
        package var isAvailable: Bool {
            guard let pluginPath else { return true }
            return access(pluginPath, R_OK) == 0
        }
    }

    package struct Configuration: Sendable {
        package var host: String = "127.0.0.1"
        package var port: UInt16 = 0
        package var eventLoop: EventLoop = .poll
        /// Default cap on one reassembled message; routes may set their own.
        package var maxMessageBytes: Int = 64 << 20
        package var maxHTTPBodyBytes: Int = 16 << 20
        /// Seconds a connection may take to finish its HTTP request / WebSocket upgrade (and a
        /// peer to answer a close) before lws drops it: slow or silent openers hold no slot.
        package var handshakeTimeoutSeconds: Int32 = 10
        /// Offer and accept permessage-deflate (RFC 7692); not on the libuv loop (see `init`).
        package var perMessageDeflate: Bool = true
        /// False: the server does not listen itself; a `SharedListener` hands it connections
        /// (several servers, one per service thread, on one port).
        package var ownsListener: Bool = true
        /// Header names (lower-case) beyond the standard ones to copy into `HTTPRequestHead.headers`.
        package var extraHeaderNames: [String] = [
            "x-dashscope-workspace", "x-dashscope-datainspection", "x-dashscope-sdk-client",
            "x-dashscope-sdk-session-id", "x-test-id", "openai-beta", "x-request-id",
        ]
        package init() {}
    }

    package let configuration: Configuration
    /// The bound port (meaningful after `start()`).
    package private(set) var port: UInt16 = 0
    let loop: ServiceLoop

    // MARK: service thread
    let delegate: any WebSocketServerDelegate
    var connections: [OpaquePointer: Connection] = [:]
    var pendingUpgrades: [OpaquePointer: (any ConnectionHandler, Int, HTTPRequestHead)] = [:]
    var httpExchanges: [OpaquePointer: HTTPExchange] = [:]
    var nextConnectionID: UInt64 = 1
    var draining = false
    let table: ProtocolTable

    package init(configuration: Configuration = Configuration(), delegate: any WebSocketServerDelegate) {
        self.configuration = configuration
        self.delegate = delegate
        loop = ServiceLoop(eventLoop: configuration.eventLoop)
        // No permessage-deflate on the libuv loop: with it, lws 4.1.6 stops servicing a
        // connection whose compressed message inflates across several receive calls (Autobahn
        // 12.1.5 hangs). The libev glue services those (its idle watcher forces service).
        table = ProtocolTable(
            name: "dialogmock", callback: serverCallback,
            deflate: configuration.perMessageDeflate && configuration.eventLoop != .libuv)
    }

    // MARK: - Lifecycle (any thread)

    /// Creates the context, binds (unless a `SharedListener` feeds it), starts the service
    /// thread. Returns the bound port (0 without a listener of its own).
    @discardableResult
    package func start() throws(WebSocketError) -> UInt16 {
        var bound: UInt16 = 0
        try loop.start { [self] () throws(WebSocketError) -> OpaquePointer in
            let context = try createContext(port: configuration.port)
            bound =
                configuration.ownsListener
                ? UInt16(truncatingIfNeeded: lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default"))) : 0
            return context
        }
        port = bound
        loop.onFinished = { [self] in connections.removeAll() }
        return bound
    }

    /// Stops accepting, closes every connection with `closeCode`, waits up to `drainMillis` for the
    /// peers' close handshakes, destroys the context and joins the service thread.
    package func stop(closeCode: CloseCode = .goingAway, drainMillis: Int = 1000) {
        loop.stop { [self] in beginDrain(closeCode: closeCode, drainMillis: drainMillis) }
    }

    /// Runs `work` on the service thread, soon. Safe from any thread.
    package func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

    /// Takes over an accepted TCP connection (from a `SharedListener`): on the service thread,
    /// lws serves it as if its own listener had accepted it. Safe from any thread; closes the
    /// descriptor when the server is stopping or lws refuses it.
    package func adopt(socket fd: Int32) {
        loop.execute { [self] in
            guard !draining, let context = loop.context, let vhost = lws_get_vhost_by_name(context, "default"),
                lws_adopt_socket_vhost(vhost, fd) != nil
            else {
                close(fd)
                return
            }
        }
    }

    /// True when called on the service thread.
    package var isOnServiceThread: Bool { loop.isOnServiceThread }

    /// The service thread, for other threads to run work on.
    package var serviceThread: ServiceThreadExecutor { ServiceThreadExecutor(loop: loop) }

    /// The service thread's name (unique in the process).
    package var serviceThreadName: String { loop.threadName }

    /// The open connections (service thread only).
    package var openConnections: [Connection] {
        loop.assertServiceThread()
        return connections.values.sorted { $0.id < $1.id }
    }

    /// Runs `action` on the service thread at monotonic time `atMicros` (service thread only).
    @discardableResult
    package func schedule(atMicros due: Int64, _ action: @escaping () -> Void) -> TimerID {
        loop.schedule(atMicros: due, action)
    }

    @discardableResult
    package func schedule(afterMicros delay: Int64, _ action: @escaping () -> Void) -> TimerID {
        loop.schedule(atMicros: MonotonicClock.nowMicros() + max(0, delay), action)
    }

    package func cancelTimer(_ id: TimerID) { loop.cancelTimer(id) }

    private func createContext(port: UInt16) throws(WebSocketError) -> OpaquePointer {
        LibWebSocketsLog.install()
        var info = lws_context_creation_info()
        info.port = configuration.ownsListener ? Int32(port) : -2  // CONTEXT_PORT_NO_LISTEN_SERVER
        info.protocols = UnsafePointer(table.protocols)
        info.extensions = UnsafePointer(table.extensions)
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.max_http_header_data = 8192
        // lws reads a socket into one per-thread buffer of this size (default 4096): a 4.4 KB
        // audio event would take two reads and two RECEIVE callbacks.
        info.pt_serv_buf_size = 65536
        // Pending states (upgrade, close) and a connection holding a header table without
        // finishing its request (lws' default for the latter is 10 s) share the handshake timeout.
        info.timeout_secs = UInt32(max(1, configuration.handshakeTimeoutSeconds))
        info.timeout_secs_ah_idle = UInt32(max(1, configuration.handshakeTimeoutSeconds))
        // UTF-8 of text messages is checked by `Connection` (word at a time); lws' check went a
        // byte at a time and was 4 % of the server's CPU at 200 Qwen sessions.
        var options: UInt64 = 0
        if !configuration.host.contains(":") { options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        info.options = options
        try loop.prepare(&info)
        let context = configuration.host.withCString { host -> OpaquePointer? in
            info.iface = host
            return lws_create_context(&info)
        }
        guard let context else {
            if let plugin = configuration.eventLoop.pluginPackage {
                guard configuration.ownsListener else {
                    throw WebSocketError(
                        "cannot start the \(configuration.eventLoop.rawValue) event loop (is \(plugin) installed?)")
                }
                throw WebSocketError(
                    "cannot listen on \(configuration.host):\(port) (address in use, or not available), or cannot start the \(configuration.eventLoop.rawValue) event loop (is \(plugin) installed?)"
                )
            }
            throw WebSocketError("cannot listen on \(configuration.host):\(port) (address in use, or not available)")
        }
        return context
    }

    private func beginDrain(closeCode: CloseCode, drainMillis: Int) {
        draining = true
        for connection in connections.values { connection.close(code: closeCode, reason: "server shutting down") }
        let deadline = MonotonicClock.nowMicros() + Int64(drainMillis) * 1000
        checkDrained(deadline: deadline)
    }

    private func checkDrained(deadline: Int64) {
        if connections.isEmpty || MonotonicClock.nowMicros() >= deadline {
            loop.finish()
        } else {
            schedule(afterMicros: 5_000) { [self] in checkDrained(deadline: deadline) }
        }
    }

}
