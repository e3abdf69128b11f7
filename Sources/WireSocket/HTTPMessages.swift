/// The head of an HTTP request as the server saw it: method, path, raw query, headers.
public struct HTTPRequestHead: Sendable {
    public let method: String
    public let path: String
    /// The raw query string without `?` (`model=qwen&x=1`), or empty.
    public let query: String
    /// Header names lower-cased, without the trailing colon.
    public let headers: [String: String]
    /// The peer's address as text.
    public let peer: String

    public init(method: String, path: String, query: String, headers: [String: String], peer: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.peer = peer
    }

    /// The percent-decoded value of a query parameter, if present.
    public func queryItem(_ name: String) -> String? {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if percentDecoded(String(parts[0])) == name {
                return parts.count > 1 ? percentDecoded(String(parts[1])) : ""
            }
        }
        return nil
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

    public init(status: Int, contentType: String = "application/json", headers: [(String, String)] = [], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String = "application/json", text: String) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8))
    }
}

/// Decodes `%XX` escapes and `+` as space; invalid escapes are kept as written.
func percentDecoded(_ text: String) -> String {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
        if byte == UInt8(ascii: "+") {
            bytes.append(UInt8(ascii: " "))
        } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
            let high = hexValue(iterator[iterator.startIndex]),
            let low = hexValue(iterator[iterator.startIndex + 1])
        {
            bytes.append(high << 4 | low)
            iterator = iterator.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
