import Foundation

@testable import WireAudio

/// Fixture paths and signal-analysis helpers shared by the WireAudio tests.
enum TestAudio {
    /// The Fixtures folder next to this file (located by #filePath, not as a resource).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Absolute path of a fixture file.
    static func path(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    /// Loads a fixture WAV.
    static func wav(_ name: String) throws -> PCMBuffer {
        try WAVFile.read(path: path(name))
    }

    /// The sox-computed speech boundaries of the padded fixture.
    static func referenceBoundaries() throws -> (start: Int, end: Int) {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("speech-padded-16k.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["speechStartMs"] as? Int ?? -1, object?["speechEndMs"] as? Int ?? -1)
    }

    /// A sine tone.
    static func tone(hz: Double, seconds: Double, rate: Int, amplitude: Double = 0.5) -> PCMBuffer {
        let count = Int(seconds * Double(rate))
        let samples = (0..<count).map { Int16(amplitude * 32767 * sin(2 * .pi * hz * Double($0) / Double(rate))) }
        return PCMBuffer(samples: samples, sampleRate: rate)
    }

    /// Deterministic white noise at roughly `dBFS` RMS.
    static func noise(dBFS: Double, seconds: Double, rate: Int, seed: UInt64 = 7) -> PCMBuffer {
        var random = SeededGenerator(seed: seed)
        let amplitude = pow(10, dBFS / 20) * 3.0.squareRoot() * 32767  // uniform noise: RMS = a/√3
        let samples = (0..<Int(seconds * Double(rate))).map { _ in Int16(random.uniform(-1...1) * amplitude) }
        return PCMBuffer(samples: samples, sampleRate: rate)
    }

    /// Sign changes, e.g. 2 per period for a tone.
    static func zeroCrossings(_ buffer: PCMBuffer) -> Int {
        zip(buffer.samples, buffer.samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    /// Best SNR in dB of `decoded` against `reference` over delays 0…maxDelay samples.
    static func alignedSNR(reference: PCMBuffer, decoded: PCMBuffer, maxDelay: Int) -> (snr: Double, delay: Int) {
        var best = (snr: -Double.infinity, delay: 0)
        let length = min(reference.count, decoded.count - maxDelay)
        for delay in 0...maxDelay {
            var signal = 0.0
            var error = 0.0
            for i in 0..<length {
                let x = Double(reference.samples[i])
                let e = x - Double(decoded.samples[i + delay])
                signal += x * x
                error += e * e
            }
            let snr = 10 * log10(signal / max(error, 1))
            if snr > best.snr { best = (snr, delay) }
        }
        return best
    }

    /// Power spectrum (|X|², bins 0…n/2) of `samples` with a Hann window; n must be a power of 2.
    static func powerSpectrum(_ samples: ArraySlice<Int16>) -> [Double] {
        let n = samples.count
        var re = samples.enumerated().map {
            Double($0.element) * (0.5 - 0.5 * cos(2 * .pi * Double($0.offset) / Double(n)))
        }
        var im = [Double](repeating: 0, count: n)
        var j = 0
        for i in 1..<n {  // bit-reversal permutation
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var size = 2
        while size <= n {
            let angle = -2 * Double.pi / Double(size)
            for start in stride(from: 0, to: n, by: size) {
                for k in 0..<(size / 2) {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + size / 2)
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            size *= 2
        }
        return (0...(n / 2)).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// Frame RMS values (linear, full scale = 1) over `frameMs` frames.
    static func frameLevels(_ buffer: PCMBuffer, frameMs: Int) -> [Double] {
        FramePacing.chunk(buffer, milliseconds: frameMs).map(\.rms)
    }
}
