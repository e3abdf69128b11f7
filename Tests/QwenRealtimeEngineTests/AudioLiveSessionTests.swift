import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Issue 42: a Qwen-Audio-Live session through the real session driver: the documented flow
/// (DOC-QAL-WS), `session.created`, usage reports and the ends.
@Suite struct AudioLiveSessionTests {
    typealias Server = QwenAudioLiveServerEvent

    // MARK: - The flow

    @Test func aClientThatDoesNothingGetsNoAnswer() {
        let harness = AudioLiveHarness.harness()
        harness.advance(ms: 12_000)
        let answered: Set<String> = [
            Server.sessionUpdated.rawValue, Server.outputAudioDelta.rawValue, Server.outputTranscriptDelta.rawValue,
            Server.inputTranscriptDelta.rawValue, Server.sessionClosed.rawValue,
        ]
        #expect(harness.types.first == Server.sessionCreated.rawValue)
        #expect(!harness.types.contains(where: answered.contains))
        #expect(harness.states == ["Idle"], "no listening, responding or closed state")
        #expect(harness.violations.isEmpty)
    }

    @Test func sessionCreatedCarriesTheDocumentedSession() throws {
        let harness = AudioLiveHarness.harness()
        let session = try #require(harness.events(Server.sessionCreated.rawValue).first?["session"])
        #expect(session["id"]?.stringValue?.hasPrefix("sess_") == true)
        #expect(session["object"]?.stringValue == "realtime.session")
        #expect(session["model"]?.stringValue == QwenAudioLive.duplexModel)
        #expect(session["voice"]?.stringValue == "yunshu")
        #expect(session["model_inference"]?.boolValue == true)
        #expect(session["input_audio_transcription"]?["model"]?.stringValue != nil)
        let detection = try #require(session["turn_detection"])
        #expect(detection["type"]?.stringValue == "server_vad")
        #expect(detection["create_response"]?.boolValue == true)
        #expect(detection["interrupt_response"]?.boolValue == true)
        for key in ["threshold", "prefix_padding_ms", "silence_duration_ms"] {
            #expect(detection[key] != nil, "\(key)")
        }
        let other = AudioLiveHarness.harness()
        #expect(other.events(Server.sessionCreated.rawValue).first?["session"]?["id"] != nil)
    }

    @Test func theDocumentedFlowGivesAFullTurnAndACleanClose() throws {
        let harness = AudioLiveHarness.harness()
        let updateID = harness.send(
            QwenAudioLiveClientEvent.sessionUpdate.rawValue,
            ["session": .object(AudioLiveHarness.session(["voice": "xiaoman"]))])
        harness.advance(ms: 10)
        let updated = try #require(harness.events(Server.sessionUpdated.rawValue).first)
        #expect(updated["client_event_id"]?.stringValue == updateID)
        #expect(updated["session"]?["voice"]?.stringValue == "xiaoman")
        #expect(updated["session"]?["model"]?.stringValue == QwenAudioLive.duplexModel)
        try AudioLiveHarness.speak(harness)
        #expect(AudioLiveHarness.text(harness, .inputTranscriptDelta) == AudioLiveHarness.turn.transcript)
        #expect(AudioLiveHarness.text(harness, .outputTranscriptDelta) == AudioLiveHarness.turn.answer)
        let audio = harness.received.filter { $0.type == Server.outputAudioDelta.rawValue }
        let bytes = AudioLiveHarness.answerAudioBytes(harness)
        #expect(bytes > 24_000, "at least half a second of 24 kHz PCM16")
        // Real-time pace: the audio is spread over most of its own length.
        let span = (audio.last?.atMicros ?? 0) - (audio.first?.atMicros ?? 0)
        let duration = Int64(bytes / 2) * 1_000_000 / Int64(QwenAudioLive.outputSampleRate)
        #expect(span >= duration / 2, "\(span) µs for \(duration) µs of audio")
        #expect(!harness.types.contains(where: { $0.hasPrefix("response.") || $0.hasPrefix("conversation.") }))
        let closeID = harness.send(QwenAudioLiveClientEvent.sessionClose.rawValue)
        harness.advance(ms: 100)
        let closed = try #require(harness.events(Server.sessionClosed.rawValue).first)
        #expect(closed["reason"]?.stringValue == "close_requested")
        #expect((closed["usage"]?["seconds"]?.intValue ?? 0) >= 10)
        #expect(harness.types.last == Server.sessionClosed.rawValue)
        #expect(harness.closes.map(\.code) == [1000])
        #expect(harness.violations.isEmpty, "\(harness.notes)")
        #expect(closeID != updateID)
        #expect(harness.states.contains("Responding") && harness.states.last == "Closed")
    }

    // MARK: - Usage and ends

    @Test func usageIsReportedEveryFiveSecondsOfTheScenarioClock() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.appendSilence(ms: 16_000)
        let usage = harness.received.filter { $0.type == Server.usageUpdated.rawValue }
        #expect(usage.map(\.atMicros) == [5_000_000, 10_000_000, 15_000_000])
        #expect(usage.compactMap { $0.json["usage"]?["seconds"]?.intValue } == [5, 10, 15])
    }

    @Test func theSessionCapExpiresTheSession() throws {
        let harness = AudioLiveHarness.harness(policies: SessionPolicies(sessionCapMs: 3_000))
        AudioLiveHarness.configure(harness)
        harness.appendSilence(ms: 4_000)
        let closed = try #require(harness.events(Server.sessionClosed.rawValue).first)
        #expect(closed["reason"]?.stringValue == "expired")
        #expect(closed["usage"]?["seconds"]?.intValue == 3)
        #expect(harness.closes.map(\.code) == [1000])
    }

    @Test func theIdleEndExpiresTheSession() throws {
        let harness = AudioLiveHarness.harness(policies: SessionPolicies(idleEndMs: 2_000))
        AudioLiveHarness.configure(harness)
        harness.advance(ms: 3_000)
        let closed = try #require(harness.events(Server.sessionClosed.rawValue).first)
        #expect(closed["reason"]?.stringValue == "expired")
        #expect(harness.closes.count == 1)
    }

    @Test func aFatalScriptedErrorSendsTheErrorAndCloses1011() throws {
        let fatal = ErrorSpec(code: "InternalError", message: "mock: service failure", fatal: true)
        let harness = AudioLiveHarness.harness([TurnContent(transcript: "Hi.", errors: [fatal])])
        AudioLiveHarness.configure(harness)
        try AudioLiveHarness.speak(harness, silenceMs: 2_000)
        let error = try #require(harness.events(Server.error.rawValue).first?["error"])
        #expect(error["code"]?.stringValue == "InternalError")
        #expect(error["message"]?.stringValue == "mock: service failure")
        #expect(harness.closes.map(\.code) == [1011])
    }

    @Test func audioIsJournaledAsPCMSummaries() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        let chunk = PCMBuffer.silence(milliseconds: 100, sampleRate: 16_000).littleEndianBytes
        let frame: JSONValue = [
            "type": .string(QwenAudioLiveClientEvent.inputAudioAppend.rawValue), "audio": .string(Base64.encode(chunk)),
        ]
        let inbound = harness.session.audioSummary(ofText: frame, eventType: frame["type"]?.stringValue, inbound: true)
        #expect(inbound?.durationMs == 100)
        let delta: JSONValue = [
            "type": .string(Server.outputAudioDelta.rawValue), "delta": .string(Base64.encode(chunk)),
        ]
        let outbound = harness.session.audioSummary(
            ofText: delta, eventType: delta["type"]?.stringValue, inbound: false)
        #expect(outbound?.sampleRate == QwenAudioLive.outputSampleRate)
    }
}
