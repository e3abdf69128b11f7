import MultiModalDialogEngine
import ProtocolModel
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Issue 39: 24 kHz speech on a stream declared 16 kHz PCM, in real time, is journaled as a
/// MUST of mmd.C9 by the engine itself (every case and every fixture user sees it); a stream at
/// the declared rate is not.
@Suite struct RateMislabelTests {
    /// Streams `milliseconds` of silence captured at `captureRate` in 20 ms frames, one every 20 ms.
    static func stream(_ harness: SessionHarness, captureRate: Int, milliseconds: Int) {
        let frame = PCMBuffer.silence(milliseconds: 20, sampleRate: captureRate).littleEndianBytes
        for _ in 0..<(milliseconds / 20) {
            harness.sendBinary(frame)
            harness.advance(ms: 20)
        }
    }

    func mislabels(_ harness: SessionHarness) -> [String] {
        harness.journal.compactMap {
            guard case .violation("mmd.C9", let message) = $0, message.contains("audio looks like") else { return nil }
            return message
        }
    }

    @Test func twentyFourKilohertzSentAsSixteenIsJournaledOnce() {
        let harness = SessionHarness()
        harness.start()
        Self.stream(harness, captureRate: 24_000, milliseconds: 3_000)
        let found = mislabels(harness)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("MUST: audio looks like 24 kHz sent as 16 kHz") == true, "\(found)")
    }

    @Test func audioAtTheDeclaredRateIsNoMislabel() {
        let harness = SessionHarness()
        harness.start()
        Self.stream(harness, captureRate: 16_000, milliseconds: 3_000)
        #expect(mislabels(harness).isEmpty)
    }
}
