import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import SessionTesting
import Testing
import WireAudio
import WireJSON

/// The levels the journal shows: an append's decoded PCM measured once (read in place or through
/// the JSON tree), the answer's audio deltas carrying the level measured when it was rendered.
@Suite struct AudioLevelJournalTests {
    private func append(_ samples: [Int16]) -> String {
        let audio = Base64.encode(PCMBuffer(samples: samples, sampleRate: 16000).littleEndianBytes)
        return #"{"type":"input_audio_buffer.append","audio":"\#(audio)"}"#
    }

    @Test func aLoudChunkMeasuresAboveASilentOneAndOtherEventsHaveNoLevel() throws {
        let harness = QwenHarness()
        // Nothing received yet: nothing to take.
        #expect(harness.session.takeReceivedAudioLevel() == nil)
        harness.sendText(#"{"type":"session.update","session":{"turn_detection":null}}"#)
        #expect(harness.session.takeReceivedAudioLevel() == nil)
        for throughTree in [false, true] {
            let send = throughTree ? harness.sendTextThroughJSONTree : harness.sendText
            send(append([Int16](repeating: 0, count: 1600)))
            let silent = try #require(harness.session.takeReceivedAudioLevel())
            #expect(silent == AudioLevel(rmsDb: AudioLevel.floorDb, peakDb: AudioLevel.floorDb))
            // Taking it clears it.
            #expect(harness.session.takeReceivedAudioLevel() == nil)
            send(append((0..<1600).map { $0 % 53 < 27 ? 12_000 : -12_000 }))
            let loud = try #require(harness.session.takeReceivedAudioLevel())
            #expect(loud.rmsDb == -8.7 && loud.peakDb == -8.7)
            // Not base64: nothing decoded, no level.
            send(#"{"type":"input_audio_buffer.append","audio":"@@@@"}"#)
            #expect(harness.session.takeReceivedAudioLevel() == nil)
        }
    }

    @Test func answerAudioDeltasCarryTheirRenderedLevel() throws {
        let turn = TurnContent(transcript: "What is the weather like today?", answer: "It is sunny and warm today.")
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.sendText(#"{"type":"session.update","session":{"turn_detection":{"type":"server_vad"}}}"#)
        let padded = try Fixtures.paddedSpeech().resampled(to: 16000)
        let speech = PCMBuffer(
            samples: padded.samples + PCMBuffer.silence(milliseconds: 3000, sampleRate: 16000).samples,
            sampleRate: 16000)
        for start in stride(from: 0, to: speech.count, by: 1600) {
            harness.sendText(append(speech.slice(samples: start..<min(start + 1600, speech.count)).samples))
            harness.advance(ms: 100)
        }
        harness.advance(ms: 8000)
        let deltas = harness.runner.sent.filter { $0.eventType == "response.audio.delta" }
        try #require(deltas.count > 3)
        let levels = deltas.compactMap(\.audioLevel)
        #expect(levels.count == deltas.count)
        // Synthesized speech: audible, below full scale, and not one constant level.
        #expect(levels.allSatisfy { $0.peakDb <= 0 && $0.rmsDb <= $0.peakDb })
        #expect(levels.contains { $0.rmsDb > -40 })
        #expect(Set(levels.map(\.rmsDb)).count > 1)
    }
}
