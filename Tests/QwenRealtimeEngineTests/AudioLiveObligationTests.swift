import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import SessionTesting
import Testing
import WireAudio
import WireJSON

/// Issue 42: every client obligation the Qwen-Audio-Live engine judges is journaled under its
/// own `qal.*` id (conformance/protocols/qwen-audio-live), never a `qrt.*` one.
@Suite struct AudioLiveObligationTests {
    typealias Client = QwenAudioLiveClientEvent
    typealias Server = QwenAudioLiveServerEvent

    func errorCodes(_ harness: QwenHarness) -> [String] {
        harness.events(Server.error.rawValue).compactMap { $0["error"]?["code"]?.stringValue }
    }

    func expectOnlyLiveIDs(_ harness: QwenHarness) {
        #expect(harness.violations.allSatisfy { $0.hasPrefix("qal.") }, "\(harness.violations)")
    }

    // MARK: - Framing and ids (qal.C2, qal.C3)

    @Test func c2UnknownTypesNonObjectsAndBinaryFrames() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send("input_audio_buffer.append", ["audio": ""])
        harness.send("session.nonsense")
        harness.sendText("[1, 2]")
        harness.runner.receive(binary: [1, 2, 3, 4])
        harness.advance(ms: 10)
        #expect(harness.violations.filter { $0 == "qal.C2" }.count == 4)
        #expect(errorCodes(harness).filter { $0 == "unknown_event" }.count == 2)
        let unknown = try #require(harness.events(Server.error.rawValue).first?["error"])
        #expect(unknown["client_event_id"]?.stringValue != nil, "errors echo the request's event_id")
        expectOnlyLiveIDs(harness)
    }

    @Test func c3SessionUpdateNeedsAnEventIDOfAtMost128Characters() {
        for id in ["", String(repeating: "e", count: 129)] {
            let harness = AudioLiveHarness.harness()
            harness.send(Client.sessionUpdate.rawValue, ["session": .object(AudioLiveHarness.session())], eventID: id)
            harness.advance(ms: 10)
            #expect(harness.violations.contains("qal.C3"), "\(id.count)")
            #expect(harness.events(Server.sessionUpdated.rawValue).isEmpty)
            #expect(errorCodes(harness) == ["invalid_value"])
        }
        let harness = AudioLiveHarness.harness()
        harness.send(
            Client.sessionUpdate.rawValue, ["session": .object(AudioLiveHarness.session())],
            eventID: String(repeating: "e", count: 128))
        harness.advance(ms: 10)
        #expect(harness.violations.isEmpty)
    }

    @Test func c3OtherEventsMalformedOrRepeatedIDsAreShouldNotes() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(Client.inputAudioMute.rawValue, eventID: "same")
        harness.send(Client.inputAudioUnmute.rawValue, eventID: "same")
        harness.send(Client.inputAudioMute.rawValue, eventID: String(repeating: "x", count: 200))
        let should = harness.notes.filter {
            if case .violation("qal.C3", let message) = $0 { return message.hasPrefix("SHOULD") }
            return false
        }
        #expect(should.count == 2)
        #expect(harness.events(Server.inputAudioMuted.rawValue).count == 2, "answered all the same")
        harness.sendText(#"{"type":"session.input_audio.unmute","event_id":7}"#)
        #expect(harness.violations.count == 3, "a number as event_id is a SHOULD note too")
        #expect(
            harness.notes.contains {
                if case .violation("qal.C3", let message) = $0 {
                    message.hasPrefix("SHOULD: event_id must be a string")
                } else {
                    false
                }
            })
        harness.sendText(#"{"type":"session.update","event_id":7,"session":{}}"#)
        #expect(harness.events(Server.sessionUpdated.rawValue).count == 1, "refused: session.update needs a string id")
    }

    // MARK: - Order and configuration (qal.C4, qal.C5)

    @Test func c4AudioBeforeSessionUpdatedIsIgnoredWithOneError() {
        let harness = AudioLiveHarness.harness()
        harness.appendEvent = Client.inputAudioAppend.rawValue
        harness.appendAudio(PCMBuffer.silence(milliseconds: 500, sampleRate: 16_000))
        #expect(harness.violations.contains("qal.C4"))
        #expect(errorCodes(harness) == ["invalid_state"], "one error for the whole early audio")
        harness.send(Client.commentaryAppend.rawValue, ["delegation_id": .null, "content": "x"])
        #expect(harness.events(Server.commentaryAppended.rawValue).isEmpty, "not answered before session.updated")
        expectOnlyLiveIDs(harness)
    }

    @Test func c4AudioBeforeAnySessionUpdateIsNotHeard() throws {
        let harness = AudioLiveHarness.harness()
        try AudioLiveHarness.speak(harness, silenceMs: 2_000)
        #expect(harness.events(Server.inputTranscriptDelta.rawValue).isEmpty)
        #expect(harness.events(Server.outputAudioDelta.rawValue).isEmpty)
    }

    /// Refused `session.update`s by label.
    static let refusedSessions: [String: JSONObject] = {
        var withoutModel = AudioLiveHarness.session()
        withoutModel["model"] = nil
        var withoutDelegation = AudioLiveHarness.session()
        withoutDelegation["delegation"] = nil
        return [
            "missing model": withoutModel, "missing delegation": withoutDelegation,
            "unknown frontend model": AudioLiveHarness.session(model: "qwen-audio-9.9-realtime"),
            "bad delegation": AudioLiveHarness.session(delegation: "server"),
            "duplex on flash": AudioLiveHarness.session(
                model: "qwen-audio-3.1-realtime-flash", ["turn_detection": ["type": "duplex"]]),
        ]
    }()

    @Test(arguments: refusedSessions.keys.sorted())
    func c5RefusedSessionUpdates(label: String) throws {
        let session = try #require(Self.refusedSessions[label])
        let harness = AudioLiveHarness.harness()
        harness.send(Client.sessionUpdate.rawValue, ["session": .object(session)])
        harness.advance(ms: 10)
        #expect(harness.violations == ["qal.C5"], "\(label)")
        #expect(harness.events(Server.sessionUpdated.rawValue).isEmpty, "\(label)")
        #expect(harness.closes.isEmpty, "the session stays open")
    }

    @Test func c5DuplexIsAcceptedOnThePreviewModelAndAnyVoiceString() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(
            harness, AudioLiveHarness.session(["turn_detection": ["type": "duplex"], "voice": "any-voice"]))
        let session = try #require(harness.events(Server.sessionUpdated.rawValue).first?["session"])
        #expect(session["turn_detection"]?["type"]?.stringValue == "duplex")
        #expect(session["voice"]?.stringValue == "any-voice")
        #expect(harness.violations.isEmpty)
    }

    // MARK: - Audio and transport (qal.C6, qal.C7)

    @Test func c6OddLengthAndBadBase64() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(Client.inputAudioAppend.rawValue, ["audio": .string(Base64.encode([1, 2, 3]))])
        harness.send(Client.inputAudioAppend.rawValue, ["audio": "not base64!"])
        #expect(harness.violations == ["qal.C6", "qal.C6"])
    }

    @Test func c6ARateMislabelIsFiledUnderTheDialectsAudioObligation() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.appendAudio(PCMBuffer.silence(milliseconds: 2_000, sampleRate: 16_000), rate: 48_000, chunkMs: 20)
        let mislabels = harness.notes.filter {
            if case .violation(DialogProtocol.qwenAudioLive.audioFormatObligation, let message) = $0 {
                return message.contains("audio looks like")
            }
            return false
        }
        #expect(mislabels.count == 1)
        expectOnlyLiveIDs(harness)
    }

    @Test func c7AudioOnTheWebSocketAfterDeclaringAOQ() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(
            harness, AudioLiveHarness.session(["transport": ["type": "aoq", "aoq": ["ws_audio": false]]]))
        #expect(errorCodes(harness) == ["transport_unsupported"])
        #expect(harness.violations.isEmpty, "asking for AOQ is no breach")
        AudioLiveHarness.configure(harness)
        harness.send(Client.inputAudioAppend.rawValue, ["audio": .string(Base64.encode([0, 0, 0, 0]))])
        #expect(errorCodes(harness).last == "audio_requires_aoq_media")
        #expect(harness.violations == ["qal.C7"])
    }

    @Test func rtcIsRefusedAndTheSessionStaysOnTheWebSocket() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(["transport": ["type": "rtc", "sdp": "v=0"]]))
        #expect(errorCodes(harness) == ["transport_unsupported"])
        #expect(harness.events(Server.sessionUpdated.rawValue).isEmpty, "the configuration is unchanged")
        AudioLiveHarness.configure(harness, AudioLiveHarness.session(["transport": ["type": "websocket"]]))
        let updated = harness.events(Server.sessionUpdated.rawValue)
        #expect(updated.count == 1)
        #expect(updated.first?["session"]?["transport"]?["type"]?.stringValue == "websocket")
        harness.appendSilence(ms: 100)
        #expect(harness.violations.isEmpty)
    }

    // MARK: - Calls and the end (qal.C8, qal.C10)

    @Test func c8AnOutputForAnUnknownCallID() {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(
            Client.itemCreate.rawValue,
            ["item": ["type": "function_call_output", "call_id": "call_nobody", "output": "{}"]])
        #expect(harness.violations == ["qal.C8"])
        #expect(errorCodes(harness) == ["invalid_value"])
    }

    @Test func c10EventsAfterSessionClosed() throws {
        let harness = AudioLiveHarness.harness()
        AudioLiveHarness.configure(harness)
        harness.send(Client.sessionClose.rawValue)
        harness.advance(ms: 100)
        #expect(harness.events(Server.sessionClosed.rawValue).count == 1)
        harness.send(Client.inputAudioMute.rawValue)
        #expect(harness.violations.isEmpty, "in flight: sent before session.closed could be read")
        harness.advance(ms: 400)
        harness.send(Client.inputAudioMute.rawValue)
        harness.send(Client.inputAudioAppend.rawValue, ["audio": .string(Base64.encode([0, 0]))])
        #expect(harness.violations == ["qal.C10", "qal.C10"])
        #expect(harness.events(Server.inputAudioMuted.rawValue).isEmpty, "dropped")
    }
}
