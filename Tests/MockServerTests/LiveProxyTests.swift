import Foundation
import MockCapture
import ProtocolModel
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Qwen-Audio-Live through `--proxy-upstream` (in front of ``LiveUpstreamDouble``) and back
/// through `--replay`: both of its URLs reach the upstream with their path and query, the
/// sessions are journaled as qwen-audio-live, a refused upstream is the live `error` event, and
/// a recorded live session replays.
@Suite("Qwen-Audio-Live proxy, record and replay", .serialized)
struct LiveProxyTests {
    static let liveURLs = [
        QwenAudioLive.livePath,
        DialogProtocol.qwenRealtime.servicePath + "?model=" + QwenAudioLive.serviceModel,
    ]
    static let authorization = [("Authorization", "Bearer sk-live-proxy")]

    /// The documented flow's frames: `session.update`, one audio chunk, `session.close`.
    static let update =
        #"{"type":"session.update","event_id":"evt-1","session":{"model":"qwen-audio-3.1-realtime-flash","delegation":{"type":"client"}}}"#
    static let append = #"{"type":"session.input_audio.append","event_id":"evt-2","audio":"AAAAAA=="}"#
    static let close = #"{"type":"session.close","event_id":"evt-3"}"#

    /// An upstream double and a recording proxy in front of it; `body` gets the proxy.
    static func withProxy(_ body: (MockServer, String) async throws -> Void) async throws {
        let upstream = try MockServer()
        LiveUpstreamDouble.serve(on: upstream)
        try upstream.start()
        defer { upstream.stop() }
        let record = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-live-proxy-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: record) }
        var configuration = MockServer.Configuration()
        configuration.proxyUpstream = try ProxyUpstream(parsing: upstream.baseURL)
        configuration.recordDirectory = record
        let proxy = try MockServer(configuration: configuration)
        try proxy.start()
        defer { proxy.stop() }
        try await body(proxy, record)
    }

    /// The documented flow on `connection`: every reply's `type`, until the close.
    static func flow(_ connection: ClientConnection) async -> (types: [String], created: JSONValue?, close: CloseCode?)
    {
        let created = await connection.nextJSON()
        connection.send(text: update)
        connection.send(text: append)
        connection.send(text: close)
        var types = [created?["type"]?.stringValue ?? "-"]
        while let event = await connection.next(timeoutMillis: 3000) {
            switch event {
            case .message: types.append(event.json?["type"]?.stringValue ?? "-")
            case .closed(let code, _): return (types, created, code)
            }
        }
        return (types, created, nil)
    }

    static let expectedTypes = [
        "session.created", "session.updated", "session.output_audio.delta", "session.closed",
    ]

    @Test func bothLiveURLsReachTheUpstreamWithPathAndQueryAndAreJournaledAsLive() async throws {
        try await Self.withProxy { proxy, _ in
            let client = WebSocketClient()
            defer { client.shutdown() }
            for url in Self.liveURLs {
                let connection = try await client.connect(proxy.baseURL + url, headers: Self.authorization)
                let (types, created, close) = await Self.flow(connection)
                #expect(created?["session"]?["url"]?.stringValue == url)
                #expect(types == Self.expectedTypes, "\(url)")
                #expect(close == CloseCode(1000))
            }
            try await Task.sleep(for: .milliseconds(100))
            let listed = try JSONValue.decode(Control.request(proxy, "GET", "/_mock/sessions").body)
            let sessions = listed["sessions"]?.arrayValue ?? []
            #expect(sessions.count == 2)
            #expect(sessions.allSatisfy { $0["protocol"]?.stringValue == DialogProtocol.qwenAudioLive.rawValue })
            // The journal names both sides' events the live way (the descriptor's `type`).
            let journal = await proxy.journal(session: "s2") ?? ""
            for name in ["session.update", "session.input_audio.append", "session.close"] + Self.expectedTypes {
                #expect(journal.contains(#""event":"\#(name)""#), "\(name)")
            }
        }
    }

    /// A refused upstream upgrade reaches the client as the live `error` event (its
    /// descriptor's), then close 1011.
    @Test func aRefusedUpstreamIsALiveErrorEventAndClose1011() async throws {
        try await Self.withProxy { proxy, _ in
            let client = WebSocketClient()
            defer { client.shutdown() }
            let connection = try await client.connect(proxy.baseURL + QwenAudioLive.livePath)
            let error = await connection.nextJSON()
            #expect(error?["type"]?.stringValue == QwenAudioLiveServerEvent.error.rawValue)
            #expect(error?["error"]?["code"]?.stringValue == "UpstreamRefused")
            #expect(error?["error"]?["message"]?.stringValue?.contains("HTTP 401") == true)
            let closed = await connection.collect(idleMillis: 3000).last
            guard case .closed(let code, _)? = closed else {
                Issue.record("no close: \(String(describing: closed))")
                return
            }
            #expect(code == CloseCode(1011))
        }
    }

    /// The documented flow one frame at a time, each reply awaited: the replies, by event name.
    static func stepwise(_ connection: ClientConnection) async -> [String: JSONValue] {
        var replies: [String: JSONValue] = [:]
        func take(_ reply: JSONValue?) {
            if let reply, let type = reply["type"]?.stringValue { replies[type] = reply }
        }
        take(await connection.nextJSON())
        for frame in [update, append, close] {
            connection.send(text: frame)
            take(await connection.nextJSON())
        }
        _ = await connection.collect()
        return replies
    }

    /// `record-to-scenario` of a live recording: the answer audio goes to a file beside the
    /// scenario, and the scenario serves the session back on the live path with that audio.
    @Test func aLiveRecordingBecomesAScenarioWithItsAudioInFiles() async throws {
        var recorded = ""
        try await Self.withProxy { proxy, record in
            let client = WebSocketClient()
            defer { client.shutdown() }
            let connection = try await client.connect(proxy.baseURL + Self.liveURLs[1], headers: Self.authorization)
            #expect(Set(await Self.stepwise(connection).keys) == Set(Self.expectedTypes))
            try await Task.sleep(for: .milliseconds(100))
            recorded = try String(contentsOfFile: record + "/s1.jsonl", encoding: .utf8)
        }
        let files = try Recordings.recordedScenario(journal: recorded, file: "s1.jsonl", name: "live")
        #expect(files.steps == Self.expectedTypes.count + 1)  // and the close
        #expect(files.audioFiles.map(\.path) == ["live.audio/0001.pcm"])
        #expect(files.audioFiles.first?.bytes == [0, 0, 0, 0])
        #expect(!files.scenario.contains("AAAAAA=="))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dialogmock-live-scenario-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder + "/live.audio", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (path, bytes) in files.audioFiles {
            #expect(FileManager.default.createFile(atPath: folder + "/" + path, contents: Data(bytes)))
        }
        var configuration = MockServer.Configuration()
        configuration.scenarioSource = ("live.json", Array(files.scenario.utf8))
        configuration.scenarioDirectory = folder
        let replay = try MockServer(configuration: configuration)
        try replay.start()
        defer { replay.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect(replay.baseURL + Self.liveURLs[0], headers: Self.authorization)
        let replies = await Self.stepwise(connection)
        #expect(Set(replies.keys) == Set(Self.expectedTypes))
        #expect(replies[QwenAudioLiveServerEvent.outputAudioDelta.rawValue]?["delta"]?.stringValue == "AAAAAA==")
    }

    /// The proxy's record of a live session, served with `--replay` on either live URL, sends
    /// the recorded frames in answer to the same client frames.
    @Test func aRecordedLiveSessionReplays() async throws {
        var recorded = ""
        try await Self.withProxy { proxy, record in
            let client = WebSocketClient()
            defer { client.shutdown() }
            let connection = try await client.connect(proxy.baseURL + Self.liveURLs[0], headers: Self.authorization)
            _ = await Self.flow(connection)
            try await Task.sleep(for: .milliseconds(100))
            recorded = try String(contentsOfFile: record + "/s1.jsonl", encoding: .utf8)
        }
        var configuration = MockServer.Configuration()
        configuration.replay = ("s1.jsonl", recorded, 1)
        let replay = try MockServer(configuration: configuration)
        try replay.start()
        defer { replay.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        for (index, url) in Self.liveURLs.enumerated() {
            let connection = try await client.connect(replay.baseURL + url, headers: Self.authorization)
            let (types, created, _) = await Self.flow(connection)
            #expect(created?["session"]?["url"]?.stringValue == Self.liveURLs[0])
            #expect(types == Self.expectedTypes, "\(url)")
            try await Task.sleep(for: .milliseconds(100))
            // The live client's frames are the recording's: no departure.
            #expect(await replay.journal(session: "s\(index + 1)")?.contains("replay.departure") == false)
        }
    }
}
