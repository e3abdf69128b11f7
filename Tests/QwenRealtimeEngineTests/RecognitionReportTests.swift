import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireJSON

/// Issue 12 items 3 and 4 (Qwen): what the recogniser reports comes from the scenario and the
/// session (`language`, `emotion`), and the nuisdk's omitted `turn_detection` is a policy.
@Suite struct RecognitionReportTests {
    /// An omni server_vad turn with the real-speech fixture.
    private static func omniTurn(_ turn: TurnContent, session: JSONObject = [:]) throws -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]), model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": .object(session)])
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 3000)
        return harness
    }

    @Test func omniDeltasReportTheTurnsLanguageAndEmotion() throws {
        var turn = TurnContent(transcript: "What is the weather like today?", answer: "Sunny.")
        turn.language = "en"
        turn.emotion = "surprised"
        let harness = try Self.omniTurn(turn)
        let deltas = harness.events("conversation.item.input_audio_transcription.delta")
        #expect(!deltas.isEmpty)
        #expect(deltas.allSatisfy { $0["language"] == "en" && $0["emotion"] == "surprised" })
    }

    @Test func withoutAScriptedLanguageTheSessionsTranscriptionLanguageIsReported() throws {
        let turn = TurnContent(transcript: "What is the weather like today?", answer: "Sunny.")
        let declared = try Self.omniTurn(turn, session: ["input_audio_transcription": ["language": "yue"]])
        #expect(declared.events("conversation.item.input_audio_transcription.delta").last?["language"] == "yue")
        let plain = try Self.omniTurn(turn)
        let last = plain.events("conversation.item.input_audio_transcription.delta").last
        #expect(last?["language"] == "zh" && last?["emotion"] == "neutral")
    }

    @Test func omittedTurnDetectionIsPushToTalkOnlyWhenThePolicySaysSo() throws {
        for on in [false, true] {
            let scenario = QwenHarness.scenario([], policies: SessionPolicies(omittedTurnDetectionIsPushToTalk: on))
            let harness = QwenHarness(scenario: scenario, model: "qwen-audio-3.0-realtime-plus")
            harness.send("session.update", ["session": ["instructions": "Be brief."]])
            let session = try #require(harness.events("session.updated").last?["session"])
            #expect((session["turn_detection"] == .null) == on, "policy \(on): \(session)")
            // Only the first update: a later one without the key keeps the current value.
            harness.send("session.update", ["session": ["turn_detection": ["type": "server_vad"]]])
            harness.send("session.update", ["session": ["instructions": "Still brief."]])
            #expect(harness.events("session.updated").last?["session"]?["turn_detection"]?["type"] == "server_vad")
        }
        // Omni is not the nuisdk's profile: the policy leaves it alone.
        let omni = QwenHarness(
            scenario: QwenHarness.scenario([], policies: SessionPolicies(omittedTurnDetectionIsPushToTalk: true)),
            model: "qwen3-omni-flash-realtime")
        omni.send("session.update", ["session": ["instructions": "Be brief."]])
        #expect(omni.events("session.updated").last?["session"]?["turn_detection"]?["type"] == "server_vad")
    }

    @Test(arguments: [
        (["language": ""] as JSONValue, "session.input_audio_transcription.language"),
        (["language": "en us"] as JSONValue, "session.input_audio_transcription.language"),
        (["model": 5] as JSONValue, "session.input_audio_transcription.model"),
        (["corpus": ["text": 1]] as JSONValue, "session.input_audio_transcription.corpus.text"),
        ("zh" as JSONValue, "session.input_audio_transcription"),
    ])
    func badTranscriptionSettingsNameTheField(value: JSONValue, param: String) throws {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["input_audio_transcription": value]], eventID: "event_t")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"]?.stringValue == param)
        #expect(harness.events("session.updated").isEmpty)
    }
}
