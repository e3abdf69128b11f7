import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// Issue 40 (rows 3, 4, 7, 10 and point 3, Qwen): what the service does where a source says so,
/// through the real session driver.
@Suite struct SourcedServiceRulesTests {
    static let turn = TurnContent(transcript: "Hello.", answer: "Hi, how can I help?")

    /// The levels the engine journaled for `obligation` ("MUST" / "SHOULD").
    static func levels(_ harness: QwenHarness, _ obligation: String) -> [String] {
        harness.notes.compactMap { note in
            guard case .violation(let id, let message) = note, id == obligation else { return nil }
            return message.hasPrefix("SHOULD: ") ? "SHOULD" : message.hasPrefix("MUST: ") ? "MUST" : message
        }
    }

    static func userText(_ text: String) -> JSONObject {
        ["item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": .string(text)]]]]
    }

    // MARK: Row 3

    @Test func audioProfileFirstUpdateWithoutTurnDetectionIsPushToTalkByDefault() throws {
        // SEED-003: "If omitted, the session uses push-to-talk mode"; session.created still says server VAD.
        let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]), model: "qwen-audio-3.0-realtime-flash")
        #expect(harness.events("session.created").first?["session"]?["turn_detection"]?["type"] == "server_vad")
        harness.send("session.update", ["session": ["modalities": ["text", "audio"], "voice": "longanqian"]])
        #expect(harness.events("session.updated").last?["session"]?["turn_detection"] == .null)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 3000)
        // No server VAD: no turn, no unprompted answer until the client commits and asks.
        #expect(harness.events("input_audio_buffer.speech_started").isEmpty)
        #expect(harness.events("response.created").isEmpty)
        harness.send("input_audio_buffer.commit")
        harness.send("response.create")
        harness.advance(ms: 8000)
        #expect(harness.events("response.done").last?["response"]?["status"] == "completed")
    }

    // MARK: Row 4

    @Test func responseCreateWithoutAUserMessageIsRefusedAsTheServiceDoes() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]), model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["modalities": ["text"]]])
        harness.send("response.create", eventID: "event_early")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "invalid_request_error")
        #expect(error["code"] == "InvalidParameter")
        #expect(error["message"]?.stringValue?.hasSuffix("do not contain elements with the role of user") == true)
        #expect(error["event_id"] == "event_early")
        #expect(harness.events("response.created").isEmpty)
        #expect(Self.levels(harness, "qrt.C10") == ["SHOULD"])
        // The connection is kept: a user message then makes the same request answerable.
        harness.send("conversation.item.create", Self.userText("Hello."))
        harness.send("response.create")
        harness.advance(ms: 5000)
        #expect(harness.events("response.done").last?["response"]?["status"] == "completed")
        #expect(harness.events("error").count == 1)
    }

    @Test func pushToTalkResponseCreateBeforeAnyCommitBreaksTheMust() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]))
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.send("response.create")
        #expect(harness.events("error").first?["error"]?["code"] == "InvalidParameter")
        #expect(Self.levels(harness, "qrt.C10") == ["MUST"])
    }

    // MARK: Row 7

    @Test func cancelOfAnAnswerThatIsNotInterruptibleGetsAnErrorAndTheAnswerCompletes() throws {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([BargeInTests.long], policies: SessionPolicies(interruptible: false)),
            model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.send("conversation.item.create", Self.userText("Tell me a story."))
        harness.send("response.create")
        harness.advance(ms: 300)
        #expect(!harness.events("response.created").isEmpty)
        #expect(harness.events("response.done").isEmpty)
        harness.send("response.cancel", eventID: "event_cancel")
        harness.advance(ms: 20)
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"] == "response.cancel")
        #expect(error["event_id"] == "event_cancel")
        #expect(harness.violations.isEmpty, "the client did nothing wrong: \(harness.violations)")
        harness.advance(ms: 15000)
        let dones = harness.events("response.done")
        #expect(dones.count == 1 && dones.first?["response"]?["status"] == "completed")
    }

    // MARK: Row 10 and point 3 (levels from the obligation)

    @Test func aReusedEventIDIsASHOULDAndANonStringOneAMUST() {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": [:]], eventID: "event_same")
        harness.send("input_audio_buffer.clear", eventID: "event_same")
        harness.sendText(#"{"type":"input_audio_buffer.clear","event_id":7}"#)
        #expect(Self.levels(harness, "qrt.C3") == ["SHOULD", "MUST"])
        #expect(harness.events("error").isEmpty, "neither is refused")
    }

    @Test func aLaterVoiceOnTheAudioProfileIsIgnoredAndJournaledAtSHOULD() {
        let harness = QwenHarness(model: "qwen-audio-3.0-realtime-flash")
        harness.send("session.update", ["session": ["voice": "longanqian", "turn_detection": ["type": "server_vad"]]])
        harness.send("session.update", ["session": ["voice": "longanlingxin"]])
        #expect(harness.events("session.updated").last?["session"]?["voice"] == "longanqian")
        #expect(Self.levels(harness, "qrt.C7") == ["SHOULD"])
    }
}
