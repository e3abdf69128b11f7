import Glibc

/// Tempo change that keeps pitch: WSOLA (waveform-similarity overlap-add).
///
/// The output is built from Hann-windowed segments of `windowMs` (30 ms) placed every half
/// window. For output hop `j` the nominal input position is `j · hop · rate`; within
/// ±`toleranceMs` (10 ms) of it the segment start is chosen that best matches (largest
/// cross-correlation) the natural continuation of the previous segment, so pitch periods
/// line up and no phasing is heard. Output duration is `input duration / rate`, exactly to the
/// sample. `rate > 1` is faster (shorter), `rate < 1` slower (longer); the supported range is
/// 0.25…4 (protocol `speech_rate` 50–200 % maps to 0.5…2.0).
package struct TimeStretcher: Sendable {
    /// Speed factor: output duration = input duration / rate.
    package let rate: Double
    /// Segment length in milliseconds.
    package let windowMs: Double
    /// Search range around the nominal position, in milliseconds.
    package let toleranceMs: Double

    /// Creates a stretcher; `rate` must be within 0.25…4.
    package init(rate: Double, windowMs: Double = 30, toleranceMs: Double = 10) {
        precondition(rate >= 0.25 && rate <= 4, "rate \(rate) outside 0.25…4")
        self.rate = rate
        self.windowMs = windowMs
        self.toleranceMs = toleranceMs
    }

    /// The time-stretched buffer at the same sample rate.
    package func process(_ input: PCMBuffer) -> PCMBuffer {
        let outputCount = Int((Double(input.count) / rate).rounded())
        let window = max(4, Int(windowMs * Double(input.sampleRate) / 1000) & ~1)
        guard rate != 1, input.count > 2 * window else {
            // Too short to overlap-add: fall back to nearest-sample index mapping.
            let mapped = (0..<outputCount).map { input.samples[min(input.count - 1, Int(Double($0) * rate))] }
            return PCMBuffer(samples: rate == 1 ? input.samples : mapped, sampleRate: input.sampleRate)
        }
        let hop = window / 2
        let tolerance = Int(toleranceMs * Double(input.sampleRate) / 1000)
        let hann = (0..<window).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(window)) }
        let x = input.samples.map(Double.init)
        var output = [Double](repeating: 0, count: outputCount + window)
        let lastStart = x.count - window
        var previous = 0
        var j = 0
        while j * hop < outputCount {
            let start =
                j == 0
                ? 0
                : bestStart(
                    x, nominal: Int(Double(j * hop) * rate),
                    natural: min(previous + hop, lastStart),
                    tolerance: tolerance, window: window, lastStart: lastStart)
            for k in 0..<window {
                output[j * hop + k] += x[start + k] * hann[k]
            }
            previous = start
            j += 1
        }
        let samples = output.prefix(outputCount).map { Int16(min(max($0.rounded(), -32768), 32767)) }
        return PCMBuffer(samples: samples, sampleRate: input.sampleRate)
    }

    private func bestStart(
        _ x: [Double], nominal: Int, natural: Int, tolerance: Int,
        window: Int, lastStart: Int
    ) -> Int {
        let low = min(max(0, nominal - tolerance), lastStart)
        let high = min(max(0, nominal + tolerance), lastStart)
        var best = low
        var bestScore = -Double.infinity
        x.withUnsafeBufferPointer { p in
            for candidate in low...high {
                var score = 0.0
                var k = 0
                while k < window {  // every 2nd sample: plenty for the correlation peak
                    score += p[candidate + k] * p[natural + k]
                    k += 2
                }
                if score > bestScore {
                    bestScore = score
                    best = candidate
                }
            }
        }
        return best
    }
}

extension PCMBuffer {
    /// This buffer played `rate` times faster with pitch kept (WSOLA); duration scales by 1/rate.
    package func timeStretched(rate: Double) -> PCMBuffer {
        TimeStretcher(rate: rate).process(self)
    }

    /// This buffer at a protocol speech rate in percent (50–200, 100 = unchanged).
    package func applyingSpeechRate(percent: Int) -> PCMBuffer {
        timeStretched(rate: Double(min(max(percent, 50), 200)) / 100)
    }
}
