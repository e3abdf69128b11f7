import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// Issue 12 item 5: `qwen3-asr-flash-realtime` (Qwen-ASR-Realtime) as a transcription-only
/// profile of the realtime route: speech in, `…transcription.text` / `.completed` with language
/// and emotion out, never an answer.
@Suite struct TranscriptionProfileTests {
    static let model = "qwen3-asr-flash-realtime"
    static let turn: TurnContent = {
        var turn = TurnContent(transcript: "What is the weather like today?", answer: "never spoken")
        turn.emotion = "happy"
        return turn
    }()

    static func harness(_ turns: [TurnContent] = [turn]) -> QwenHarness {
        QwenHarness(scenario: QwenHarness.scenario(turns), model: model)
    }

    @Test func modelNamesChooseTheProfile() {
        for name in ["qwen3-asr-flash-realtime", "qwen3-asr-flash-realtime-2025-10-27", "QWEN3-ASR-FLASH-REALTIME"] {
            #expect(QwenProfile(model: name) == .transcription)
        }
        #expect(QwenProfile(model: "qwen3-asr-flash") == nil)  // the file-transcription model is not realtime
        #expect(QwenProfile(model: "qwen3-omni-flash-realtime") == .omni)
    }

    @Test func sessionDefaultsAreTextOnlyWithServerVAD() throws {
        let harness = Self.harness()
        let session = try #require(harness.events("session.created").first?["session"])
        #expect(session["modalities"] == ["text"])
        #expect(session["sample_rate"]?.intValue == 16000)
        #expect(session["turn_detection"]?["type"]?.stringValue == "server_vad")
        #expect(session["turn_detection"]?["threshold"]?.doubleValue == 0.2)
        #expect(session["voice"] == nil)
        #expect(session["tools"] == nil)
    }

    @Test func aSpokenTurnIsTranscribedAndNeverAnswered() throws {
        let harness = Self.harness()
        harness.send(
            "session.update",
            [
                "session": [
                    "input_audio_format": "pcm", "sample_rate": 16000,
                    "input_audio_transcription": ["language": "en", "corpus": ["text": "weather"]],
                ]
            ])
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 3000)
        let collapsed = harness.compactTypes().enumerated()
            .filter { $0.offset == 0 || $0.element != harness.compactTypes()[$0.offset - 1] }.map(\.element)
        #expect(
            collapsed == [
                "session.created", "session.updated", "input_audio_buffer.speech_started",
                "conversation.item.input_audio_transcription.text", "input_audio_buffer.speech_stopped",
                "input_audio_buffer.committed", "conversation.item.created",
                "conversation.item.input_audio_transcription.completed",
            ])
        #expect(harness.types.allSatisfy { !$0.hasPrefix("response.") })
        let partial = try #require(harness.events("conversation.item.input_audio_transcription.text").last)
        #expect((partial["text"]?.stringValue ?? "") + (partial["stash"]?.stringValue ?? "") == Self.turn.transcript)
        #expect(partial["language"]?.stringValue == "en")  // the session's input_audio_transcription.language
        let completed = try #require(harness.events("conversation.item.input_audio_transcription.completed").first)
        #expect(completed["transcript"]?.stringValue == Self.turn.transcript)
        #expect(completed["language"]?.stringValue == "en")
        #expect(completed["emotion"]?.stringValue == "happy")  // from the scenario turn
        #expect(harness.violations.isEmpty)
    }

    @Test func manualModeCommitsAndFinishFlushes() throws {
        var second = TurnContent(transcript: "Second sentence.")
        second.language = "ja"
        let harness = Self.harness([Self.turn, second])
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.advance(ms: 10)
        harness.send("input_audio_buffer.commit")
        #expect(harness.events("error").last?["error"]?["message"]?.stringValue?.contains("empty") == true)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.send("input_audio_buffer.commit")
        harness.advance(ms: 50)
        let completed = harness.events("conversation.item.input_audio_transcription.completed")
        #expect(completed.map { $0["transcript"]?.stringValue } == [Self.turn.transcript])
        #expect(harness.events("input_audio_buffer.speech_started").isEmpty)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.send("session.finish")
        harness.advance(ms: 50)
        let types = harness.types
        #expect(types.suffix(2) == ["conversation.item.input_audio_transcription.completed", "session.finished"])
        let last = try #require(harness.events("conversation.item.input_audio_transcription.completed").last)
        #expect(last["transcript"]?.stringValue == "Second sentence.")
        #expect(last["language"]?.stringValue == "ja")
        #expect(last["emotion"]?.stringValue == "neutral")
        #expect(types.allSatisfy { !$0.hasPrefix("response.") })
        #expect(harness.closes.map(\.code) == [1000])
    }

    @Test func commitInVADModeAndAnswerEventsAreRefused() throws {
        let harness = Self.harness()
        harness.send("session.update", ["session": [:]])
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.send("input_audio_buffer.commit", eventID: "event_commit")
        let error = try #require(harness.events("error").last?["error"])
        #expect(error["code"]?.stringValue == "invalid_value")
        #expect(error["event_id"]?.stringValue == "event_commit")
        for type in ["response.create", "conversation.item.create", "response.cancel", "input_image_buffer.append"] {
            harness.send(type, eventID: "event_\(type)")
            let refused = try #require(harness.events("error").last?["error"])
            #expect(refused["event_id"]?.stringValue == "event_\(type)")
        }
        #expect(harness.violations.contains("qrt.C9"))
        #expect(harness.violations.filter { $0 == "qrt.C17" }.count == 4)
    }

    @Test(arguments: [
        (["sample_rate": 24000] as JSONObject, "session.sample_rate"),
        (["input_audio_format": "opus"] as JSONObject, "session.input_audio_format"),
        (["input_audio_transcription": ["language": 7]] as JSONObject, "session.input_audio_transcription.language"),
        (["input_audio_transcription": ["corpus": "x"]] as JSONObject, "session.input_audio_transcription.corpus"),
        (["turn_detection": ["type": "semantic_vad"]] as JSONObject, "session.turn_detection.type"),
    ])
    func badSettingsNameTheField(patch: JSONObject, param: String) throws {
        let harness = Self.harness()
        harness.send("session.update", ["session": .object(patch)], eventID: "event_bad")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"]?.stringValue == param)
        #expect(error["event_id"]?.stringValue == "event_bad")
        #expect(harness.events("session.updated").isEmpty)
    }
}
