import Foundation
import ScenarioEngine
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Audio levels in the journal through the real session driver: each append's entry carries the
/// level of its decoded samples (loud above silent), recorded before the notes the frame caused.
@Suite("Journal audio levels")
struct JournalAudioLevelTests {
    @Test func appendsAreJournaledWithTheLevelOfTheirSamples() async throws {
        let server = try MockServer(configuration: MockServer.Configuration())
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let path = "/api-ws/v1/realtime?model=qwen-omni-turbo-realtime"
        let connection = try await client.connect(server.baseURL + path, headers: [("Authorization", "Bearer k")])
        #expect(await connection.nextJSON()?["type"] == "session.created")
        connection.send(text: #"{"type":"session.update","session":{"turn_detection":null}}"#)
        func append(_ samples: [Int16]) -> String {
            let bytes = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
            return #"{"type":"input_audio_buffer.append","audio":"\#(Base64.encode(bytes))"}"#
        }
        connection.send(text: append([Int16](repeating: 0, count: 1600)))
        connection.send(text: append((0..<1600).map { $0 % 40 < 20 ? 16384 : -16384 }))
        // A frame whose audio is not whole samples: summarised, rejected, no level.
        connection.send(text: #"{"type":"input_audio_buffer.append","audio":"AAAA"}"#)
        connection.send(text: #"{"type":"session.finish"}"#)
        _ = await connection.collect()
        let journal = try #require(await server.journal(session: "s1"))
        let entries = try journal.split(separator: "\n").map { try JSONValue.decode(String($0)) }
        let appends = entries.filter { $0["event"] == "input_audio_buffer.append" }
        try #require(appends.count == 3, "\(journal)")
        #expect(appends[0]["audio"]?["level"] == ["rmsDb": -100.0, "peakDb": -100.0])
        #expect(appends[1]["audio"]?["level"] == ["rmsDb": -6.0, "peakDb": -6.0])
        #expect(appends[2]["audio"] != nil && appends[2]["audio"]?["level"] == nil)
        // The frame's entry comes before the error it caused.
        let third = try #require(entries.firstIndex { $0 == appends[2] })
        #expect(entries[(third + 1)...].contains { $0["event"] == "error" })
    }
}
