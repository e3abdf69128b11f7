import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

@Suite("9.3–9.5 push2talk, duplex barge-in, interrupt (S7, S10)")
struct SpeechModeTests {
    /// A script whose first answer is long enough to interrupt mid-stream.
    static let longAnswer = Scenario(
        name: "long", seed: 9,
        turns: TurnScript(list: [
            TurnContent(
                transcript: "Tell me a story",
                answer: """
                    Once upon a time there was a small robot who loved to listen to the rain on the roof \
                    and to count the drops as they fell, one by one, all through the long grey afternoon.
                    """),
            TurnContent(transcript: "Stop please", answer: "Okay."),
        ]))

    @Test("9.3: push2talk SendSpeech → audio → StopSpeech gives the final transcript and an answer")
    func pushToTalkTurn() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["mode": "push2talk"]])
        harness.directive("SendSpeech")
        harness.stream(try TestScenarios.speech("speech-16k.wav"))
        harness.directive("StopSpeech")
        harness.advance(until: "RespondingEnded")
        #expect(
            Array(harness.events.prefix(5)) == [
                "task-started", "Started", "DialogStateChanged", "SpeechStarted", "SpeechContent",
            ])
        let final = try #require(harness.outputs("SpeechContent").last)
        #expect(final["finished"] == true)
        #expect(final["text"] == "What is the weather like today")
        #expect(harness.states == ["Listening", "Thinking", "Responding"])
        harness.directive("LocalRespondingEnded")
        #expect(harness.states.last == "Listening")
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    @Test("9.3 cancel: CancelSpeech discards the utterance, no answer; audio outside the bracket is C10")
    func pushToTalkCancel() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["mode": "push2talk"]])
        harness.stream(try TestScenarios.speech("silence-16k.wav").slice(fromMs: 0, toMs: 300))
        #expect(harness.violations == ["mmd.C10"])
        harness.directive("SendSpeech")
        harness.stream(try TestScenarios.speech("speech-16k.wav"))
        harness.directive("CancelSpeech")
        harness.advance(ms: 5_000)
        #expect(harness.events.contains("SpeechEnded"))
        #expect(harness.outputs("SpeechContent").allSatisfy { $0["finished"] == false })
        #expect(harness.states == ["Listening"])
        #expect(!harness.events.contains("RespondingStarted"))
        harness.directive("StopSpeech")
        #expect(harness.violations == ["mmd.C10", "mmd.C10"])
    }

    @Test(
        "9.4: duplex voice barge-in stops the answer audio at once, SpeechStarted then Listening, and the new turn continues"
    )
    func duplexVoiceBargeIn() throws {
        let harness = SessionHarness(scenario: Self.longAnswer)
        harness.start(["upstream": ["mode": "duplex"]])
        let padded = try TestScenarios.speech()
        harness.stream(padded)
        #expect(harness.events.contains("RespondingStarted"))
        let audioBefore = harness.audioFrames.count
        #expect(audioBefore > 0)
        var second = try TestScenarios.speech("speech-16k.wav")
        second.append(try TestScenarios.speech("silence-16k.wav"))
        harness.stream(second) {
            $0.states.last == "Listening" && $0.events.last == "DialogStateChanged" && $0.states.count > 3
        }
        let bargeIn = try #require(harness.sent.lastIndex { $0.eventType == "DialogStateChanged" })
        #expect(harness.sent[bargeIn - 1].eventType == "SpeechStarted")
        let interruptedAt = harness.sent[bargeIn].sendAtMicros
        harness.stream(try TestScenarios.speech("silence-16k.wav"))
        harness.advance(ms: 20_000)
        let laterAudio = harness.audioFrames.filter { $0.sendAtMicros > interruptedAt }
        let secondRoundStart = harness.sent.last { $0.eventType == "RespondingStarted" }?.sendAtMicros ?? .max
        #expect(laterAudio.allSatisfy { $0.sendAtMicros >= secondRoundStart }, "audio of the interrupted round leaked")
        #expect(harness.outputs("SpeechContent").last?["text"] == "Stop please")
        #expect(
            harness.journal.contains {
                if case .info(let text) = $0 { text.contains("interrupted by voice") } else { false }
            })
    }

    @Test("9.5: RequestToSpeak during Responding stops audio immediately, RequestAccepted then Listening")
    func requestToSpeakInterrupt() throws {
        let harness = SessionHarness(scenario: Self.longAnswer)
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "Tell me a story"])
        harness.advance(ms: 1_000)
        let audioSoFar = harness.audioFrames.count
        #expect(audioSoFar > 10)
        let interruptAt = harness.now
        harness.directive("RequestToSpeak")
        harness.advance(ms: 10_000)
        #expect(harness.audioFrames.count == audioSoFar)
        #expect(harness.audioFrames.allSatisfy { $0.sendAtMicros <= interruptAt })
        #expect(Array(harness.events.suffix(2)) == ["RequestAccepted", "DialogStateChanged"])
        #expect(harness.states == ["Listening", "Thinking", "Responding", "Listening"])
        #expect(!harness.events.contains("RespondingEnded"))
        harness.directive("LocalRespondingEnded")
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    /// Issue 40 row 7: seeds 000/001 "Interrupt" — it returns RequestAccepted; with the
    /// interruption switch off the answer is acknowledged but plays to its end.
    @Test func requestToSpeakOnAnUninterruptibleAnswerIsAcceptedAndTheAnswerPlaysOn() throws {
        var scenario = Self.longAnswer
        scenario.policies.interruptible = false
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "Tell me a story"])
        harness.advance(ms: 1_000)
        let audioSoFar = harness.audioFrames.count
        harness.directive("RequestToSpeak")
        #expect(harness.events.last == "RequestAccepted")
        harness.advance(until: "RespondingEnded")
        #expect(harness.audioFrames.count > audioSoFar)
        #expect(harness.states == ["Listening", "Thinking", "Responding"])
        harness.directive("LocalRespondingEnded")
        harness.advance(ms: 100)
        #expect(harness.states == ["Listening", "Thinking", "Responding", "Listening"])
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    @Test("S10: RequestToSpeak in Listening gets RequestAccepted only, and C20 is journaled")
    func requestToSpeakInListening() {
        let harness = SessionHarness()
        harness.start()
        harness.directive("RequestToSpeak")
        #expect(harness.events.last == "RequestAccepted")
        #expect(harness.states == ["Listening"])
        #expect(harness.violations == ["mmd.C20"])
    }

    @Test("S6: Ogg Opus and raw-opus uplinks are decoded and detect speech like PCM")
    func opusUplink() throws {
        for framing in ["opus", "raw-opus"] {
            let harness = SessionHarness()
            harness.start(["upstream": ["audio_format": .string(framing)]])
            let speech = try TestScenarios.speech()
            let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20)
            let packets = try encoder.encode(speech)
            if framing == "opus" {
                let stream = OggOpusWriter.stream(
                    head: OpusHead(inputSampleRate: 16000), packets: packets, flushEveryPacket: true)
                for (index, piece) in FramePacing.chunk(bytes: stream, size: max(1, stream.count / 46)).enumerated() {
                    // Ogg pages split across frames: no per-frame length the journal could trust.
                    #expect(harness.session.audioSummary(ofBinary: Array(piece), inbound: true) == nil)
                    harness.sendBinary(Array(piece))
                    harness.advance(to: Int64(index + 2) * 100_000 + 200_000)
                }
            } else {
                for packet in packets {
                    // The live journal summarises each bare packet from its TOC (audioFormat / audioPacing read it).
                    #expect(
                        harness.session.audioSummary(ofBinary: packet, inbound: true)
                            == AudioSummary(codec: "opus", durationMs: 20))
                    harness.sendBinary(packet)
                    harness.advance(ms: 20)
                }
            }
            harness.advance(ms: 1_000)
            #expect(harness.events.contains("SpeechStarted"), "\(framing)")
            #expect(harness.events.contains("SpeechEnded"), "\(framing)")
            #expect(!harness.violations.contains("mmd.C9"), "\(framing): \(harness.journal)")
        }
    }

    @Test("C9: undecodable Opus packets are journaled and dropped; the stream after them is still heard")
    func undecodableOpusIsANoteNotAnEnd() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["audio_format": "raw-opus"]])
        // A code-3 TOC announcing zero frames, and a code-3 packet cut short: libopus refuses both.
        for garbage: [UInt8] in [[0x03, 0x00], [0xFB, 0x83], [0x03]] {
            harness.sendBinary(garbage)
            harness.advance(ms: 20)
        }
        #expect(harness.violations.filter { $0 == "mmd.C9" }.count == 3, "\(harness.journal)")
        #expect("\(harness.journal)".contains("undecodable opus frame (2 bytes)"), "\(harness.journal)")
        let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20)
        for packet in try encoder.encode(try TestScenarios.speech()) {
            harness.sendBinary(packet)
            harness.advance(ms: 20)
        }
        harness.advance(ms: 1_000)
        #expect(harness.events.contains("SpeechStarted"))
        #expect(harness.events.contains("SpeechEnded"))
        #expect(!harness.events.contains("task-failed"))
        #expect(harness.violations.filter { $0 == "mmd.C9" }.count == 3, "no note for the good packets")
    }
}
