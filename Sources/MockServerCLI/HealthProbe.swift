import Glibc

/// `mock-server --health-check [HOST:]PORT`: asks a running server's `GET /_mock/health` and
/// exits 0 when it answers 200 with `"status":"ok"`, 1 otherwise (a container's HEALTHCHECK; the
/// images have no curl, and the from-scratch root filesystem no shell).
enum HealthProbe {
    /// Seconds to connect, and to get the whole answer.
    static let timeoutSeconds = 3

    /// `PORT` (on 127.0.0.1) or `HOST:PORT` (an IPv4 address or a name), checked; nil when invalid.
    static func target(_ text: String) -> (host: String, port: UInt16)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let port = UInt16(parts.last ?? ""), port > 0 else { return nil }
        let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        guard !host.isEmpty else { return nil }
        return (host, port)
    }

    /// Why the server at `host:port` is not healthy, or nil when it is (its answer goes to `body`).
    static func problem(host: String, port: UInt16, body: inout String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            return "cannot resolve \(host)"
        }
        defer { freeaddrinfo(found) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "socket: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        // On Linux the send timeout bounds connect() too.
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            return "cannot connect: \(String(cString: strerror(errno)))"
        }
        let request = Array(
            "GET /_mock/health HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return "cannot send the request: \(String(cString: strerror(errno)))" }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while response.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { return "no answer within \(timeoutSeconds) s" }
            if count == 0 { break }
            response += buffer[0..<count]
        }
        let headEnd = (0..<max(0, response.count - 3)).first { index in
            response[index..<index + 4].elementsEqual([13, 10, 13, 10])
        }
        let statusLine = String(decoding: response.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        guard statusLine.split(separator: " ").dropFirst().first == "200" else {
            return statusLine.isEmpty ? "no HTTP answer" : "answered \(statusLine)"
        }
        body = headEnd.map { String(decoding: response[($0 + 4)...], as: UTF8.self) } ?? ""
        guard body.contains(#""status":"ok""#) else { return "answered 200 without \"status\":\"ok\": \(body)" }
        return nil
    }
}
