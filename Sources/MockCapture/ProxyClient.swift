package import WireSocket

/// The upstream end of proxy mode: one libwebsockets client (its own service thread, TLS when
/// the upstream is `wss://`) that every proxied session opens its upstream connection on.
package final class ProxyClient: Sendable {
    package let upstream: ProxyUpstream
    package let client: WebSocketClient

    package init(upstream: ProxyUpstream, eventLoop: WebSocketServer.EventLoop) {
        self.upstream = upstream
        client = WebSocketClient(eventLoop: eventLoop, tls: upstream.secure)
    }
}
