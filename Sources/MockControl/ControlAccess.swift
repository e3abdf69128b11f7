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
            return percentDecoded(String(parts[1]).trimmingSpaces)
        }
        return nil
    }

    /// `Set-Cookie` for `token`: HttpOnly (scripts never see it), SameSite=Strict (other sites'
    /// pages cannot use it), for every path of the server.
    package static func setCookie(_ token: String) -> String {
        "\(cookieName)=\(percentEncoded(token)); HttpOnly; SameSite=Strict; Path=/"
    }

    /// Bytes outside `A-Z a-z 0-9 - . _ ~` as `%XX` (a cookie value holds no `;`, `,`, space).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The inverse of ``percentEncoded(_:)``; nil for a malformed escape.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
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
