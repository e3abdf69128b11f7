import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// The AIBuds policies on Qwen realtime (SEED-004 "Configuration"): the idle end counts time
/// without user speech or text and is held while the answer is produced and played; the
/// end-of-turn silence is the server VAD's; voice playback off is the text modality; the report.
@Suite struct QwenIdleEndTests {
    static let turn = TurnContent(
        transcript: "What is the weather like today?",
        answer: "It is sunny and warm today, with a light breeze from the west and no rain at all.")

    static func harness(
        _ policies: SessionPolicies, model: String = "qwen-audio-3.0-realtime-plus"
    ) -> QwenHarness {
        QwenHarness(scenario: QwenHarness.scenario([turn], policies: policies), model: model)
    }

    static func idle(_ ms: Double) -> SessionPolicies { SessionPolicies(idleEndMs: ms) }

    /// A first update that asks for server VAD: on the audio profile an omitted
    /// `turn_detection` is push-to-talk (SEED-003).
    static let serverVAD: JSONValue = ["turn_detection": ["type": "server_vad"]]

    static func reports(_ harness: QwenHarness) -> [JSONValue] {
        harness.notes.compactMap { if case .report(let json) = $0 { json } else { nil } }
    }

    @Test func streamedSilenceDoesNotHoldTheSessionOpen() throws {
        let harness = Self.harness(Self.idle(1_000))
        harness.send("session.update", ["session": Self.serverVAD])
        harness.appendSilence(ms: 3_000)
        let close = try #require(harness.closes.first)
        #expect(close.code == 1000)
        #expect(close.atMicros <= 1_100_000)
        // No mock-made error code: the audio profile's end is the close itself.
        #expect(harness.events("error").isEmpty)
    }

    @Test func omniIdleEndIsAFinishedSession() throws {
        let harness = Self.harness(Self.idle(1_000), model: "qwen3-omni-flash-realtime")
        harness.advance(ms: 1_100)
        #expect(harness.types.last == "session.finished")
        #expect(harness.closes.map(\.code) == [1000])
    }

    @Test func anAnswerLongerThanTheIdleTimeIsNotCut() throws {
        let harness = Self.harness(Self.idle(1_500))
        harness.send("session.update", ["session": Self.serverVAD])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 12_000)
        let created = try #require(harness.received.first { $0.type == "response.created" })
        let done = try #require(harness.received.first { $0.type == "response.done" })
        #expect(done.json["response"]?["status"] == "completed")
        let audioBytes = harness.events("response.audio.delta").compactMap { $0["delta"]?.stringValue }
            .reduce(0) { $0 + (Base64.decode($1)?.count ?? 0) }
        let audioMicros = Int64(audioBytes / 2) * 1_000_000 / 24_000
        #expect(audioMicros > 1_500_000)
        // The clock restarts when the client's playback ends: the answer's start plus its audio.
        let close = try #require(harness.closes.first)
        #expect(abs(close.atMicros - (created.atMicros + audioMicros + 1_500_000)) <= 20_000)
    }

    @Test func pushToTalkAudioIsInputTheClockDoesNotCutAHeldButton() throws {
        let harness = Self.harness(Self.idle(1_000))
        harness.send("session.update", ["session": ["turn_detection": .null]])
        // The user holds the button for 2.5 s: no VAD, but the appended audio is their input.
        harness.appendSilence(ms: 2_500)
        #expect(harness.closes.isEmpty)
        harness.send("input_audio_buffer.commit")
        harness.send("response.create")
        harness.advance(ms: 8_000)
        #expect(harness.events("response.done").count == 1)
        // Idle after the answer has played: the session ends.
        #expect(harness.closes.count == 1)
    }

    @Test func aUserTextItemRestartsTheClock() {
        let harness = Self.harness(Self.idle(1_000))
        harness.advance(ms: 800)
        harness.send(
            "conversation.item.create",
            ["item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "hi"]]]])
        harness.advance(ms: 900)
        #expect(harness.closes.isEmpty)
        harness.advance(ms: 200)
        #expect(harness.closes.first?.atMicros == 1_800_000)
    }

    @Test func endOfTurnSilenceIsTheServerVADsSilenceNotADelay() throws {
        func turn(
            _ policies: SessionPolicies, session: JSONObject = ["turn_detection": ["type": "server_vad"]]
        ) throws
            -> QwenHarness
        {
            let harness = Self.harness(policies)
            harness.send("session.update", ["session": .object(session)])
            harness.appendAudio(try Fixtures.paddedSpeech())
            harness.appendSilence(ms: 4_000)
            return harness
        }
        func times(_ harness: QwenHarness) throws -> (stopped: Int64, created: Int64) {
            let stopped = try #require(harness.received.first { $0.type == "input_audio_buffer.speech_stopped" })
            let created = try #require(harness.received.first { $0.type == "response.created" })
            return (stopped.atMicros, created.atMicros)
        }
        let standard = try turn(SessionPolicies())
        let longer = try turn(SessionPolicies(endOfTurnSilenceMs: 1_600))
        #expect(longer.events("session.created").first?["session"]?["turn_detection"]?["silence_duration_ms"] == 1600)
        #expect(longer.events("session.updated").first?["session"]?["turn_detection"]?["silence_duration_ms"] == 1600)
        let (a, b) = (try times(standard), try times(longer))
        #expect(abs((b.stopped - a.stopped) - 800_000) <= 100_000)
        #expect(b.created - b.stopped == a.created - a.stopped)
        // A client's own silence_duration_ms wins.
        let own = try turn(
            SessionPolicies(endOfTurnSilenceMs: 1_600),
            session: ["turn_detection": ["type": "server_vad", "silence_duration_ms": 800]])
        #expect(abs(try times(own).stopped - a.stopped) <= 100_000)
    }

    @Test func voicePlaybackOffAnswersInTheTextModality() throws {
        let harness = Self.harness(SessionPolicies(voicePlayback: false))
        harness.send("session.update", ["session": Self.serverVAD])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 6_000)
        let done = try #require(harness.events("response.done").first)
        #expect(done["response"]?["modalities"] == ["text"])
        #expect(harness.events("response.audio.delta").isEmpty)
        #expect(!harness.events("response.text.delta").isEmpty)
    }

    @Test func theAIBudsProfileEndsAfterPlaybackAndReports() throws {
        let scenario = try Scenario.load(
            bytes: try FileBytes.read(path: Fixtures.directory + "/../../../mock-server/scenarios/aibuds.json"),
            file: "aibuds.json")
        let harness = QwenHarness(scenario: scenario)
        harness.send("session.update", ["session": [:]])
        // The device's Opus is decoded by the app and appended as PCM (SEED-004 "Usage Examples").
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 30_000)
        let close = try #require(harness.closes.first)
        let done = try #require(harness.received.first { $0.type == "response.done" })
        #expect(close.atMicros > done.atMicros + 14_000_000)
        let report = try #require(Self.reports(harness).first)
        #expect(Self.reports(harness).count == 1)
        #expect(report["profile"] == "aibuds")
        #expect(report["endReason"] == "idle")
        #expect(report["turns"] == 1)
        #expect(report["answers"] == 1)
        #expect((report["userSpeechMs"]?.intValue ?? 0) > 1_000)
    }

    @Test func sessionFinishReportsAClientStop() throws {
        var policies = SessionPolicies()
        policies.sessionReport = true
        let harness = Self.harness(policies, model: "qwen3-omni-flash-realtime")
        harness.send("session.finish")
        harness.advance(ms: 100)
        #expect(Self.reports(harness).first?["endReason"] == "clientStop")
    }
}
