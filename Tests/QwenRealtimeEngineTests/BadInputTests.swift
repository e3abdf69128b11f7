import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// S20 and the bad-input families: invalid JSON, non-objects, unknown types, binary frames,
/// bad base64, odd lengths, event ids (C2, C3, C8). The connection is always kept.
@Suite struct BadInputTests {
    static func configured() -> QwenHarness {
        let harness = QwenHarness()
        harness.send("session.update", ["session": ["turn_detection": .null]])
        return harness
    }

    /// After any bad input the session still answers a valid update.
    static func expectStillServing(_ harness: QwenHarness) {
        harness.send("session.update", ["session": ["instructions": "still here"]])
        #expect(harness.types.last == "session.updated")
        #expect(harness.closes.isEmpty)
    }

    @Test(arguments: ["{not json", "[1,2]", "\"text\"", "{\"event_id\":\"e1\"}", "{\"type\":42}"])
    func malformedFramesGetInvalidJSON(text: String) {
        let harness = Self.configured()
        harness.sendText(text)
        #expect(harness.events("error").first?["error"]?["code"] == "invalid_json")
        #expect(harness.violations == ["qrt.C2"])
        Self.expectStillServing(harness)
    }

    @Test func unknownTypesGetUnknownEvent() {
        let harness = Self.configured()
        let id = harness.send("conversation.item.truncate")
        let error = harness.events("error").first?["error"]
        #expect(error?["code"] == "unknown_event")
        #expect(error?["event_id"]?.stringValue == id)
        #expect(harness.violations == ["qrt.C2"])
        Self.expectStillServing(harness)
    }

    @Test func binaryFramesAreRefused() {
        let harness = Self.configured()
        harness.apply(harness.session.receive(binary: [0, 1, 2, 3]))
        #expect(harness.events("error").first?["error"]?["type"] == "invalid_request_error")
        #expect(harness.violations == ["qrt.C2"])
        Self.expectStillServing(harness)
    }

    @Test(arguments: ["@@@@", "AAA", "AA=A", "AAAAA==="])
    func badBase64AudioIsRefused(audio: String) {
        let harness = Self.configured()
        harness.send("input_audio_buffer.append", ["audio": .string(audio)])
        let error = harness.events("error").first?["error"]
        #expect(error?["code"] == "invalid_value")
        #expect(error?["param"] == "audio")
        #expect(harness.violations.first == "qrt.C8")
        Self.expectStillServing(harness)
    }

    /// A WAV file appended whole (header included) where pcm16 was declared: journaled once as a
    /// C8 MUST breach; the session goes on (the bytes are heard as samples, as the service would).
    @Test func aWAVFileInAnAppendIsJournaledOnce() {
        let harness = Self.configured()
        let wav = WAVFile.encode(PCMBuffer(samples: [Int16](repeating: 100, count: 1600), sampleRate: 16000))
        for _ in 0..<3 { harness.send("input_audio_buffer.append", ["audio": .string(Base64.encode(wav))]) }
        #expect(harness.violations == ["qrt.C8"], "\(harness.violations)")
        var messages: [String] = []
        for case .violation(_, let message) in harness.notes { messages.append(message) }
        #expect(messages.contains { $0.contains("RIFF/WAVE file header") }, "\(messages)")
        #expect(harness.events("error").isEmpty)
        Self.expectStillServing(harness)
    }

    @Test func oddByteCountsAreRefused() {
        let harness = Self.configured()
        harness.send("input_audio_buffer.append", ["audio": .string(Base64.encode([1, 2, 3]))])
        #expect(harness.events("error").first?["error"]?["param"] == "audio")
        #expect(harness.violations.contains("qrt.C8"))
    }

    @Test func eventIDsMustBeUniqueStrings() {
        let harness = Self.configured()
        harness.sendText("{\"type\":\"session.update\",\"session\":{},\"event_id\":7}")
        harness.send("session.update", ["session": [:]], eventID: "event_same")
        harness.send("session.update", ["session": [:]], eventID: "event_same")
        #expect(harness.violations == ["qrt.C3", "qrt.C3"])
        #expect(harness.events("session.updated").count == 4)
    }

    @Test func fastAudioIsJournaledOnce() {
        let harness = Self.configured()
        let chunk = Base64.encode([UInt8](repeating: 0, count: 3200))
        for _ in 0..<40 { harness.send("input_audio_buffer.append", ["audio": .string(chunk)]) }
        #expect(harness.violations == ["qrt.C8"])
    }
}
