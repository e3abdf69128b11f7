/// The head of an HTTP request as the server saw it: method, path, raw query, headers.
public struct HTTPRequestHead: Sendable {
    public let method: String
    public let path: String
    /// The query string as received, its parameters joined by `&` (lws has percent-decoded
    /// each parameter already).
    public var query: String {
        queryItems.map { $0.value.isEmpty && !$0.hadEquals ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
    /// The decoded query parameters in order.
    public let queryItems: [QueryItem]
    /// Header names lower-cased, without the trailing colon.
    public let headers: [String: String]
    /// The peer's address as text.
    public let peer: String
    /// The service thread the request (and, once upgraded, its connection) lives on; nil for
    /// heads made by hand.
    public internal(set) var serviceThread: ServiceThreadExecutor?

    public struct QueryItem: Sendable, Equatable {
        public let name: String
        public let value: String
        let hadEquals: Bool
        public init(name: String, value: String) {
            self.name = name
            self.value = value
            hadEquals = true
        }
        /// Splits `name=value` at the first `=`.
        public init(parsing fragment: String) {
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

    public init(
        method: String, path: String, queryItems: [QueryItem] = [], headers: [String: String], peer: String = ""
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.peer = peer
    }

    /// The value of the first query parameter called `name`, if present.
    public func queryItem(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A complete HTTP request: head and body.
public struct HTTPRequest: Sendable {
    public let head: HTTPRequestHead
    public let body: [UInt8]
    public init(head: HTTPRequestHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }
}

/// An HTTP response the server writes in full.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String = "application/json", headers: [(String, String)] = [], body: [UInt8])
    {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String = "application/json", text: String) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8))
    }
}
