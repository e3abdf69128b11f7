import Foundation
import Glibc
import ProtocolModel
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Bad input under load: floods beyond `maxSessions`, clients that never read, and journals
/// that keep audio as summaries.
@Suite("Capacity limits")
struct CapacityLimitTests {
    static let qwenPath = "/api-ws/v1/realtime?model=qwen-omni-turbo-realtime"
    static let auth = [("Authorization", "Bearer test-key")]

    func withServer(
        _ configure: (inout MockServer.Configuration) -> Void,
        _ body: (MockServer, WebSocketClient) async throws -> Void
    ) async throws {
        var configuration = MockServer.Configuration()
        configure(&configuration)
        let server = try MockServer(configuration: configuration)
        try server.start()
        let client = WebSocketClient()
        try await body(server, client)
        client.shutdown()
        server.stop()
    }

    /// `--handshake-timeout`: a connection that never completes its request (silent, or half a
    /// request line) is dropped after the timeout, on one service thread and on several (where
    /// a shared listener hands sockets over); a prompt upgrade on the same server still works.
    @Test(arguments: [1, 2])
    func slowOpenersAreDroppedAfterTheHandshakeTimeout(threads: Int) async throws {
        try await withServer({
            $0.handshakeTimeoutSeconds = 1
            $0.threads = threads
        }) { server, client in
            let silent = RawHTTP.connectSocket(port: server.port)
            let partial = RawHTTP.connectSocket(port: server.port)
            defer {
                close(silent)
                close(partial)
            }
            _ = "GET /api-ws/v1/realtime HTTP/1.1\r\nHost: 127.0.0.1\r\n".withCString {
                send(partial, $0, strlen($0), 0)
            }
            let started = MonotonicClock.nowMicros()
            for fd in [silent, partial] {
                var timeout = timeval(tv_sec: 6, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var byte: UInt8 = 0
                let received = recv(fd, &byte, 1, 0)
                let closed = received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                #expect(closed, "the server closes a slow opener (recv \(received), errno \(errno))")
            }
            let waitedMs = (MonotonicClock.nowMicros() - started) / 1000
            #expect(waitedMs >= 700 && waitedMs < 4000, "dropped after \(waitedMs) ms (timeout 1 s)")
            let prompt = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            #expect(await prompt.nextJSON()?["type"] == "session.created")
        }
    }

    @Test func upgradesBeyondMaxSessionsGet503WithAJSONBody() async throws {
        try await withServer({ $0.maxSessions = 2 }) { server, client in
            let first = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            let second = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            _ = await first.nextJSON()
            _ = await second.nextJSON()
            await #expect(throws: WebSocketError.self) {
                _ = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            }
            let refused = RawHTTP.upgrade(port: server.port, path: Self.qwenPath)
            #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(refused.contains(#""code":"ServiceUnavailable""#))
            #expect(
                Control.request(server, "GET", "/_mock/metrics").body.contains("dialogmock_sessions_refused_total 2"))
            // Both refusals are listed, as the client's test would see them.
            let listed = try JSONValue.decode(Control.request(server, "GET", "/_mock/refusals").body)
            #expect(listed["refusals"]?.arrayValue?.map { $0["status"] } == [503, 503])
            #expect(listed["refusals"]?[0]?["violation"]?["obligation"] == "qrt.C1")
            // The open sessions are unaffected.
            first.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
            #expect(await first.nextJSON()?["type"] == "session.updated")
        }
    }

    @Test func aClientThatNeverReadsIsClosedWith1008AndOthersGoOn() async throws {
        let answer = String(repeating: "This answer is long enough to fill every buffer on the way. ", count: 40)
        let scenario =
            #"{"name": "flood", "timing": {"events": {"*": 0}, "audio": {"chunkMs": 100, "realTimeFactor": 50}},"#
            + #" "turns": {"default": {"transcript": "go", "answer": "\#(answer)"}}}"#
        try await withServer({
            $0.scenarioSource = ("flood.json", Array(scenario.utf8))
            $0.maxQueuedBytes = 64 << 10
        }) { server, client in
            let stuck = try RawHTTP.openUpgraded(port: server.port, path: Self.qwenPath)
            defer { close(stuck) }
            // Ask for an answer, then never read again.
            RawHTTP.sendMaskedText(
                stuck,
                #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}"#
            )
            RawHTTP.sendMaskedText(stuck, #"{"type":"response.create"}"#)
            let healthy = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            #expect(await healthy.nextJSON()?["type"] == "session.created")
            // The kernel's socket buffers absorb megabytes first, after the answer's audio is
            // rendered: allow for a loaded machine (it usually takes 2–8 s) and for
            // ThreadSanitizer, under which rendering the long answer alone takes over 30 s.
            var closed = false
            for _ in 0..<1800 where !closed {
                try await Task.sleep(for: .milliseconds(100))
                let journal = await server.journal(session: "s1") ?? ""
                closed = journal.contains(#""code":1008"#)
            }
            #expect(closed)
            #expect(
                Control.request(server, "GET", "/_mock/metrics").body.contains("dialogmock_slow_readers_closed_total 1")
            )
            healthy.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
            #expect(await healthy.nextJSON()?["type"] == "session.updated")
        }
    }

    @Test(arguments: [false, true])
    func audioFramesAreJournaledAsSummaries(keepPayload: Bool) async throws {
        try await withServer({ $0.journalAudio = keepPayload }) { server, client in
            let connection = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            _ = await connection.nextJSON()
            let pcm = [UInt8](repeating: 0, count: 3200)  // 100 ms at 16 kHz
            connection.send(text: #"{"type":"input_audio_buffer.append","audio":"\#(Base64.encode(pcm))"}"#)
            try await Task.sleep(for: .milliseconds(200))
            let lines = (await server.journal(session: "s1") ?? "").split(separator: "\n")
            let append = try #require(
                try lines.map { try JSONValue.decode(String($0)) }
                    .first { $0["event"] == "input_audio_buffer.append" })
            #expect(append["audio"]?["codec"] == "pcm")
            #expect(append["audio"]?["durationMs"]?.doubleValue == 100)
            #expect((append["json"]?["audio"] != nil) == keepPayload)
            #expect((append["json"] != nil) == keepPayload)
        }
    }
}

extension CapacityLimitTests {
    /// A message one byte over the protocol routes' cap (text on the Qwen route, binary on the
    /// multimodal one) closes that session with 1009 and the cap in the reason; a session beside
    /// it goes on.
    @Test func aMessageOverTheProtocolCapClosesWith1009() async throws {
        let cap = Router.maxProtocolMessageBytes
        try await withServer({ _ in }) { server, client in
            let beside = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            #expect(await beside.nextJSON()?["type"] == "session.created")
            let qwen = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            #expect(await qwen.nextJSON()?["type"] == "session.created")
            let opening = Array(#"{"type":"input_audio_buffer.append","audio":""#.utf8)
            qwen.send(.text(opening + [UInt8](repeating: UInt8(ascii: "A"), count: cap + 1 - opening.count)))
            let multimodal = try await client.connect(server.baseURL + "/api-ws/v1/inference", headers: Self.auth)
            multimodal.send(.binary([UInt8](repeating: 0, count: cap + 1)))
            let expected = ClientEvent.closed(code: .messageTooBig, reason: "message exceeds \(cap) bytes")
            for connection in [qwen, multimodal] {
                var last: ClientEvent?
                while let event = await connection.next(timeoutMillis: 20_000) {
                    last = event
                    if case .closed = event { break }
                }
                #expect(last == expected)
            }
            beside.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
            #expect(await beside.nextJSON()?["type"] == "session.updated")
        }
    }

    @Test func journalsKeepAtMostTheFrameLimitAndCountTheRest() async throws {
        try await withServer({ $0.journalFrameLimit = 3 }) { server, client in
            let connection = try await client.connect(server.baseURL + Self.qwenPath, headers: Self.auth)
            _ = await connection.nextJSON()
            for _ in 0..<6 { connection.send(text: #"{"type":"input_audio_buffer.append","audio":"AAAA"}"#) }
            connection.send(text: #"{"type":"no.such.event"}"#)
            try await Task.sleep(for: .milliseconds(300))
            let entries = try (await server.journal(session: "s1") ?? "").split(separator: "\n").map {
                try JSONValue.decode(String($0))
            }
            #expect(entries.filter { $0["kind"] == "text" || $0["kind"] == "binary" }.count == 3)
            // Violations are kept past the limit.
            #expect(entries.contains { $0["kind"] == "violation" })
            let list = try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions").body)
            #expect(list["sessions"]?[0]?["framesNotJournaled"]?.intValue ?? 0 >= 5)
            #expect(list["sessions"]?[0]?["framesIn"] == 7)
        }
    }
}

/// A bare TCP client for what `WebSocketClient` will not do: read a refusal's raw bytes, or
/// stop reading altogether.
enum RawHTTP {
    static func connectSocket(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return fd
    }

    static func request(path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer test-key\r\n\r\n"
    }

    /// Sends an upgrade and returns everything the server answered (until it closes or 2 s pass).
    static func upgrade(port: UInt16, path: String) -> String {
        let fd = connectSocket(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let text = request(path: path)
        _ = text.withCString { send(fd, $0, strlen($0), 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// An upgraded WebSocket whose 101 answer has been read.
    static func openUpgraded(port: UInt16, path: String) throws -> Int32 {
        let fd = connectSocket(port: port)
        let text = request(path: path)
        _ = text.withCString { send(fd, $0, strlen($0), 0) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw WebSocketError("upgrade not answered") }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw WebSocketError("upgrade refused")
        }
        return fd
    }

    /// One masked text frame (a client's frame, RFC 6455 §5.3).
    static func sendMaskedText(_ fd: Int32, _ text: String) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [1, 2, 3, 4]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    }
}
