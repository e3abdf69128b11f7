import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Levels for the journal: an uplink frame's decoded PCM (PCM or Opus) measured once, PCM
/// answer frames carrying the level measured when rendered, none for encoded answer audio.
@Suite("Audio levels for the journal")
struct AudioLevelTests {
    private static func square(amplitude: Int16, milliseconds: Int = 100) -> PCMBuffer {
        PCMBuffer(
            samples: (0..<(16 * milliseconds)).map { $0 % 40 < 20 ? amplitude : -amplitude }, sampleRate: 16000)
    }

    @Test func aLoudUplinkFrameMeasuresAboveASilentOne() throws {
        let harness = SessionHarness()
        // Before Start nothing is decoded.
        harness.sendBinary(Self.square(amplitude: 8000).littleEndianBytes)
        #expect(harness.session.takeReceivedAudioLevel() == nil)
        let started = SessionHarness()
        started.start(["upstream": ["mode": "push2talk"]])
        started.sendBinary(PCMBuffer.silence(milliseconds: 100, sampleRate: 16000).littleEndianBytes)
        let silent = try #require(started.session.takeReceivedAudioLevel())
        #expect(silent.rmsDb == AudioLevel.floorDb)
        #expect(started.session.takeReceivedAudioLevel() == nil)
        started.sendBinary(Self.square(amplitude: 16384).littleEndianBytes)
        #expect(started.session.takeReceivedAudioLevel() == AudioLevel(rmsDb: -6, peakDb: -6))
        // A text frame carries no audio.
        started.directive("HeartBeat")
        #expect(started.session.takeReceivedAudioLevel() == nil)
    }

    @Test func rawOpusUplinkIsMeasuredFromItsDecodedPCM() throws {
        let harness = SessionHarness()
        harness.start(["upstream": ["audio_format": "raw-opus"]])
        let encoder = try OpusEncoder(sampleRate: 16000, frameDuration: .ms20)
        let packets = try encoder.encode(Self.square(amplitude: 16384, milliseconds: 200))
        var levels: [AudioLevel] = []
        for packet in packets {
            harness.sendBinary(packet)
            levels += harness.session.takeReceivedAudioLevel().map { [$0] } ?? []
        }
        #expect(levels.count == packets.count)
        #expect(levels.last.map { $0.rmsDb > -12 } == true, "\(levels)")
    }

    @Test func pcmAnswerFramesCarryLevelsAndEncodedOnesNone() {
        let (pcm, _) = DownlinkAudioTests.answerAudio([:])
        #expect(pcm.count > 5)
        #expect(pcm.allSatisfy { $0.audioLevel != nil })
        #expect(pcm.contains { ($0.audioLevel?.rmsDb ?? -100) > -40 })
        let (opus, _) = DownlinkAudioTests.answerAudio(["audio_format": "opus"])
        #expect(!opus.isEmpty && opus.allSatisfy { $0.audioLevel == nil })
    }
}
