import SessionCore
package import WireSocket

/// Who may use the control API (`/_mock/…`): with `--control-token T`, only requests that carry
/// `Authorization: Bearer T` or the dashboard's cookie holding T (from any host; a browser gets
/// the cookie from `/_mock/ui?token=T`); without one, only requests from loopback. `GET
/// /_mock/health` answers everyone (container and orchestrator probes), and says nothing
/// about sessions.
package enum ControlAccess {
    /// The cookie the dashboard's `?token=` sets: the token, percent-encoded.
    package static let cookieName = "dialogmock_control"

    /// The refusal for `head`, or nil when it may proceed.
    package static func refusal(_ head: HTTPRequestHead, token: String?, isHealth: Bool) -> HTTPResponse? {
        if isHealth && head.method == "GET" { return nil }
        if let token {
            let presented = bearer(head.headers["authorization"]) ?? cookie(head.headers["cookie"])
            guard let presented, constantTimeEquals(presented, token) else {
                var response = HTTPResponse.error(
                    401, "Unauthorized", "the control API needs Authorization: Bearer <the --control-token value>")
                response.headers.append(("WWW-Authenticate", "Bearer realm=\"dialogmock control\""))
                return response
            }
            return nil
        }
        guard isLoopback(head.peer) else {
            return .error(
                403, "Forbidden",
                "the control API answers only on loopback; start mock-server with --control-token to open it to other hosts"
            )
        }
        return nil
    }

    /// Whether `peer` (a numeric address as libwebsockets gives it) is a loopback address:
    /// 127.0.0.0/8, ::1, or IPv4-mapped 127.x. An empty peer (an in-process request) counts.
    package static func isLoopback(_ peer: String) -> Bool {
        let address = peer.lowercased()
        return address.isEmpty || address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    private static func bearer(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingSpaces
    }

    /// The token in the dashboard's cookie, if the `Cookie` header carries it.
    private static func cookie(_ header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, String(parts[0]).trimmingSpaces == cookieName else { continue }
            return String(parts[1]).trimmingSpaces.percentDecoded
        }
        return nil
    }

    /// `Set-Cookie` for `token`: HttpOnly (scripts never see it), SameSite=Strict (other sites'
    /// pages cannot use it), for every path of the server.
    package static func setCookie(_ token: String) -> String {
        "\(cookieName)=\(token.percentEncoded); HttpOnly; SameSite=Strict; Path=/"
    }

    /// Compares without an early exit on the first differing byte (no timing oracle).
    package static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
