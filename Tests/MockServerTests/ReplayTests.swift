import Foundation
import Testing
import WireJSON
import WireSocket

@testable import MockServer

@Suite("Record and replay")
struct ReplayTests {
    @Test func aRecordedSessionIsServedBackWithItsTiming() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-replay-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = #"{"name": "slow", "faults": [{"kind": "delay", "ms": 200, "match": {"type": "said"}}]}"#
        var recorded: [String] = []
        try await withChatterServer(scenario: scenario, record: directory) { server, client in
            let connection = try await client.connect("\(server.baseURL)/chatter")
            recorded.append(await connection.nextMessage().map { String(decoding: $0.bytes, as: UTF8.self) } ?? "")
            connection.send(text: #"{"type":"say","count":2}"#)
            connection.send(text: #"{"type":"bytes","count":640}"#)
            // A long idle window: under a sanitizer's slowdown the first frames take a while.
            for event in await connection.collect(idleMillis: 1_500) {
                if let text = event.text { recorded.append(text) } else { recorded.append("binary") }
            }
            connection.close()
            _ = await connection.collect()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(recorded.count == 4)

        var configuration = MockServer.Configuration()
        configuration.replay = ("s1.jsonl", try String(contentsOfFile: "\(directory)/s1.jsonl", encoding: .utf8), 0.5)
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect("\(server.baseURL)/api-ws/v1/inference")
        var replayed = [await connection.nextMessage().map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""]
        let start = ContinuousClock.now
        connection.send(text: #"{"type":"say","count":2}"#)
        connection.send(text: #"{"type":"bytes","count":640}"#)
        for event in await connection.collect(idleMillis: 1_500) {
            if let text = event.text {
                replayed.append(text)
            } else if case .message(.binary(let bytes)) = event {
                replayed.append("binary")
                #expect(bytes.count == 640)
            }
        }
        #expect(replayed == recorded)
        // The recorded 200 ms delay, halved by the replay time scale.
        #expect(ContinuousClock.now - start >= .milliseconds(90))
    }

    /// A journal that kept a binary frame's bytes (`data`, as a proxy's record does) replays those
    /// bytes; one without them replays audio of the same length.
    @Test func keptBinaryBytesAreReplayedAsRecorded() async throws {
        let journal = """
            {"t":0,"dir":"in","kind":"text","bytes":2,"event":"x","json":{}}
            {"t":1000,"dir":"out","kind":"binary","bytes":4,"data":"AQIDBA=="}
            {"t":2000,"dir":"out","kind":"binary","bytes":6}

            """
        var configuration = MockServer.Configuration()
        configuration.replay = ("kept.jsonl", journal, 1)
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect("\(server.baseURL)/api-ws/v1/inference")
        connection.send(text: "{}")
        #expect(await connection.nextMessage() == .binary([1, 2, 3, 4]))
        #expect(await connection.nextMessage()?.bytes.count == 6)
        connection.close()
        _ = await connection.next()
        try await Task.sleep(for: .milliseconds(50))
        // Everything recorded was sent: no replay.unused.
        #expect(await server.journal(session: "s1")?.contains("replay.unused") == false)
    }

    @Test func aBadJournalIsAClearError() {
        var configuration = MockServer.Configuration()
        configuration.replay = ("bad.jsonl", "{\"t\":0,\"kind\":\"text\"}\nnot json\n", 1)
        #expect(throws: ScenarioFileError.self) { _ = try MockServer(configuration: configuration) }
    }
}
