package import WireJSON
package import WireSocket

/// The JSON responses of the control API and of the router's refusals.
extension HTTPResponse {
    /// A JSON response from a value.
    package static func json(status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: value.encoded())
    }

    /// 426 for a plain request on a WebSocket route (RFC 9110 §15.5.22): say how to talk to it.
    package static func upgradeRequired(_ path: String) -> HTTPResponse {
        var response = HTTPResponse.json(status: 426, upgradeRequiredBody(path))
        response.headers.append(("Upgrade", "websocket"))
        response.headers.append(("Connection", "Upgrade"))
        return response
    }

    /// The JSON body of ``upgradeRequired(_:)``.
    package static func upgradeRequiredBody(_ path: String) -> JSONValue {
        errorBody(
            "UpgradeRequired",
            "\(path) is a WebSocket route: open it with a WebSocket upgrade (GET with Upgrade: websocket)")
    }

    /// A JSON error response: ``errorBody(_:_:)`` with `status`.
    package static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        .json(status: status, errorBody(code, message))
    }

    /// The JSON error body `{"code", "message"}`.
    package static func errorBody(_ code: String, _ message: String) -> JSONValue {
        ["code": .string(code), "message": .string(message)]
    }
}
