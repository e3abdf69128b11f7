import CLISupport
import Foundation
import Glibc
import ProtocolModel
import Testing
import WireAudio
import WireJSON
import WireSocket

/// Issue 14 item 4: the journal is evidence. Clients cut off at random points (mid-frame, RST
/// or FIN) and a server stopped by SIGTERM or SIGINT at random points leave `--record` files
/// that hold every frame the other side saw, in order, and a close entry.
@Suite(.serialized) struct JournalCompletenessTests {
    static let qwenPath = "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"

    /// Each round: k whole frames (the journal has them all before the cut), then a random
    /// prefix of one more frame, then RST or FIN. The record must end with exactly the k frames
    /// and a close entry.
    @Test func clientsCutOffMidFrameLeaveEveryWholeFrameAndAClose() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try MockServerTestProcess.start(["--port", "0", "--record", folder, "--scenario", "quick"])
        let port = server.port
        var generator = SeededGenerator(seed: 0x6A0C_0C1E)
        var expected: [(frames: [String], reset: Bool)] = []
        for round in 0..<12 {
            let socket = try #require(
                RawWebSocket(port: port, path: Self.qwenPath, headers: ["Authorization: Bearer k"]))
            var sent: [String] = []
            let count = Int.random(in: 1...6, using: &generator)
            for index in 0..<count {
                let audio = Base64.encode(
                    [UInt8](repeating: UInt8(index), count: 2 * Int.random(in: 10...4000, using: &generator)))
                let frame =
                    index == 0 && round % 3 == 0
                    ? #"{"type":"session.update","session":{"turn_detection":null}}"#
                    : #"{"type":"input_audio_buffer.append","audio":"\#(audio)"}"#
                socket.sendWhole(text: frame)
                sent.append(index == 0 && round % 3 == 0 ? "session.update" : "input_audio_buffer.append")
            }
            // The journal has every whole frame before the cut (data the peer never read is
            // dropped by its kernel on RST, so the cut waits for the server to have read).
            try await Self.waitForFramesIn(port: port, session: "s\(round + 1)", count: count)
            let last = Array(#"{"type":"input_audio_buffer.append","audio":"AAAA"}"#.utf8)
            let frame = RawWebSocket.maskedFrame(opcode: 1, payload: last)
            socket.sendRaw(Array(frame.prefix(Int.random(in: 1..<frame.count, using: &generator))))
            let reset = round % 2 == 0
            socket.close(reset: reset)
            expected.append((sent, reset))
        }
        for round in 0..<expected.count {
            try await Self.waitUntilClosed(port: port, session: "s\(round + 1)")
        }
        // The records are on disk while the server runs (written as entries happen, not at exit).
        for round in 0..<expected.count {
            var closed = false
            for _ in 0..<100 where !closed {
                closed = (try? Self.record(folder, session: "s\(round + 1)"))?.last?.kind == .close
                if !closed { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(closed, "round \(round): the record file ends with the close while the server runs")
        }
        server.child.signal(SIGTERM)
        #expect(await server.child.completion().status == 0)
        for (round, want) in expected.enumerated() {
            let entries = try Self.record(folder, session: "s\(round + 1)")
            let inbound = entries.filter { $0.direction == .in && $0.kind == .text }.map { $0.eventType ?? "?" }
            #expect(
                inbound == want.frames, "round \(round) (\(want.reset ? "RST" : "FIN")): the record's client frames")
            #expect(entries.last?.kind == .close, "round \(round): the record ends with a close entry")
        }
    }

    /// Each round: a Qwen session streams a turn and gets its answer; at a random moment the
    /// server gets SIGTERM or SIGINT. Every frame the client received is in the record as sent,
    /// in order; every client frame the record has, the client sent, in order; a close ends it.
    @Test func aServerStoppedAtARandomPointRecordsEveryFrameTheClientSaw() async throws {
        var generator = SeededGenerator(seed: 0x51_6E_A1)
        let speech = try FileBytes.read(path: Self.root + "/conformance/fixtures/audio/hello-16k.pcm")
        for round in 0..<8 {
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try MockServerTestProcess.start(["--port", "0", "--record", folder, "--scenario", "quick"])
            let port = server.port
            let client = WebSocketClient()
            defer { client.shutdown() }
            let connection = try await client.connect(
                "ws://127.0.0.1:\(port)\(Self.qwenPath)", headers: [("Authorization", "Bearer k")])
            let stopAfter = Duration.milliseconds(Int.random(in: 20...2400, using: &generator))
            let signal = round % 2 == 0 ? SIGTERM : SIGINT
            let pid = server.pid
            let stopper = Task {
                try? await Task.sleep(for: stopAfter)
                kill(pid, signal)
            }
            var sent: [String] = []
            var received: [String] = []
            let began = ContinuousClock.now
            var offset = 0
            streaming: while true {
                if offset < speech.count {
                    let chunk = Array(speech[offset..<min(offset + 3200, speech.count)])
                    connection.send(text: #"{"type":"input_audio_buffer.append","audio":"\#(Base64.encode(chunk))"}"#)
                    sent.append("input_audio_buffer.append")
                    offset += 3200
                }
                let deadline = began + .milliseconds(offset / 32)
                while ContinuousClock.now < deadline || offset >= speech.count {
                    guard let event = await connection.next(timeoutMillis: 100) else {
                        if offset >= speech.count && ContinuousClock.now - began > .seconds(10) { break streaming }
                        continue
                    }
                    switch event {
                    case .message(.text(let bytes)):
                        received.append((try? JSONValue.decode(bytes))?["type"]?.stringValue ?? "?")
                    case .message: continue
                    case .closed: break streaming
                    }
                }
            }
            stopper.cancel()
            server.child.signal(signal)
            #expect(await server.child.completion().status == 0, "round \(round)")
            let entries = try Self.record(folder, session: "s1")
            let recordedOut = entries.filter { $0.direction == .out && $0.kind == .text }.map { $0.eventType ?? "?" }
            let recordedIn = entries.filter { $0.direction == .in && $0.kind == .text }.map { $0.eventType ?? "?" }
            #expect(
                Array(recordedOut.prefix(received.count)) == received,
                "round \(round) (\(signal == SIGTERM ? "SIGTERM" : "SIGINT") after \(stopAfter)): the client saw \(received.count) frames, the record has \(recordedOut.count)"
            )
            #expect(Array(sent.prefix(recordedIn.count)) == recordedIn, "round \(round): the record's client frames")
            #expect(entries.contains { $0.kind == .close }, "round \(round): a close entry")
        }
    }

    // MARK: - Helpers

    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("dialogmock-journal-\(UUID().uuidString)").path
    }

    static func record(_ folder: String, session: String) throws -> [JournalEntry] {
        try JournalEntry.decodeLines(
            String(decoding: FileBytes.read(path: "\(folder)/\(session).jsonl"), as: UTF8.self))
    }

    static func summary(port: UInt16, session: String) -> JSONValue? {
        guard let response = RawWebSocket.get(port: port, path: "/_mock/sessions") else { return nil }
        return (try? JSONValue.decode(response))?["sessions"]?.arrayValue?.first { $0["id"]?.stringValue == session }
    }

    static func waitForFramesIn(port: UInt16, session: String, count: Int) async throws {
        for _ in 0..<200 {
            if let framesIn = summary(port: port, session: session)?["framesIn"]?.intValue, framesIn >= count { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("session \(session) never journaled \(count) client frames")
    }

    static func waitUntilClosed(port: UInt16, session: String) async throws {
        for _ in 0..<300 {
            if summary(port: port, session: session)?["open"] == .bool(false) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("session \(session) never closed")
    }
}

/// A blocking WebSocket client over a raw loopback socket: whole frames, partial frames, and a
/// FIN or RST at any byte (what no WebSocket library lets a test do).
final class RawWebSocket {
    let fd: Int32

    init?(port: UInt16, path: String, headers: [String]) {
        guard let fd = LoopbackTCP.connect(port: port) else { return nil }
        self.fd = fd
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        sendRaw(Array(request.utf8))
        // Read the 101 response head (nothing else comes before the client's first frame but
        // the server's first events, which this client never reads).
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else {
                Glibc.close(fd)
                return nil
            }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            Glibc.close(fd)
            return nil
        }
    }

    /// A client frame (FIN set, masked with a fixed key).
    static func maskedFrame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += key
        frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return frame
    }

    func sendWhole(text: String) { sendRaw(Self.maskedFrame(opcode: 1, payload: Array(text.utf8))) }

    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes the TCP connection: with RST (SO_LINGER 0, as a killed process with unread data)
    /// or with FIN.
    func close(reset: Bool) {
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        Glibc.close(fd)
    }

    /// A plain HTTP GET's body (the control API).
    static func get(port: UInt16, path: String) -> [UInt8]? {
        guard let fd = LoopbackTCP.connect(port: port) else { return nil }
        defer { Glibc.close(fd) }
        var request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        guard
            let end = (0..<max(0, response.count - 3)).first(where: {
                response[$0..<$0 + 4].elementsEqual([13, 10, 13, 10])
            })
        else {
            return nil
        }
        return Array(response[(end + 4)...])
    }
}
