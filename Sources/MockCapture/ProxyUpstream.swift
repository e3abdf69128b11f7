import SessionCore

/// `--proxy-upstream`: the service a proxying mock forwards its protocol routes to.
package struct ProxyUpstream: Sendable, Equatable {
    /// `ws://HOST:PORT` or `wss://HOST:PORT`, without a path.
    package let origin: String
    /// Accept a self-signed or mismatched upstream certificate (`--proxy-upstream-insecure`; tests only).
    package var insecureTLS: Bool

    /// Whether the upstream is reached through TLS (`wss://`).
    package var secure: Bool { origin.hasPrefix("wss://") }

    /// A bad `--proxy-upstream` value; `description` says what was expected.
    package struct ParseError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Parses `wss://HOST[:PORT]` or `ws://HOST[:PORT]` (a trailing `/` is allowed; no path,
    /// query, user or IPv6 literal).
    package init(parsing text: String, insecureTLS: Bool = false) throws(ParseError) {
        let expected = "expected wss://HOST[:PORT] or ws://HOST[:PORT], got '\(text)'"
        let scheme: String
        if text.hasPrefix("wss://") {
            scheme = "wss"
        } else if text.hasPrefix("ws://") {
            scheme = "ws"
        } else {
            throw ParseError(description: expected)
        }
        var authority = text.dropFirst(scheme.count + 3)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts[0]
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else { throw ParseError(description: expected) }
        var port = scheme == "wss" ? 443 : 80
        if parts.count == 2 {
            guard let given = Int(parts[1]), (1...65535).contains(given) else {
                throw ParseError(description: "expected a port from 1 to 65535 in '\(text)'")
            }
            port = given
        }
        origin = "\(scheme)://\(host):\(port)"
        self.insecureTLS = insecureTLS
    }

    /// The upstream URL of a client's request: the same path and query on the upstream origin.
    package func url(path: String, queryItems: [(name: String, value: String)]) -> String {
        guard !queryItems.isEmpty else { return origin + path }
        let query = queryItems.map { $0.name.percentEncoded + "=" + $0.value.percentEncoded }
        return origin + path + "?" + query.joined(separator: "&")
    }
}
