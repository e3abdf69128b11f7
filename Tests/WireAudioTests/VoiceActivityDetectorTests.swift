import Foundation
import Testing

@testable import WireAudio

@Suite struct VoiceActivityDetectorTests {
    /// Events with the stream position (ms) at which each was emitted.
    static func run(
        _ buffer: PCMBuffer, _ configuration: VADConfiguration, chunkSamples: Int = 320
    )
        -> [(event: VADEvent, emittedAtMs: Int)]
    {
        var detector = VoiceActivityDetector(sampleRate: buffer.sampleRate, configuration: configuration)
        var events: [(VADEvent, Int)] = []
        var start = 0
        while start < buffer.count {
            let chunk = buffer.samples[start..<min(start + chunkSamples, buffer.count)]
            events += detector.feed(chunk).map { ($0, detector.processedMs) }
            start += chunkSamples
        }
        return events + detector.finish().map { ($0, detector.processedMs) }
    }

    static var configuration: VADConfiguration {
        var configuration = VADConfiguration()
        configuration.silenceDurationMs = 500
        return configuration
    }

    @Test func detectsEspeakSpeechWithinReferenceBoundaries() throws {
        let padded = try TestAudio.wav("speech-padded-16k.wav")
        let reference = try TestAudio.referenceBoundaries()
        let events = Self.run(padded, Self.configuration)
        #expect(events.map(\.event.atMs).count == 2, "\(events)")
        guard events.count == 2, case .speechStarted(let start) = events[0].event,
            case .speechStopped(let end) = events[1].event
        else { return }
        print(
            "MEASURE vad espeak: start \(start) (sox \(reference.start), error \(start - reference.start) ms), "
                + "end \(end) (sox \(reference.end), error \(end - reference.end) ms), stop emitted at \(events[1].emittedAtMs) ms"
        )
        #expect(abs(start - reference.start) <= 100)
        #expect(abs(end - reference.end) <= 100)
        // Stopped is reported once silence_duration has passed (to within one 20 ms chunk).
        #expect(events[1].emittedAtMs >= end + 500 && events[1].emittedAtMs <= end + 500 + 20)
    }

    @Test func resultsDoNotDependOnChunking() throws {
        let padded = try TestAudio.wav("speech-padded-16k.wav")
        let reference = Self.run(padded, Self.configuration).map(\.event)
        for size in [1, 7, 160, 1000, 3200, padded.count] {
            #expect(Self.run(padded, Self.configuration, chunkSamples: size).map(\.event) == reference)
        }
    }

    @Test(arguments: ["silence-16k.wav", "noise-45dbfs-16k.wav"])
    func ignoresSilenceAndSteadyNoise(fixture: String) throws {
        let audio = try TestAudio.wav(fixture)
        #expect(Self.run(audio, Self.configuration).isEmpty)
        #expect(Self.run(audio, .qwen()).isEmpty)
        #expect(Self.run(audio, .qwen(threshold: -0.5)).isEmpty, "adaptive floor holds even at -60 dBFS")
    }

    @Test func detectsSpeechOverNoiseBed() throws {
        let padded = try TestAudio.wav("speech-padded-16k.wav")
        let noise = TestAudio.noise(dBFS: -45, seconds: padded.duration, rate: 16000)
        let mixed = PCMBuffer(samples: zip(padded.samples, noise.samples).map { $0 &+ $1 }, sampleRate: 16000)
        let reference = try TestAudio.referenceBoundaries()
        let events = Self.run(mixed, .qwen(threshold: -0.5, silenceDurationMs: 500, prefixPaddingMs: 0))
        #expect(events.count == 2)
        if let first = events.first { #expect(abs(first.event.atMs - reference.start) <= 100) }
    }

    @Test(arguments: [200, 800, 1200])
    func stopComesAfterSilenceDuration(silenceMs: Int) throws {
        var audio = try TestAudio.wav("speech-16k.wav")
        audio.append(.silence(milliseconds: 2000, sampleRate: 16000))
        let events = Self.run(audio, .qwen(silenceDurationMs: silenceMs, prefixPaddingMs: 0), chunkSamples: 160)
        let stop = try #require(events.last)
        #expect(events.count == 2)
        #expect(stop.emittedAtMs - stop.event.atMs >= silenceMs && stop.emittedAtMs - stop.event.atMs <= silenceMs + 10)
    }

    @Test func prefixPaddingAndQwenThresholdMapping() throws {
        #expect(VADConfiguration.qwen().thresholdDBFS == -40)
        #expect(VADConfiguration.qwen(threshold: -1).thresholdDBFS == -70)
        #expect(VADConfiguration.qwen(threshold: 3).thresholdDBFS == -30)
        let padded = try TestAudio.wav("speech-padded-16k.wav")
        let plain = Self.run(padded, Self.configuration)
        var padding = Self.configuration
        padding.prefixPaddingMs = 300
        let padded300 = Self.run(padded, padding)
        #expect(padded300.first?.event.atMs == plain.first.map { $0.event.atMs - 300 })
    }

    /// A load generator's voice: a 150 Hz sawtooth at 75 % ± 25 % amplitude modulated at 4 Hz
    /// (level swings 6 dB, never a pause), the stream opening with it; then ±16 LSB dither.
    static func modulatedSawtoothLoop(rounds: Int) -> PCMBuffer {
        var samples: [Int16] = []
        var seed: UInt64 = 11
        for _ in 0..<rounds {
            for n in 0..<24000 {
                let t = Double(n) / 16000
                let phase = t * 150
                let saw: Double = 2 * (phase - phase.rounded(.down)) - 1
                let envelope: Double = 0.75 + 0.25 * sin(2 * Double.pi * 4 * t)
                samples.append(Int16(8000 * envelope * saw))
            }
            for _ in 0..<24000 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                samples.append(Int16(Int(seed >> 59) - 16))
            }
        }
        return PCMBuffer(samples: samples, sampleRate: 16000)
    }

    @Test func aStreamThatOpensInSpeechIsHeardFromItsStart() {
        let audio = Self.modulatedSawtoothLoop(rounds: 2)
        let configuration = VADConfiguration.qwen(silenceDurationMs: 500, prefixPaddingMs: 0)
        let events = Self.run(audio, configuration)
        #expect(
            events.map(\.event) == [
                .speechStarted(atMs: 0), .speechStopped(atMs: 1500),
                .speechStarted(atMs: 3000), .speechStopped(atMs: 4500),
            ], "\(events)")
        // Reported at the drop: the first segment's start as soon as its end shows it was speech.
        #expect(events.first?.emittedAtMs == 1500 || events.first?.emittedAtMs == 1520)
        for size in [1, 160, 1600, 3200] {
            #expect(Self.run(audio, configuration, chunkSamples: size).map(\.event) == events.map(\.event))
        }
    }

    @Test func aStreamThatOpensInSteadyNoiseStaysSilent() {
        // Loud and steady from the first frame, with no drop: noise, not speech.
        var audio = TestAudio.tone(hz: 440, seconds: 3, rate: 16000, amplitude: 0.1)
        audio.append(TestAudio.tone(hz: 440, seconds: 1, rate: 16000, amplitude: 0.08))
        #expect(Self.run(audio, Self.configuration).isEmpty)
        // Opening loud for less than minSpeechMs before the drop: a click, not speech.
        var click = TestAudio.tone(hz: 1000, seconds: 0.05, rate: 16000)
        click.append(.silence(milliseconds: 1000, sampleRate: 16000))
        #expect(Self.run(click, Self.configuration).isEmpty)
    }

    @Test func shortClicksDoNotStartSpeech() {
        var audio = PCMBuffer.silence(milliseconds: 500, sampleRate: 16000)
        audio.append(TestAudio.tone(hz: 1000, seconds: 0.05, rate: 16000))  // 50 ms < minSpeechMs
        audio.append(.silence(milliseconds: 500, sampleRate: 16000))
        #expect(Self.run(audio, Self.configuration).isEmpty)
    }
}
