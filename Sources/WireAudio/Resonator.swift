import Glibc

/// A two-pole digital resonator (Klatt 1980) or a Butterworth low-pass: the filters of
/// `VoiceSynthesizer`. Processes one sample at a time; coefficients can be retuned per block
/// so formants can glide without clicks (the state is kept).
package struct Resonator: Sendable {
    private var b = 0.0
    private var c = 0.0
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0
    private var y1 = 0.0, y2 = 0.0, x1 = 0.0, x2 = 0.0

    /// A resonator at `frequency` Hz with `bandwidth` Hz, unity gain at DC.
    package init(frequency: Double, bandwidth: Double, sampleRate: Int) {
        tune(frequency: frequency, bandwidth: bandwidth, sampleRate: sampleRate)
    }

    /// A second-order Butterworth low-pass at `cutoff` Hz.
    package static func lowPass(cutoff: Double, sampleRate: Int) -> Resonator {
        var filter = Resonator(frequency: 0, bandwidth: 1, sampleRate: sampleRate)
        let k = tan(Double.pi * min(cutoff, 0.49 * Double(sampleRate)) / Double(sampleRate))
        let norm = 1 / (1 + 2.0.squareRoot() * k + k * k)
        filter.b0 = k * k * norm
        filter.b1 = 2 * filter.b0
        filter.b2 = filter.b0
        filter.b = -2 * (k * k - 1) * norm  // feedback on y[n-1]
        filter.c = -(1 - 2.0.squareRoot() * k + k * k) * norm  // feedback on y[n-2]
        return filter
    }

    /// Moves the resonance, keeping the filter state.
    package mutating func tune(frequency: Double, bandwidth: Double, sampleRate: Int) {
        let t = 1 / Double(sampleRate)
        c = -exp(-2 * Double.pi * bandwidth * t)
        b = 2 * exp(-Double.pi * bandwidth * t) * cos(2 * Double.pi * frequency * t)
        b0 = 1 - b - c  // unity gain at DC
        b1 = 0
        b2 = 0
    }

    /// Filters one sample.
    package mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 + b * y1 + c * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
