import Glibc
import WireSocket

/// A blocking HTTP/1.1 exchange over a raw loopback socket, for asserting exact status lines and
/// bodies (including refused WebSocket upgrades, which the lws client does not expose).
enum RawHTTP {
    struct Response {
        /// The first line, e.g. `HTTP/1.1 401 Unauthorized`.
        let statusLine: String
        let status: Int
        let headers: [String: String]
        let body: String
    }

    static func exchange(port: UInt16, request: String, timeoutMillis: Int = 3000) -> Response? {
        guard let fd = LoopbackTCP.connect(port: port, receiveTimeoutSeconds: max(1, timeoutMillis / 1000)) else {
            return nil
        }
        defer { close(fd) }
        var bytes = Array(request.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
            if let response = parse(received),
                response.body.utf8.count >= Int(response.headers["content-length"] ?? "0") ?? 0
            {
                return response
            }
        }
        return parse(received)
    }

    static func get(port: UInt16, path: String, headers: [String] = []) -> Response? {
        exchange(
            port: port,
            request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
    }

    static func send(port: UInt16, method: String, path: String, body: String) -> Response? {
        exchange(
            port: port,
            request:
                "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
    }

    /// A WebSocket upgrade request as raw HTTP (to read a refusal's status and body).
    static func upgrade(port: UInt16, path: String, headers: [String] = []) -> Response? {
        get(
            port: port, path: path,
            headers: [
                "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            ] + headers)
    }

    /// A server frame as it came on the wire.
    struct Frame {
        let opcode: UInt8
        let final: Bool
        let payload: [UInt8]
    }

    /// Upgrades on a raw socket, sends one masked text message and reads the next `count`
    /// frames exactly as they come (no reassembly).
    static func frames(port: UInt16, path: String, sendText text: String, count: Int) -> [Frame] {
        frames(port: port, path: path, send: [Frame(opcode: 1, final: true, payload: Array(text.utf8))], count: count)
    }

    /// Upgrades on a raw socket, sends `clientFrames` (masked, short) in one write and reads the
    /// next `count` frames exactly as they come.
    static func frames(port: UInt16, path: String, send clientFrames: [Frame], count: Int) -> [Frame] {
        guard let fd = LoopbackTCP.connect(port: port, receiveTimeoutSeconds: 3) else { return [] }
        defer { close(fd) }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        let key: [UInt8] = [1, 2, 3, 4]
        var bytes = Array(request.utf8)
        var frame: [UInt8] = []
        for client in clientFrames {
            frame += [(client.final ? 0x80 : 0) | client.opcode, 0x80 | UInt8(client.payload.count)] + key
            frame += client.payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        }
        var received: [UInt8] = []
        func read(_ wanted: Int) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.count < wanted {
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if got <= 0 { return false }
                received += buffer[0..<got]
            }
            return true
        }
        _ = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        while !(received.count >= 4 && received.suffix(4).elementsEqual([13, 10, 13, 10])) {
            var byte: UInt8 = 0
            guard recv(fd, &byte, 1, 0) == 1 else { return [] }
            received.append(byte)
        }
        received = []
        _ = frame.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        var frames: [Frame] = []
        while frames.count < count, read(2) {
            let length = Int(received[1] & 0x7F)  // server frames here are short and unmasked
            guard length < 126, read(2 + length) else { break }
            frames.append(
                Frame(
                    opcode: received[0] & 0x0F, final: received[0] & 0x80 != 0,
                    payload: Array(received[2..<(2 + length)])))
            received.removeFirst(2 + length)
        }
        return frames
    }

    private static func parse(_ bytes: [UInt8]) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard
            let headerEnd = (0...max(0, bytes.count - 4)).first(where: {
                bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator
            })
        else { return nil }
        let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
        return Response(
            statusLine: String(statusLine), status: status, headers: headers,
            body: String(decoding: bytes[(headerEnd + 4)...], as: UTF8.self))
    }
}

/// Threads of this process whose name is `name` (from /proc/self/task/*/comm).
func threadCount(named name: String) -> Int {
    guard let directory = opendir("/proc/self/task") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let task = withUnsafePointer(to: entry.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        guard task != ".", task != "..", let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 64)
        if fgets(&buffer, 64, file) != nil,
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingSuffix(
                "\n") == name
        {
            count += 1
        }
        fclose(file)
    }
    return count
}

/// True when something accepts TCP connections on 127.0.0.1:port.
func isListening(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    } == 0
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// Socket descriptors of this process whose local TCP port is `port` (listening or connected),
/// found by matching /proc/self/fd socket inodes against /proc/net/tcp{,6}.
func openSocketCount(localPort port: UInt16) -> Int {
    var inodes: Set<String> = []
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let file = fopen(table, "r") else { continue }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, let colon = fields[1].lastIndex(of: ":"),
                UInt16(fields[1][fields[1].index(after: colon)...], radix: 16) == port
            else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        var target = [CChar](repeating: 0, count: 256)
        let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
        guard length > 0 else { continue }
        let link = String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("socket:["), inodes.contains(String(link.dropFirst(8).dropLast())) { count += 1 }
    }
    return count
}
