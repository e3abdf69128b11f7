import Glibc

/// Sample-rate conversion with a polyphase windowed-sinc filter.
///
/// Method: band-limited interpolation. For rates `in → out` with `g = gcd(in, out)` there are
/// `L = out / g` filter phases; output sample `n` sits at input position `n·in/out` and is the
/// dot product of the neighbouring input samples with a Blackman-windowed sinc for that phase.
/// The cut-off is 0.95 × the lower Nyquist frequency, so downsampling is anti-aliased (the
/// Blackman window gives about −74 dB stop-band) and upsampling removes images. Each phase is
/// normalised to unity DC gain. Any positive integer rates work; 8/16/24/48 kHz need ≤ 6 phases.
/// Output length is `count · out / in` (rounded down), so duration is preserved. Samples
/// outside the input are treated as zero; the stream is resampled as one block (not streaming).
package struct Resampler: Sendable {
    /// Input sample rate.
    package let inputRate: Int
    /// Output sample rate.
    package let outputRate: Int
    /// Zero crossings of the sinc on each side of the centre, in output-band units.
    package let zeroCrossings: Int

    private let phases: Int
    private let step: Int
    private let halfTaps: Int
    private let table: [Float]

    /// Creates a resampler between two positive integer rates.
    package init(from inputRate: Int, to outputRate: Int, zeroCrossings: Int = 16) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates must be positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.zeroCrossings = zeroCrossings
        let divisor = Self.gcd(inputRate, outputRate)
        phases = outputRate / divisor
        step = inputRate / divisor
        let cutoff = 0.95 * min(1.0, Double(outputRate) / Double(inputRate))
        halfTaps = Int((Double(zeroCrossings) / cutoff).rounded(.up))
        var table = [Float](repeating: 0, count: phases * 2 * halfTaps)
        for phase in 0..<phases {
            let fraction = Double(phase) / Double(phases)
            var row = [Double](repeating: 0, count: 2 * halfTaps)
            for tap in 0..<(2 * halfTaps) {
                let offset = Double(tap - halfTaps + 1) - fraction  // input index minus position
                row[tap] = Self.kernel(offset, cutoff: cutoff, half: Double(halfTaps))
            }
            let sum = row.reduce(0, +)
            for tap in 0..<(2 * halfTaps) {
                table[phase * 2 * halfTaps + tap] = Float(row[tap] / sum)
            }
        }
        self.table = table
    }

    /// Resamples `input` (whose rate must equal `inputRate`).
    package func process(_ input: PCMBuffer) -> PCMBuffer {
        precondition(input.sampleRate == inputRate, "input is \(input.sampleRate) Hz, resampler expects \(inputRate)")
        if inputRate == outputRate { return input }
        let source = input.samples.map(Float.init)
        let outputCount = input.count * phases / step
        var output = [Int16](repeating: 0, count: outputCount)
        let width = 2 * halfTaps
        table.withUnsafeBufferPointer { taps in
            source.withUnsafeBufferPointer { x in
                for n in 0..<outputCount {
                    let position = n * step
                    let base = position / phases - halfTaps + 1
                    let row = (position % phases) * width
                    var accumulator: Float = 0
                    let first = max(0, -base)
                    let last = min(width, x.count - base)
                    if first < last {
                        for tap in first..<last {
                            accumulator += x[base + tap] * taps[row + tap]
                        }
                    }
                    output[n] = Int16(min(max(accumulator.rounded(), -32768), 32767))
                }
            }
        }
        return PCMBuffer(samples: output, sampleRate: outputRate)
    }

    private static func kernel(_ offset: Double, cutoff: Double, half: Double) -> Double {
        let ratio = offset / half
        guard abs(ratio) < 1 else { return 0 }
        let x = Double.pi * cutoff * offset
        let sinc = x == 0 ? 1 : sin(x) / x
        let phase = Double.pi * (ratio + 1)  // Blackman over [-half, half]
        let window = 0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase)
        return cutoff * sinc * window
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : gcd(b, a % b)
    }
}

extension PCMBuffer {
    /// This buffer converted to `rate` with a windowed-sinc `Resampler`; unchanged if equal.
    package func resampled(to rate: Int) -> PCMBuffer {
        rate == sampleRate ? self : Resampler(from: sampleRate, to: rate).process(self)
    }
}
