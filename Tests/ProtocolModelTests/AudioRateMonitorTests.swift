import ProtocolModel
import Testing

/// The mock's streaming judgement of a rate mislabel (``AudioRateMonitor``).
@Suite struct AudioRateMonitorTests {
    @Test func aSteadyMislabelIsFoundOnceWithinTheRing() {
        var monitor = AudioRateMonitor()
        var found: [AudioRateMislabel] = []
        for step in 0..<500 {
            if let mislabel = monitor.add(ms: Double(step) * 20, durationMs: 30, declaredRate: 16_000) {
                found.append(mislabel)
                // Found as soon as a second of steady steps is judged.
                #expect(step <= 64)
            }
        }
        #expect(found.map(\.likelyRate) == [24_000])
        #expect(monitor.found?.likelyRate == 24_000)
    }

    @Test func realTimeAudioAndPausesAreNoMislabel() {
        var monitor = AudioRateMonitor()
        var time = 0.0
        for step in 0..<600 {
            // 100 ms chunks in real time with a 2 s pause every 50 chunks (turns).
            time += step % 50 == 0 ? 2_000 : 100
            #expect(monitor.add(ms: time, durationMs: 100, declaredRate: 16_000) == nil)
        }
    }
}
