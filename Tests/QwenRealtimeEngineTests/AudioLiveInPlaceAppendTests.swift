import ProtocolModel
import QwenRealtimeEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// The fast path of 1,000-session capacity: `session.input_audio.append` is read in place like
/// the realtime append, and answered exactly as through the JSON tree.
@Suite struct AudioLiveInPlaceAppendTests {
    static let chunk = Base64.encode(PCMBuffer.silence(milliseconds: 100, sampleRate: 16_000).littleEndianBytes)

    @Test func theDialectsAppendIsReadInPlace() {
        let harness = AudioLiveHarness.harness()
        let frame = #"{"event_id":"e1","type":"session.input_audio.append","audio":"\#(Self.chunk)"}"#
        let classification = harness.session.classify(text: Array(frame.utf8))
        #expect(classification.inPlaceAudio != nil)
        #expect(classification.eventType == QwenAudioLiveClientEvent.inputAudioAppend.rawValue)
        let realtime = #"{"type":"input_audio_buffer.append","audio":"\#(Self.chunk)"}"#
        #expect(harness.session.classify(text: Array(realtime.utf8)).inPlaceAudio == nil, "not this dialect's event")
    }

    @Test func inPlaceAndJSONTreeAppendsAnswerAlike() {
        let frames = [
            #"{"type":"session.input_audio.append","audio":"\#(Self.chunk)"}"#,
            #"{"type":"session.input_audio.append","audio":"AAAA"}"#,
            #"{"type":"session.input_audio.append","audio":"@@@@"}"#,
        ]
        let inPlace = AudioLiveHarness.harness()
        let tree = AudioLiveHarness.harness()
        for harness in [inPlace, tree] { AudioLiveHarness.configure(harness) }
        for frame in frames {
            inPlace.sendText(frame)
            tree.sendTextThroughJSONTree(frame)
        }
        #expect(inPlace.violations == tree.violations)
        #expect(inPlace.violations == ["qal.C6", "qal.C6"])
        #expect(inPlace.types == tree.types)
    }
}
