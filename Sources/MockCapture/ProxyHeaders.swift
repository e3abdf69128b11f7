/// Which of a client's upgrade headers go upstream: all of them (the API key, the DashScope
/// headers, `User-Agent`, the test id) except those each WebSocket hop sets for itself, which
/// libwebsockets' client writes anew.
package enum ProxyHeaders {
    /// Set per hop by the handshake (or meaningless on the proxy's own connection).
    package static let perHop: Set<String> = [
        "host", "origin", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version",
        "sec-websocket-extensions", "sec-websocket-accept", "sec-websocket-protocol", "content-length",
        "transfer-encoding", "keep-alive", "te", "trailer", "proxy-authorization", "proxy-connection",
        "accept-encoding",
    ]

    /// The headers to send upstream, sorted by name (the order is deterministic).
    package static func forwarded(_ headers: [String: String]) -> [(String, String)] {
        headers.filter { name, _ in
            !perHop.contains(name) && !name.isEmpty
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
