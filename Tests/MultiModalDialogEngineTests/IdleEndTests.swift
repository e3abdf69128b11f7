import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// The AIBuds policies on the multimodal protocol (SEED-004 "Configuration"): the idle end
/// counts time without user speech or text and is held while the answer is produced and played;
/// the end-of-turn silence is the VAD's; voice playback off sends text only; the final report.
@Suite struct IdleEndTests {
    static func scenario(_ policies: SessionPolicies, answer: String = "It is sunny and warm.") -> Scenario {
        Scenario(
            name: "idle", seed: 3, policies: policies,
            turns: TurnScript(list: [TurnContent(transcript: "What is the weather like today", answer: answer)]))
    }

    static func idlePolicies(_ ms: Double) -> SessionPolicies {
        SessionPolicies(idleEndMs: ms, serverSilenceTimeoutMs: nil, audioGapTimeoutMs: nil)
    }

    /// The session's end: `task-failed` with the service's documented no-interaction shape.
    static func ended(_ harness: SessionHarness) -> Bool { harness.events.contains("task-failed") }

    @Test("idle end: task-failed{ResponseTimeout, \"Response timeout!\"} and close; a later frame is C22")
    func idleEndShape() throws {
        let harness = SessionHarness(scenario: Self.scenario(Self.idlePolicies(1_000)))
        harness.start()
        harness.advance(ms: 700)
        #expect(!Self.ended(harness))
        harness.advance(ms: 200)
        #expect(harness.events.last == "task-failed")
        let failed = try #require(harness.texts.last)
        #expect(failed["header"]?["error_code"] == "ResponseTimeout")
        #expect(failed["header"]?["error_message"] == "Response timeout!")
        #expect(harness.closes.count == 1)
        harness.directive("HeartBeat")
        #expect(harness.violations == ["mmd.C22"])
    }

    @Test("idle end: streamed silence is no input and does not hold the session open")
    func streamedSilenceDoesNotHoldTheSession() throws {
        let harness = SessionHarness(scenario: Self.scenario(Self.idlePolicies(1_000)))
        harness.start()
        let startedAt = harness.now
        harness.stream(PCMBuffer.silence(milliseconds: 3_000, sampleRate: 16000)) { Self.ended($0) }
        #expect(Self.ended(harness))
        let end = try #require(harness.closes.first?.atMicros)
        #expect(end - startedAt <= 1_100_000)
    }

    @Test("idle end: an answer longer than the idle time is not cut; the clock restarts at LocalRespondingEnded")
    func answerAndPlaybackHoldTheClock() throws {
        let long = String(repeating: "The weather today is sunny and warm with a light breeze. ", count: 3)
        // 2 s: the fixture's speech begins about 1.3 s into the session.
        let harness = SessionHarness(scenario: Self.scenario(Self.idlePolicies(2_000), answer: long))
        harness.start()
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        harness.advance(until: "RespondingEnded")
        #expect(!Self.ended(harness))
        let answerStart = try #require(harness.sent.first { $0.eventType == "RespondingStarted" }?.sendAtMicros)
        let answerEnd = try #require(harness.sent.last { !$0.isText }?.sendAtMicros)
        #expect(answerEnd - answerStart > 2_000_000)
        // The client plays the answer for a while longer, then reports the end of playback.
        harness.directive("LocalRespondingStarted")
        harness.advance(ms: 1_500)
        #expect(!Self.ended(harness))
        harness.directive("LocalRespondingEnded")
        let playedAt = harness.now
        harness.advance(ms: 1_900)
        #expect(!Self.ended(harness))
        harness.advance(ms: 200)
        #expect(Self.ended(harness))
        #expect(try #require(harness.closes.first?.atMicros) - playedAt == 2_000_000)
    }

    @Test("idle end: user input restarts the clock (push2talk SendSpeech, RequestToRespond)")
    func userInputRestartsTheClock() {
        let harness = SessionHarness(scenario: Self.scenario(Self.idlePolicies(1_000)))
        harness.start(["upstream": ["mode": "push2talk"]])
        harness.advance(ms: 600)
        harness.directive("SendSpeech")
        harness.advance(ms: 100)
        harness.directive("CancelSpeech")
        let cancelledAt = harness.now
        harness.advance(ms: 900)
        #expect(!Self.ended(harness))
        harness.advance(ms: 200)
        #expect(Self.ended(harness))
        #expect(harness.closes.first?.atMicros == cancelledAt + 1_000_000)

        // A prompt is a text turn: the clock restarts and holds until Listening returns.
        let typed = SessionHarness(scenario: Self.scenario(Self.idlePolicies(1_000)))
        typed.start()
        typed.advance(ms: 600)
        typed.directive("RequestToRespond", input: ["type": "prompt", "text": "Tell me something"])
        typed.advance(until: "RespondingEnded")
        typed.directive("LocalRespondingStarted")
        typed.directive("LocalRespondingEnded")
        let listeningAt = typed.now
        #expect(!Self.ended(typed))
        typed.advance(ms: 1_100)
        #expect(typed.closes.first?.atMicros == listeningAt + 1_000_000)
    }

    @Test("end-of-turn silence: endOfTurnSilenceMs is the VAD's silence, not a delay added after it")
    func endOfTurnSilenceIsTheVADs() throws {
        func speechEnded(_ silenceMs: Double?) throws -> (ended: Int64, responding: Int64) {
            let harness = SessionHarness(scenario: Self.scenario(SessionPolicies(endOfTurnSilenceMs: silenceMs)))
            harness.start()
            harness.streamUntilSpeechEnded(try TestScenarios.speech())
            harness.advance(until: "RespondingStarted")
            let ended = try #require(harness.sent.first { $0.eventType == "SpeechEnded" }?.sendAtMicros)
            let responding = try #require(harness.sent.first { $0.eventType == "RespondingStarted" }?.sendAtMicros)
            return (ended, responding)
        }
        let standard = try speechEnded(nil)
        let longer = try speechEnded(1_600)
        // 800 ms more silence before the turn ends; the answer follows the end as quickly as before.
        #expect(abs((longer.ended - standard.ended) - 800_000) <= 100_000)
        #expect(longer.responding - longer.ended == standard.responding - standard.ended)
    }

    @Test("voicePlayback false: the answer goes out as text only, without audio frames")
    func voicePlaybackOffIsTextOnly() throws {
        let harness = SessionHarness(scenario: Self.scenario(SessionPolicies(voicePlayback: false)))
        harness.start()
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        harness.advance(until: "RespondingEnded")
        #expect(harness.audioFrames.isEmpty)
        #expect(harness.outputs("RespondingContent").last?["text"] == "It is sunny and warm.")
    }

    @Test("the aibuds profile: Opus uplink, answer, auto-end 15 s after playback, final report journaled")
    func aibudsProfile() throws {
        let scenario = try Scenario.load(
            bytes: try FileBytes.read(path: TestScenarios.repositoryRoot + "/mock-server/scenarios/aibuds.json"),
            file: "aibuds.json")
        let harness = SessionHarness(scenario: scenario)
        harness.start(["upstream": ["audio_format": "raw-opus"]])
        let packets = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20).encode(try TestScenarios.speech())
        for packet in packets {
            harness.sendBinary(packet)
            harness.advance(ms: 20)
        }
        harness.advance(until: "RespondingEnded")
        harness.directive("LocalRespondingStarted")
        harness.directive("LocalRespondingEnded")
        let playedAt = harness.now
        harness.advance(ms: 14_900)
        #expect(!harness.events.contains("task-failed"))
        harness.advance(ms: 200)
        #expect(harness.closes.first?.atMicros == playedAt + 15_000_000)
        let reports = harness.journal.compactMap { if case .report(let json) = $0 { json } else { nil } }
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report["profile"] == "aibuds")
        #expect(report["endReason"] == "idle")
        #expect(report["turns"] == 1)
        #expect(report["answers"] == 1)
        #expect((report["userSpeechMs"]?.intValue ?? 0) > 1_000)
        #expect((report["answerAudioMs"]?.intValue ?? 0) > 500)
    }

    @Test("session report: Stop ends with clientStop; no report without the policy")
    func reportOnStop() throws {
        var policies = SessionPolicies()
        policies.sessionReport = true
        let harness = SessionHarness(scenario: Self.scenario(policies))
        harness.start()
        harness.directive("Stop")
        let report = harness.journal.compactMap { if case .report(let json) = $0 { json } else { nil } }
        #expect(report.first?["endReason"] == "clientStop")
        #expect(report.first?["turns"] == 0)
        let plain = SessionHarness(scenario: Self.scenario(SessionPolicies()))
        plain.start()
        plain.directive("Stop")
        #expect(!plain.journal.contains { if case .report = $0 { true } else { false } })
    }
}
