import Testing

@testable import WireAudio

@Suite struct PCMBufferTests {
    @Test func bytesRoundTripLittleEndian() {
        let buffer = PCMBuffer(samples: [0, 1, -1, 32767, -32768, 0x1234], sampleRate: 16000)
        let bytes = buffer.littleEndianBytes
        #expect(bytes.prefix(4) == [0, 0, 1, 0])
        #expect(bytes[10...11] == [0x34, 0x12])
        #expect(PCMBuffer(littleEndianBytes: bytes, sampleRate: 16000) == buffer)
        #expect(PCMBuffer(littleEndianBytes: bytes + [9], sampleRate: 16000).count == 6)
    }

    @Test func durationAppendAndSlicing() {
        var buffer = PCMBuffer.silence(milliseconds: 500, sampleRate: 16000)
        #expect(buffer.count == 8000)
        #expect(buffer.durationMs == 500)
        buffer.append(TestAudio.tone(hz: 440, seconds: 0.5, rate: 16000))
        #expect(buffer.duration == 1.0)
        let tail = buffer.slice(fromMs: 500, toMs: 2000)
        #expect(tail.count == 8000)
        #expect(tail.rms > 0.3)
        #expect(buffer.slice(fromMs: 100, toMs: 200).count == 1600)
        #expect(buffer.slice(fromMs: 300, toMs: 100).isEmpty)
    }

    @Test func levelsInDBFS() {
        let tone = TestAudio.tone(hz: 1000, seconds: 1, rate: 16000, amplitude: 0.5)
        #expect(abs(tone.dBFS - (-9.03)) < 0.1)  // 0.5 / √2 RMS
        #expect(PCMBuffer.silence(milliseconds: 10, sampleRate: 8000).dBFS == -.infinity)
        #expect(abs(tone.peak - 0.5) < 0.001)
    }

    /// The integer sum of squares gives, bit for bit, the `Double` sum of `(sample / 32768)²`
    /// the VAD's levels were defined by (extremes and random frames of every length to 4,000).
    @Test func rmsIsTheExactDoubleSumOfScaledSquares() {
        var generator = SeededGenerator(seed: 44)
        func reference(_ samples: [Int16]) -> Double {
            guard !samples.isEmpty else { return 0 }
            var sum = 0.0
            for sample in samples {
                let value = Double(sample) / 32768
                sum += value * value
            }
            return (sum / Double(samples.count)).squareRoot()
        }
        var cases: [[Int16]] = [[], [.min], [.max], Array(repeating: .min, count: 4000), [0, 1, -1]]
        for length in stride(from: 1, through: 4000, by: 37) {
            cases.append((0..<length).map { _ in Int16.random(in: .min ... .max, using: &generator) })
        }
        for samples in cases {
            #expect(PCMBuffer.rms(samples[...]).bitPattern == reference(samples).bitPattern, "\(samples.count) samples")
        }
    }

    @Test func volumeChangesLevelMeasurably() {
        let tone = TestAudio.tone(hz: 440, seconds: 0.5, rate: 16000, amplitude: 0.2)
        #expect(tone.applyingVolume(50) == tone)
        #expect(abs(tone.applyingVolume(25).dBFS - tone.dBFS + 12.04) < 0.1)
        #expect(abs(tone.applyingVolume(100).dBFS - tone.dBFS - 12.04) < 0.1)
        #expect(tone.applyingVolume(0).rms == 0)
        #expect(abs(tone.applyingGain(decibels: -6).dBFS - tone.dBFS + 6) < 0.1)
        #expect(tone.applyingGain(100).peak >= 0.999)  // saturates instead of wrapping
    }
}
