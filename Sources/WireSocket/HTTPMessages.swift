/// The head of an HTTP request as the server saw it: method, path, raw query, headers.
package struct HTTPRequestHead: Sendable {
    package let method: String
    package let path: String
    /// The query string as received, its parameters joined by `&` (lws has percent-decoded
    /// each parameter already).
    package var query: String {
        queryItems.map { $0.value.isEmpty && !$0.hadEquals ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
    /// The decoded query parameters in order.
    package let queryItems: [QueryItem]
    /// Header names lower-cased, without the trailing colon.
    package let headers: [String: String]
    /// The peer's address as text.
    package let peer: String
    /// The service thread the request (and, once upgraded, its connection) lives on; nil for
    /// heads made by hand.
    package internal(set) var serviceThread: ServiceThreadExecutor?

    package struct QueryItem: Sendable, Equatable {
        package let name: String
        package let value: String
        let hadEquals: Bool
        package init(name: String, value: String) {
            self.name = name
            self.value = value
            hadEquals = true
        }
        /// Splits `name=value` at the first `=`.
        package init(parsing fragment: String) {
            if let equals = fragment.firstIndex(of: "=") {
                name = String(fragment[..<equals])
                value = String(fragment[fragment.index(after: equals)...])
                hadEquals = true
            } else {
                name = fragment
                value = ""
                hadEquals = false
            }
        }
    }

    package init(
        method: String, path: String, queryItems: [QueryItem] = [], headers: [String: String], peer: String = ""
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.peer = peer
    }

    /// The value of the first query parameter called `name`, if present.
    package func queryItem(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A complete HTTP request: head and body.
package struct HTTPRequest: Sendable {
    package let head: HTTPRequestHead
    package let body: [UInt8]
    package init(head: HTTPRequestHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }
}

/// An HTTP response the server writes in full.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, contentType: String = "application/json", headers: [(String, String)] = [], body: [UInt8])
    {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    package init(status: Int, contentType: String = "application/json", text: String) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8))
    }
}
