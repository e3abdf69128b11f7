import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Issue 39: 48 kHz audio appended to a 16 kHz session in real time is journaled as a MUST of
/// qrt.C8 by the engine (the harness sees it in every case); 16 kHz audio is not.
@Suite struct RateMislabelTests {
    func mislabels(_ harness: QwenHarness) -> [String] {
        harness.notes.compactMap {
            guard case .violation("qrt.C8", let message) = $0, message.contains("audio looks like") else { return nil }
            return message
        }
    }

    @Test func fortyEightKilohertzAppendedAsSixteenIsJournaled() {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.appendAudio(PCMBuffer.silence(milliseconds: 2_000, sampleRate: 16_000), rate: 48_000, chunkMs: 20)
        let found = mislabels(harness)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("MUST: audio looks like 48 kHz sent as 16 kHz") == true, "\(found)")
    }

    @Test func sixteenKilohertzIsNoMislabel() {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.appendAudio(PCMBuffer.silence(milliseconds: 2_000, sampleRate: 16_000), chunkMs: 20)
        #expect(mislabels(harness).isEmpty)
    }
}
