import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// S22: what each profile never sends, and determinism (same inputs → identical frames).
@Suite struct ProfileGatingTests {
    @Test func omniNeverSendsAmbientOrVoiceprintEvents() throws {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([TurnContent(transcript: "嗯", answer: "好", intent: .filler)]),
            model: "qwen3-omni-flash-realtime")
        harness.send(
            "session.update",
            ["session": ["turn_detection": ["type": "smart_turn", "voiceprint_audio_urls": ["https://x"]]]])
        #expect(harness.events("error").first?["error"]?["param"] == "session.turn_detection.type")
        harness.send("session.update", ["session": ["turn_detection": ["type": "semantic_vad"]]])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 4000)
        #expect(!harness.types.contains { $0.hasPrefix("voiceprint") || $0.contains("ambient") })
        #expect(harness.events("response.done").count == 1)  // semantic_vad ignores the filler intent
        let delta = try #require(harness.events("conversation.item.input_audio_transcription.delta").first)
        #expect(delta["language"] != nil)
    }

    @Test func audioNeverSendsSessionFinished() {
        let harness = QwenHarness()
        harness.send("session.finish")
        harness.apply(harness.session.endSession(.trigger(reason: "end")))
        #expect(!harness.types.contains("session.finished"))
        #expect(harness.closes.count == 1)
    }

    @Test func identicalInputsGiveIdenticalFrames() throws {
        func run() throws -> [String] {
            let harness = try ServerVADTurnTests.spokenTurn()
            return harness.received.map { $0.json.encodedString() + "@\($0.atMicros)" }
        }
        let first = try run()
        #expect(first.count > 20)
        #expect(try run() == first)
    }

    @Test func differentSeedsGiveDifferentIDs() {
        let one = QwenHarness(scenario: QwenHarness.scenario(seed: 1)).events("session.created").first?["session"]?[
            "id"]
        let two = QwenHarness(scenario: QwenHarness.scenario(seed: 2)).events("session.created").first?["session"]?[
            "id"]
        #expect(one != two)
    }
}
