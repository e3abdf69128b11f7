import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// `input_audio_buffer.append` is read in place (no JSON tree, no copy of the base64 text):
/// for every frame, valid or not, the session must answer exactly as through the JSON tree.
@Suite struct InPlaceAppendTests {
    /// 100 ms of a 300 Hz square wave at 16 kHz.
    static let voiced = Base64.encode(
        PCMBuffer(
            samples: (0..<1600).map { $0 % 53 < 27 ? 12_000 : -12_000 }, sampleRate: 16000
        ).littleEndianBytes)

    /// Frames read in place (`true`) and frames the JSON path must take (`false`).
    static let frames: [(text: String, inPlace: Bool)] = [
        (#"{"event_id":"e1","type":"input_audio_buffer.append","audio":"\#(voiced)"}"#, true),
        (#"{"type":"input_audio_buffer.append","audio":"\#(voiced)"}"#, true),
        // A repeated id (C3).
        (#" { "audio" : "\#(voiced)" ,"type":"input_audio_buffer.append", "event_id":"e1"}  "#, true),
        (#"{"type":"input_audio_buffer.append","audio":"@@@@"}"#, true),  // not base64
        (#"{"type":"input_audio_buffer.append","audio":"AAAA"}"#, true),  // 3 bytes: not whole samples
        (#"{"type":"input_audio_buffer.append","audio":"AAA="}"#, true),  // one sample
        (#"{"type":"input_audio_buffer.append","audio":"AAA"}"#, true),  // length not base64's
        (#"{"type":"input_audio_buffer.append","audio":""}"#, true),
        (#"{"type":"input_audio_buffer.append","audio":"AA==","extra":"x"}"#, false),
        (#"{"type":"input_audio_buffer.append","audio":"AA==","type":"input_audio_buffer.append"}"#, false),
        (#"{"type":"input_audio_buffer.append","event_id":"é1","audio":"AAA="}"#, false),
        (#"{"type":"input_audio_buffer.append","audio":"AA\u003d\u003d"}"#, false),
        (#"{"type":"input_audio_buffer.append","audio":1}"#, false),
        (#"{"type":"input_audio_buffer.append"}"#, false),
        (#"{"type":"input_audio_buffer.commit","audio":"AAA="}"#, false),
        (#"{"type":"input_audio_buffer.append","audio":"AAA="}x"#, false),
    ]

    @Test func everyFrameIsAnsweredAsThroughTheJSONTree() throws {
        let turn = TurnContent(transcript: "What is the weather like today?", answer: "It is sunny and warm today.")
        let inPlace = QwenHarness(scenario: QwenHarness.scenario([turn]))
        let reference = QwenHarness(scenario: QwenHarness.scenario([turn]))
        func both(_ text: String) {
            inPlace.sendText(text)
            reference.sendTextThroughJSONTree(text)
            inPlace.advance(ms: 100)
            reference.advance(ms: 100)
        }
        both(#"{"type":"session.update","session":{"turn_detection":{"type":"server_vad"}}}"#)
        for (text, expected) in Self.frames {
            #expect(
                (inPlace.session.classify(text: Array(text.utf8)).inPlaceAudio != nil) == expected, "\(text.prefix(80))"
            )
            both(text)
        }
        // A spoken turn, so the VAD events, transcription deltas and the response follow too.
        let padded = try Fixtures.paddedSpeech().resampled(to: 16000)
        let speech = PCMBuffer(
            samples: padded.samples + PCMBuffer.silence(milliseconds: 3000, sampleRate: 16000).samples,
            sampleRate: 16000)
        for start in stride(from: 0, to: speech.count, by: 1600) {
            let chunk = speech.slice(samples: start..<min(start + 1600, speech.count))
            both(#"{"type":"input_audio_buffer.append","audio":"\#(Base64.encode(chunk.littleEndianBytes))"}"#)
        }
        inPlace.advance(ms: 5000)
        reference.advance(ms: 5000)
        #expect(inPlace.types.contains("input_audio_buffer.speech_started"))
        #expect(inPlace.types.contains("conversation.item.input_audio_transcription.delta"))
        #expect(inPlace.types.contains("response.done"))
        #expect(inPlace.received.map(\.json) == reference.received.map(\.json))
        #expect(inPlace.notes == reference.notes)
        #expect(inPlace.violations.contains("qrt.C3") && inPlace.violations.contains("qrt.C8"))
    }

    /// The journal's summary of an append read in place is the one the JSON path computes.
    @Test func inPlaceSummaryMatchesTheJournalSummary() throws {
        let harness = QwenHarness()
        let text = Self.frames[0].text
        let event = try #require(harness.session.classify(text: Array(text.utf8)).inPlaceAudio)
        let json = try JSONValue.decode(text)
        #expect(
            event.audio
                == harness.session.audioSummary(ofText: json, eventType: "input_audio_buffer.append", inbound: true))
        #expect(event.eventID == "e1")
    }
}
