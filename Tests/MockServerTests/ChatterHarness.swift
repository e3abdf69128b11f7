import Foundation
import MockSessions
import ScenarioEngine
import WireJSON
import WireSocket

@testable import MockServer

/// Starts a MockServer whose `/chatter` route runs `ChatterSession` under `scenario`.
func withChatterServer(
    scenario text: String, record: String? = nil,
    _ body: (MockServer, WebSocketClient) async throws -> Void
) async throws {
    var configuration = MockServer.Configuration()
    configuration.scenarioSource = ("test.json", Array(text.utf8))
    configuration.recordDirectory = record
    let server = try MockServer(configuration: configuration)
    let router = server.router
    router.extraRoutes["/chatter"] = { [unowned router] head in
        router.startSession(
            ChatterSession(scenario: router.scenarios.current, seed: router.configuration.seed),
            protocolName: "chatter", request: head, maxMessageBytes: 1 << 20)
    }
    try server.start()
    let client = WebSocketClient()
    try await body(server, client)
    client.shutdown()
    server.stop()
}

extension ClientConnection {
    /// The next text message as JSON (nil on timeout, close, or text that is not JSON).
    func nextJSON(timeoutMillis: Int = 3000) async -> JSONValue? {
        guard case .text(let bytes)? = await nextMessage(timeoutMillis: timeoutMillis) else { return nil }
        return try? JSONValue.decode(bytes)
    }

    /// Collects messages until `idleMillis` pass without one.
    func collect(idleMillis: Int = 300) async -> [ClientEvent] {
        var events: [ClientEvent] = []
        while let event = await next(timeoutMillis: idleMillis) {
            events.append(event)
            if case .closed = event { break }
        }
        return events
    }
}

extension ClientEvent {
    var json: JSONValue? {
        if case .message(.text(let bytes)) = self { return try? JSONValue.decode(bytes) }
        return nil
    }
    var text: String? {
        if case .message(.text(let bytes)) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}

/// GET/PUT/POST on the control API through a raw socket.
enum Control {
    static func request(
        _ server: MockServer, _ method: String, _ path: String, body: String = "",
        headers: [String] = [], timeoutSeconds: Int = 3
    ) -> (status: Int, body: String) {
        let answer = exchange(
            server, method, path, body: body, headers: headers, timeoutSeconds: timeoutSeconds)
        return (answer.status, answer.body)
    }

    /// One raw HTTP exchange: the status, the header fields (lower-cased names) and the body.
    static func exchange(
        _ server: MockServer, _ method: String, _ path: String, body: String = "",
        headers: [String] = [], timeoutSeconds: Int = 3
    ) -> (status: Int, headers: [String: String], body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = server.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let extra = headers.map { $0 + "\r\n" }.joined()
        let text =
            "\(method) \(path) HTTP/1.1\r\nHost: x\r\n\(extra)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), 0) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let response = String(decoding: received, as: UTF8.self)
        let parts = response.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, fields, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
