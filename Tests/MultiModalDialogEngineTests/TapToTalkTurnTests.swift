import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

@Suite("9.2 tap2talk turn, S6, S8, S9")
struct TapToTalkTurnTests {
    @Test(
        "9.2: real speech → SpeechStarted … SpeechEnded, final transcript, Thinking, answer, Listening after LocalRespondingEnded"
    )
    func tapToTalkTurnWithRealSpeech() throws {
        let harness = SessionHarness()
        harness.start()
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        let speechStarted = try #require(harness.index(of: "SpeechStarted"))
        let speechEnded = try #require(harness.index(of: "SpeechEnded"))
        #expect(speechStarted < speechEnded)
        let contents = harness.outputs("SpeechContent")
        #expect(contents.count >= 2)
        #expect(contents.last?["finished"] == true)
        #expect(contents.last?["text"] == "What is the weather like today")
        #expect(contents.dropLast().allSatisfy { $0["finished"] == false })
        // SpeechStarted comes 100 ms after the speech onset at 1.0 s (VAD confirmation).
        let startedAt = harness.sent[speechStarted].sendAtMicros
        #expect((1_050_000...1_400_000).contains(startedAt), "SpeechStarted at \(startedAt)")
        harness.advance(until: "RespondingEnded")
        #expect(harness.states == ["Listening", "Thinking", "Responding"])
        let events = harness.events
        let ordered = ["SpeechEnded", "SpeechContent", "DialogStateChanged", "RespondingStarted", "RespondingEnded"]
        var cursor = try #require(events.firstIndex(of: "SpeechEnded"))
        for name in ordered {
            cursor = try #require(
                events.indices.first { $0 >= cursor && events[$0] == name }, "\(name) after \(cursor)")
        }
        let timeline = harness.timeline
        let firstAudio = try #require(timeline.firstIndex(of: "<audio>"))
        let lastAudio = try #require(timeline.lastIndex(of: "<audio>"))
        #expect(try #require(harness.index(of: "RespondingStarted")) < firstAudio)
        #expect(lastAudio < (try #require(harness.index(of: "RespondingEnded"))))
        let final = try #require(harness.outputs("RespondingContent").last)
        #expect(final["finished"] == true)
        #expect(final["text"] == "It is sunny and warm.")
        #expect(final["round_id"]?.stringValue?.isEmpty == false)
        // S9: still Responding until LocalRespondingEnded.
        harness.directive("LocalRespondingStarted")
        harness.directive("LocalRespondingEnded")
        #expect(harness.states == ["Listening", "Thinking", "Responding", "Listening"])
        #expect(harness.violations.isEmpty, "\(harness.journal)")
    }

    @Test("S8: audio chunks are paced by the cadence: due times follow realTimeFactor, none outside the round")
    func audioPacing() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive(
            "RequestToRespond", input: ["type": "transcript", "text": "One two three four five six seven eight."])
        harness.advance(ms: 10_000)
        let audio = harness.audioFrames
        #expect(audio.count > 5)
        // default cadence: 40 ms chunks at 1.5× real time → 26.7 ms apart
        let gaps = zip(audio.dropFirst(), audio).map { $0.sendAtMicros - $1.sendAtMicros }
        #expect(gaps.allSatisfy { (26_000...27_500).contains($0) }, "\(gaps)")
        let bytes = audio.reduce(0) { $0 + $1.bytes.count }
        let seconds = Double(bytes) / 48_000
        #expect(seconds > 1.5 && seconds < 6, "answer audio \(seconds) s")
    }

    @Test("S9: without LocalRespondingEnded, Listening comes after audio length + 5 s and C19 is journaled")
    func playbackFallback() throws {
        let harness = SessionHarness()
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Hello there."])
        harness.advance(ms: 3_000)
        #expect(harness.states == ["Listening", "Responding"])
        let respondingStarted = harness.sent[try #require(harness.index(of: "RespondingStarted"))].sendAtMicros
        let audioBytes = harness.audioFrames.reduce(0) { $0 + $1.bytes.count }
        let audioMicros = Int64(audioBytes) * 1_000_000 / 48_000
        harness.advance(ms: 10_000)
        #expect(harness.states == ["Listening", "Responding", "Listening"])
        let back = try #require(harness.sent.last { $0.eventType == "DialogStateChanged" })
        #expect(abs(back.sendAtMicros - (respondingStarted + audioMicros + 5_000_000)) < 2_000)
        #expect(harness.violations == ["mmd.C19"])
    }

    @Test("S6: tap2talk ignores audio outside Listening (C11 journaled once) and silence produces no speech events")
    func tapToTalkIgnoresAudioOutsideListening() throws {
        let harness = SessionHarness()
        harness.start()
        harness.stream(try TestScenarios.speech("silence-16k.wav"))
        #expect(!harness.events.contains("SpeechStarted"))
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": "Hello there, how are you."])
        harness.advance(ms: 50)
        harness.stream(try TestScenarios.speech("speech-16k.wav"))
        #expect(!harness.events.contains("SpeechStarted"))
        #expect(harness.violations.filter { $0 == "mmd.C11" }.count == 1)
    }
}
