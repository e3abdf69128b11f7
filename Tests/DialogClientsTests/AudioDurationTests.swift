import DialogClients
import Testing

@Suite struct AudioDurationTests {
    @Test func pcmDurationsFollowTheRate() {
        #expect(AudioDuration.pcmMicros(byteCount: 3200, sampleRate: 16000) == 100_000)
        #expect(AudioDuration.micros(byteCount: 4800, format: "pcm", sampleRate: 24000, bitRateKbps: 32) == 100_000)
        #expect(AudioDuration.micros(byteCount: 400, format: "opus", sampleRate: 24000, bitRateKbps: 32) == 100_000)
    }
}
