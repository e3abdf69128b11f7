import Foundation
import Testing

@testable import WireAudio

@Suite struct VoiceSynthesizerTests {
    static let text = "The weather today is sunny with a light breeze from the west"

    @Test func deterministicForASeed() {
        let a = VoiceSynthesizer(sampleRate: 16000, seed: 11).synthesize(Self.text)
        let b = VoiceSynthesizer(sampleRate: 16000, seed: 11).synthesize(Self.text)
        let c = VoiceSynthesizer(sampleRate: 16000, seed: 12).synthesize(Self.text)
        #expect(a == b)
        #expect(a != c)
        #expect(a.count == c.count)  // timing depends on the text only
    }

    @Test func durationFollowsTextAndRate() {
        let synthesizer = VoiceSynthesizer(sampleRate: 24000)
        for text in ["Hi", "Hello there", Self.text, "你好，今天天气怎么样？"] {
            let audio = synthesizer.synthesize(text)
            #expect(abs(audio.duration - VoiceSynthesizer.duration(forText: text)) < 0.001)
        }
        #expect(SpeechPlan(text: "你好，今天天气怎么样？").syllableCount == 9)  // 你好 + 今天天气怎么样
        #expect(SpeechPlan(text: "What is the weather like today").syllableCount == 8)
        #expect(VoiceSynthesizer.duration(forText: Self.text) > VoiceSynthesizer.duration(forText: "Hello there") * 3)
        var fast = synthesizer
        fast.speechRate = 2
        let ratio = fast.synthesize(Self.text).duration / synthesizer.synthesize(Self.text).duration
        #expect(abs(ratio - 0.5) < 0.01)
        #expect(
            abs(
                VoiceSynthesizer.duration(forText: Self.text, rate: 2) * 2
                    - VoiceSynthesizer.duration(forText: Self.text)) < 1e-9)
        #expect(synthesizer.synthesize("").isEmpty && synthesizer.synthesize("...").isEmpty)
    }

    @Test(arguments: [8000, 16000, 24000, 48000])
    func detectedAsSpeechByTheVAD(rate: Int) {
        let speech = VoiceSynthesizer(sampleRate: rate, seed: 5).synthesize(Self.text)
        var audio = PCMBuffer.silence(milliseconds: 500, sampleRate: rate)
        audio.append(speech)
        audio.append(.silence(milliseconds: 1000, sampleRate: rate))
        let events = VoiceActivityDetectorTests.run(audio, .qwen(prefixPaddingMs: 0), chunkSamples: rate / 50).map(
            \.event)
        #expect(events.count == 2, "\(events)")
        if events.count == 2 {
            #expect(abs(events[0].atMs - 500) <= 100)
            #expect(abs(events[1].atMs - (500 + speech.durationMs)) <= 150)
        }
    }

    @Test(arguments: [16000, 48000])
    func hasSpeechLikeSpectrumAndEnvelope(rate: Int) {
        let speech = VoiceSynthesizer(sampleRate: rate, seed: 9).synthesize(Self.text)
        let size = rate == 16000 ? 512 : 2048  // 32 / 43 ms windows
        var band = 0.0
        var total = 0.0
        var flatness: [Double] = []
        var centroids: [Double] = []
        var topBinShare: [Double] = []
        for start in stride(from: 0, to: speech.count - size, by: size) {
            let frame = speech.samples[start..<(start + size)]
            guard PCMBuffer.rms(frame) > 0.02 else { continue }
            let power = TestAudio.powerSpectrum(frame)
            let hz = Double(rate) / Double(size)
            for (bin, p) in power.enumerated() {
                total += p
                if Double(bin) * hz >= 100, Double(bin) * hz <= 4000 { band += p }
            }
            let usable = power[1...].map { $0 + 1e-9 }
            let geometric = exp(usable.map { log($0) }.reduce(0, +) / Double(usable.count))
            flatness.append(geometric / (usable.reduce(0, +) / Double(usable.count)))
            centroids.append(
                power.enumerated().reduce(0) { $0 + Double($1.offset) * hz * $1.element } / power.reduce(0, +))
            topBinShare.append((power.max() ?? 0) / power.reduce(0, +))
        }
        let levels = TestAudio.frameLevels(speech, frameMs: 20)
        let mean = levels.reduce(0, +) / Double(levels.count)
        let variation =
            (levels.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(levels.count)).squareRoot() / mean
        let centroidMean = centroids.reduce(0, +) / Double(centroids.count)
        let centroidSpread =
            (centroids.map { ($0 - centroidMean) * ($0 - centroidMean) }.reduce(0, +) / Double(centroids.count))
            .squareRoot()
        let medianFlatness = flatness.sorted()[flatness.count / 2]
        let medianTopShare = topBinShare.sorted()[topBinShare.count / 2]
        print(
            "MEASURE synth \(rate) Hz: band 100–4000 Hz \(band / total), median flatness \(medianFlatness), "
                + "envelope CV \(variation), centroid spread \(centroidSpread) Hz, median top-bin share \(medianTopShare)"
        )
        #expect(band / total > 0.85, "energy mostly in the speech band")
        #expect(medianFlatness < 0.3, "harmonic, not noise")
        #expect(medianTopShare < 0.35, "not a pure tone: energy spread over harmonics")
        #expect(variation > 0.5, "non-stationary syllable envelope")
        #expect(centroidSpread > 75, "formants move")
    }

    @Test func volumeAndPitchParameters() {
        var synthesizer = VoiceSynthesizer(sampleRate: 16000, seed: 2)
        let normal = synthesizer.synthesize("Testing the volume")
        synthesizer.volume = 100
        let loud = synthesizer.synthesize("Testing the volume")
        #expect(abs(loud.dBFS - normal.dBFS - 12.04) < 0.2)
        #expect(abs(normal.peak - 0.25) < 0.01)
        synthesizer.volume = 50
        synthesizer.pitchRate = 2
        let high = synthesizer.synthesize("Testing the volume")
        let ratio = Self.pitch(high) / Self.pitch(normal)
        #expect(ratio > 1.7 && ratio < 2.3, "pitch ratio \(ratio)")
        #expect(abs(Self.pitch(normal) - 130) < 40)
    }

    /// Autocorrelation pitch (Hz) of the loudest 40 ms frame.
    static func pitch(_ audio: PCMBuffer) -> Double {
        let frames = FramePacing.chunk(audio, milliseconds: 40)
        let loudest = frames.max { $0.rms < $1.rms }?.samples.map(Double.init) ?? []
        let rate = audio.sampleRate
        var best = (lag: 1, score: -Double.infinity)
        for lag in (rate / 400)...(rate / 60) {
            let score =
                (0..<(loudest.count - lag)).reduce(0.0) { $0 + loudest[$1] * loudest[$1 + lag] }
                / Double(loudest.count - lag)
            if score > best.score { best = (lag, score) }
        }
        return Double(rate) / Double(best.lag)
    }
}
