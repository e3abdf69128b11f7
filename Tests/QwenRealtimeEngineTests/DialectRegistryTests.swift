import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// Issue 41 item 2: a dialect is one type registered in one list (``QwenDialects``); routing,
/// the session object, the `session.update` rules and the dialect's own events follow from it.
@Suite struct DialectRegistryTests {
    static let registry = QwenDialects(QwenDialects.standard.all + [LiveTestDialect()])

    static func liveHarness() -> QwenHarness {
        QwenHarness(model: LiveTestDialect.model, dialects: registry)
    }

    @Test func standardModelsRouteToTheirDialects() {
        let routes: [(String, QwenProfile)] = [
            ("qwen-audio-3.0-realtime-plus", .audio), ("qwen3-omni-flash-realtime", .omni),
            ("qwen3-asr-flash-realtime", .transcription), ("qwen3-tts-flash-realtime", .speechSynthesis),
            ("qwen-audio-3.1-live", .audioLive),
        ]
        for (model, profile) in routes {
            #expect(QwenDialects.standard.dialect(forModel: model)?.profile == profile, "\(model)")
            #expect(Self.registry.dialect(forModel: model)?.profile == profile, "\(model)")
        }
        #expect(
            QwenDialects.standard.all.map(\.profile.rawValue) == [
                "audio", "speechSynthesis", "transcription", "omni", "audioLive",
            ])
    }

    @Test func aRegisteredDialectIsServedForItsModel() {
        #expect(QwenProfile(model: LiveTestDialect.model) == nil, "the standard registry does not know it")
        #expect(Self.registry.dialect(forModel: "QWEN-LIVE-TEST-REALTIME-2026")?.profile == .liveTest)
        #expect(Self.registry.servedModels.hasSuffix("qwen-live-test-realtime…"))
    }

    @Test func theSessionTakesTheDialectsDefaultsAndRules() throws {
        let harness = Self.liveHarness()
        #expect(harness.session.profile == .liveTest)
        let session = try #require(harness.events("session.created").first?["session"])
        #expect(session["voice"]?.stringValue == "LiveVoice")
        #expect(session["input_audio_transcription"]?["model"]?.stringValue == "live-asr")
        #expect(session["turn_detection"]?["threshold"]?.doubleValue == 0.3)
        harness.send("session.update", ["session": ["turn_detection": ["type": "semantic_vad"]]])
        let error = try #require(harness.events("error").last)
        #expect(error["error"]?["param"]?.stringValue == "session.turn_detection.type")
        harness.send("input_audio_buffer.commit")
        harness.send("input_audio_buffer.clear")
        let refused = harness.events("error").dropFirst().compactMap { $0["error"]?["param"]?.stringValue }
        #expect(
            refused == ["input_audio_buffer.commit", "input_audio_buffer.clear"],
            "the dialect refuses a commit and a clear in VAD mode")
    }

    @Test func theDialectHandlesItsOwnEvent() {
        let harness = Self.liveHarness()
        harness.send("session.update", ["session": ["voice": "Other"]])
        harness.advance(ms: 100)
        let updates = harness.events("session.updated").count
        harness.send(LiveTestDialect.pingEvent)
        harness.advance(ms: 100)
        #expect(harness.events("session.updated").count == updates + 1)
        #expect(harness.events("session.updated").last?["session"]?["voice"]?.stringValue == "Other")
        #expect(harness.events("error").isEmpty)

        let standard = QwenHarness(model: "qwen-audio-3.0-realtime-plus")
        standard.send("session.update", ["session": [:]])
        standard.send(LiveTestDialect.pingEvent)
        standard.advance(ms: 100)
        #expect(standard.events("error").last?["error"]?["code"]?.stringValue == "unknown_event")
    }
}
