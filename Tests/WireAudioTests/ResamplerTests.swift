import Testing

@testable import WireAudio

@Suite struct ResamplerTests {
    static let rates = [8000, 16000, 24000, 48000]

    @Test(arguments: rates, rates)
    func preservesDurationAndToneFrequency(from: Int, to: Int) {
        let tone = TestAudio.tone(hz: 1000, seconds: 1, rate: from)
        let output = tone.resampled(to: to)
        #expect(output.sampleRate == to)
        #expect(output.count == to)
        let crossings = TestAudio.zeroCrossings(output.slice(fromMs: 100, toMs: 900))
        #expect(abs(crossings - 1600) <= 4, "1 kHz over 0.8 s → 1600 crossings, got \(crossings)")
        #expect(abs(output.slice(fromMs: 100, toMs: 900).dBFS - tone.dBFS) < 0.5)
    }

    @Test func downsamplingRemovesContentAboveNyquist() {
        let high = TestAudio.tone(hz: 6000, seconds: 0.5, rate: 48000)
        let output = high.resampled(to: 8000)  // 6 kHz would alias to 2 kHz without the low-pass
        #expect(output.slice(fromMs: 50, toMs: 450).dBFS < -50)
    }

    @Test func speechSurvivesRoundTrip() throws {
        let speech = try TestAudio.wav("speech-16k.wav")
        let back = speech.resampled(to: 48000).resampled(to: 16000)
        let (snr, delay) = TestAudio.alignedSNR(reference: speech, decoded: back, maxDelay: 4)
        #expect(delay == 0)
        #expect(snr > 25, "16→48→16 kHz SNR \(snr) dB")
    }
}
