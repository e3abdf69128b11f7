import Foundation
import MockSessions
import ProtocolModel
import Synchronization
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// API keys never reach an output: with canary keys, accepted and refused, on both protocols,
/// nothing the mock writes — trace logs, recordings, journals, session and refusal lists,
/// metrics, refusal bodies — contains them.
@Suite struct SecretHygieneTests {
    static let accepted = "sk-canary-accepted-5d1e"
    static let refused = "sk-canary-refused-8c2b"
    static let controlToken = "canary-control-token-41f0"

    @Test func canaryKeysAppearInNoOutput() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-hygiene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = LogLines()
        var configuration = MockServer.Configuration()
        configuration.apiKeys = [Self.accepted]
        configuration.recordDirectory = folder.path
        configuration.journalAudio = true
        configuration.controlToken = Self.controlToken
        configuration.logger = Logger(level: .trace) { logs.append($0) }
        let server = try MockServer(configuration: configuration)
        try server.start()
        let base = "ws://127.0.0.1:\(server.port)"
        let client = WebSocketClient()
        defer { client.shutdown() }

        let qwen = try await client.connect(
            "\(base)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime",
            headers: [("Authorization", "Bearer \(Self.accepted)")])
        _ = await qwen.nextMessage()
        qwen.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        qwen.send(text: #"{"type":"input_audio_buffer.append","audio":"AAAAAA=="}"#)
        _ = await qwen.nextMessage(timeoutMillis: 500)
        qwen.close()
        _ = await qwen.next()
        let dialog = try await client.connect(
            "\(base)/api-ws/v1/inference", headers: [("Authorization", "bearer \(Self.accepted)")])
        dialog.send(
            text:
                #"{"header":{"action":"run-task","task_id":"t1","streaming":"duplex"},"payload":{"task_group":"aigc","task":"multimodal-generation","function":"generation","model":"multimodal-dialog","input":{"directive":"Start","workspace_id":"w","app_id":"a"},"parameters":{"upstream":{"type":"AudioOnly","mode":"tap2talk"}}}}"#
        )
        _ = await dialog.nextMessage(timeoutMillis: 500)
        dialog.close()
        _ = await dialog.next()
        var refusals: [String] = []
        for (url, header) in [
            ("\(base)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime", "Bearer \(Self.refused)"),
            ("\(base)/api-ws/v1/inference", "Bearer \(Self.refused)"),
        ] {
            do {
                _ = try await client.connect(url, headers: [("Authorization", header)])
            } catch {
                refusals.append(String(describing: error))
            }
        }
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.contains("401") }, "\(refusals)")

        let auth = ["Authorization: Bearer \(Self.controlToken)"]
        var outputs = refusals + logs.all
        for path in [
            "/_mock/sessions", "/_mock/sessions/s1/journal", "/_mock/sessions/s2/journal", "/_mock/refusals",
            "/_mock/metrics", "/_mock/health",
        ] {
            let response = Control.request(server, "GET", path, headers: auth)
            #expect(response.status == 200 && !response.body.isEmpty, "\(path)")
            outputs.append(response.body)
        }
        server.stop()
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            outputs.append(
                (try? String(contentsOfFile: folder.appendingPathComponent(file).path, encoding: .utf8)) ?? "")
        }
        let recordings = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(recordings.count == 2 && !logs.all.isEmpty)
        for secret in [Self.accepted, Self.refused, Self.controlToken, "canary"] {
            let leaks = outputs.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) in: \(leaks.map { String($0.prefix(300)) })")
        }
    }
}

/// Log lines collected from the server's threads.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
