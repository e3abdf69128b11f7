import Glibc

/// Level measurement and gain.
///
/// Volume mapping (the multimodal protocol's `volume`, 0–100, default 50): 50 is unity gain,
/// amplitude scales as `(volume / 50)²`, i.e. `40·log10(volume / 50)` dB — 100 is +12 dB,
/// 25 is −12 dB, 10 is −28 dB and 0 is silence. Results saturate at the Int16 range.
extension PCMBuffer {
    /// Root-mean-square amplitude normalised to full scale (0…1, a full-scale square wave is 1).
    package var rms: Double {
        Self.rms(samples[...])
    }

    /// RMS level in dBFS (full-scale square wave = 0 dBFS); `-infinity` for silence or no samples.
    package var dBFS: Double {
        Self.decibels(rms)
    }

    /// Peak absolute amplitude normalised to full scale.
    package var peak: Double {
        Double(samples.map { $0 == .min ? Int(Int16.max) + 1 : abs(Int($0)) }.max() ?? 0) / 32768
    }

    /// RMS of a slice of samples, normalised to full scale.
    package static func rms(_ samples: ArraySlice<Int16>) -> Double {
        samples.withUnsafeBufferPointer { rms($0) }
    }

    /// RMS of samples in memory the caller holds, normalised to full scale. The squares are
    /// summed as integers (a loop the compiler vectorises; the VAD runs it on every 10 ms of
    /// uplink audio): the same value, bit for bit, as summing `(sample / 32768)²` in `Double`,
    /// which is exact too below 2²³ samples (every term a whole multiple of 2⁻³⁰).
    package static func rms(_ samples: UnsafeBufferPointer<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var squares: Int64 = 0
        for sample in samples {
            let value = Int32(sample)
            squares &+= Int64(value &* value)
        }
        return (Double(squares) / 1_073_741_824 / Double(samples.count)).squareRoot()
    }

    /// Converts a linear amplitude (0…1) to dB; `-infinity` for 0.
    package static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }

    /// Converts dB to a linear amplitude factor.
    package static func linearGain(decibels: Double) -> Double {
        pow(10, decibels / 20)
    }

    /// The linear gain for a protocol volume (0–100, 50 = unity); see the type's notes.
    package static func linearGain(volume: Int) -> Double {
        let clamped = Double(min(max(volume, 0), 100))
        return (clamped / 50) * (clamped / 50)
    }

    /// This buffer scaled by a linear factor, rounded and saturated to Int16.
    package func applyingGain(_ factor: Double) -> PCMBuffer {
        let scaled = samples.map { sample -> Int16 in
            let value = (Double(sample) * factor).rounded()
            return Int16(min(max(value, -32768), 32767))
        }
        return PCMBuffer(samples: scaled, sampleRate: sampleRate)
    }

    /// This buffer scaled by `decibels` dB.
    package func applyingGain(decibels: Double) -> PCMBuffer {
        applyingGain(Self.linearGain(decibels: decibels))
    }

    /// This buffer at a protocol volume (0–100, 50 = unchanged); see the type's notes.
    package func applyingVolume(_ volume: Int) -> PCMBuffer {
        applyingGain(Self.linearGain(volume: volume))
    }
}
