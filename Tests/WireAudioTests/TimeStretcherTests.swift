import Testing

@testable import WireAudio

@Suite struct TimeStretcherTests {
    @Test(arguments: [0.5, 0.8, 1.25, 2.0])
    func durationScalesByInverseRate(rate: Double) throws {
        let speech = try TestAudio.wav("speech-16k.wav")
        let stretched = speech.timeStretched(rate: rate)
        #expect(stretched.count == Int((Double(speech.count) / rate).rounded()))
        #expect(abs(stretched.dBFS - speech.dBFS) < 2.5, "level \(stretched.dBFS) vs \(speech.dBFS)")
    }

    @Test func pitchIsKept() {
        let tone = TestAudio.tone(hz: 200, seconds: 1, rate: 16000)
        let fast = tone.timeStretched(rate: 2)
        let crossings = TestAudio.zeroCrossings(fast.slice(fromMs: 50, toMs: 450))
        #expect(abs(crossings - 160) <= 6, "200 Hz over 0.4 s → 160 crossings, got \(crossings)")
    }

    @Test func protocolSpeechRatePercent() throws {
        let speech = try TestAudio.wav("speech-16k.wav")
        #expect(speech.applyingSpeechRate(percent: 100) == speech)
        #expect(abs(speech.applyingSpeechRate(percent: 200).duration - speech.duration / 2) < 0.001)
        #expect(abs(speech.applyingSpeechRate(percent: 50).duration - speech.duration * 2) < 0.001)
    }
}
