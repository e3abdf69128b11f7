import Glibc
import WireSocket

/// One blocking HTTP/1.1 request to a server's control API on 127.0.0.1 (`dialogmock-bench soak`).
enum ControlRequest {
    /// The response body, or nil when the request failed or the status was not 2xx.
    static func send(port: UInt16, method: String = "GET", path: String, body: [UInt8] = []) -> [UInt8]? {
        guard let fd = LoopbackTCP.connect(port: port, receiveTimeoutSeconds: 10) else { return nil }
        defer { close(fd) }
        let head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        request.withUnsafeBufferPointer { BenchCommand.writeAll(fd, $0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard response.count >= 12, response[9] == UInt8(ascii: "2"),
            let end = (0...(response.count - 4)).first(where: { response[$0..<$0 + 4].elementsEqual(separator) })
        else { return nil }
        return Array(response[(end + 4)...])
    }
}
