import MockDashboard
import ScenarioEngine
import TimelineView
import WireJSON
package import WireSocket

/// The dashboard's routes: the page (`/_mock/ui`, and `/` through the router), its files, the
/// `?token=` exchange for the cookie, and the fault kinds its form offers.
extension ControlAPI {
    /// The dashboard's files by name (under `/_mock/ui/`), with their content types.
    static let dashboardFiles: [String: (contentType: String, body: [UInt8])] = [
        "dashboard.js": ("text/javascript; charset=utf-8", Array(DashboardAssets.script.utf8)),
        "dashboard.css": ("text/css; charset=utf-8", Array(DashboardAssets.style.utf8)),
        "timeline.js": ("text/javascript; charset=utf-8", Array(TimelineAssets.script.utf8)),
        "timeline.css": ("text/css; charset=utf-8", Array(TimelineAssets.style.utf8)),
    ]

    private static let page = Array(DashboardAssets.page.utf8)

    /// Everything from this server, nothing from elsewhere (no CDN: the dashboard works offline).
    private static let securityHeaders = [
        (
            "Content-Security-Policy",
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-cache"),
    ]

    /// `GET /_mock/ui` and `GET /`: the page; `?token=T` with the right token sets the cookie and
    /// redirects to the same path without it. Refusals are the control API's (as a small page
    /// for a browser).
    package func dashboardPage(_ head: HTTPRequestHead) -> HTTPResponse {
        if let refusal = ControlQuery.refusal(head, route: .dashboard) { return refusal }
        if let given = head.queryItem("token") {
            guard let controlToken, ControlAccess.constantTimeEquals(given, controlToken) else {
                return Self.browserRefusal(
                    head,
                    .error(
                        401, "Unauthorized",
                        controlToken == nil
                            ? "this server has no --control-token; open the dashboard without ?token="
                            : "the token is not this server's --control-token"))
            }
            return HTTPResponse(
                status: 303, contentType: "text/plain; charset=utf-8",
                headers: [("Location", head.path), ("Set-Cookie", ControlAccess.setCookie(controlToken))],
                body: Array("See \(head.path)".utf8))
        }
        if let refusal = ControlAccess.refusal(head, token: controlToken, isHealth: false) {
            return Self.browserRefusal(head, refusal)
        }
        return HTTPResponse(
            status: 200, contentType: "text/html; charset=utf-8", headers: Self.securityHeaders, body: Self.page)
    }

    /// `GET /_mock/ui/<file>`.
    func dashboardFile(_ name: String) -> HTTPResponse {
        guard let file = Self.dashboardFiles[name] else {
            return .error(
                404, "NotFound",
                "no dashboard file \(name); there are " + Self.dashboardFiles.keys.sorted().joined(separator: ", "))
        }
        return HTTPResponse(status: 200, contentType: file.contentType, headers: Self.securityHeaders, body: file.body)
    }

    /// `GET /_mock/fault-kinds`: `{"kinds": [{"kind", "summary", "example"}]}`.
    static let faultKinds: JSONValue = [
        "kinds": .array(
            FaultSpec.KindName.allCases.map { kind in
                [
                    "kind": .string(kind.rawValue), "summary": .string(kind.summary),
                    "example": (try? JSONValue.decode(Array(kind.example.utf8))) ?? .null,
                ]
            })
    ]

    /// The refusal as is, or — for a browser (`Accept: text/html`) — as a page saying what to do.
    private static func browserRefusal(_ head: HTTPRequestHead, _ refusal: HTTPResponse) -> HTTPResponse {
        guard head.header("accept")?.contains("text/html") == true else { return refusal }
        let message = (try? JSONValue.decode(refusal.body))?["message"]?.stringValue ?? "refused"
        let how =
            refusal.status == 401
            ? "Open <code>\(head.path)?token=&lt;the --control-token value&gt;</code> once: it sets a cookie for this browser."
            : "Open it from this machine (loopback), or start mock-server with <code>--control-token</code>."
        var response = HTTPResponse(
            status: refusal.status, contentType: "text/html; charset=utf-8",
            text: """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>DialogMock dashboard</title></head>
                <body style="font-family: system-ui, sans-serif; margin: 3em"><h1>DialogMock dashboard</h1>
                <p id="refusal">\(escaped(message))</p><p>\(how)</p></body></html>
                """)
        response.headers = refusal.headers
        return response
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
