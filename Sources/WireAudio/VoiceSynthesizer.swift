/// Deterministic voice-like audio for the mock's TTS output: not real words, but audio with the
/// structure of speech, so VADs, codecs and pacing checks see something realistic.
///
/// Source–filter model: a Rosenberg glottal pulse train (differentiated for lip radiation) with
/// a falling pitch contour, per-syllable accents, 1 % jitter and 5 % shimmer, through a cascade
/// of three formant resonators. Each syllable has an optional consonant onset (fricative noise,
/// plosive burst after a closure, or a nasal murmur) and a vowel that may glide to a second
/// vowel, so formants change every 80–200 ms; a raised-cosine envelope shapes each syllable and
/// `SpeechPlan` puts gaps between words and pauses at punctuation. A 3.8 kHz low-pass keeps the
/// energy in the speech band. Output is peak-normalised to −12 dBFS at `volume` 50, then scaled
/// like `PCMBuffer.applyingVolume`. Same seed and parameters → identical samples.
package struct VoiceSynthesizer: Sendable {
    /// Output sample rate (8000, 16000, 24000, 48000 or any rate ≥ 8000).
    package var sampleRate: Int
    /// Random seed for all choices (vowels, onsets, accents, jitter, noise).
    package var seed: UInt64
    /// Mean fundamental frequency in Hz at `pitchRate` 1.
    package var pitchHz = 130.0
    /// Protocol volume 0–100 (50 = −12 dBFS peak).
    package var volume = 50
    /// Speaking-rate factor (1 = 4 syllables/s); durations scale by 1/speechRate.
    package var speechRate = 1.0
    /// Pitch factor (protocol `pitch_rate` / 100).
    package var pitchRate = 1.0

    /// Creates a synthesizer.
    package init(sampleRate: Int, seed: UInt64 = 1) {
        self.sampleRate = sampleRate
        self.seed = seed
    }

    /// Seconds of audio that `synthesize(_:)` produces for `text` at `rate` (see `SpeechPlan`).
    package static func duration(forText text: String, rate: Double = 1) -> Double {
        SpeechPlan(text: text, rate: rate).duration
    }

    /// Renders `text` as voice-like audio; empty text gives an empty buffer.
    package func synthesize(_ text: String) -> PCMBuffer {
        let plan = SpeechPlan(text: text, rate: speechRate)
        var voice = VoiceState(sampleRate: sampleRate, seed: seed)
        var output: [Double] = []
        var elapsed = 0.0
        for segment in plan.segments {
            switch segment {
            case .pause(let seconds):
                elapsed += seconds
                voice.render(count: sampleCount(until: elapsed) - output.count, into: &output, syllable: nil)
            case .syllable(let seconds, let index, let wordFinal):
                elapsed += seconds
                let progress = Double(index) / Double(max(1, plan.syllableCount))
                var syllable = voice.chooseSyllable(
                    progress: progress, wordFinal: wordFinal,
                    pitch: pitchHz * pitchRate)
                syllable.samples = sampleCount(until: elapsed) - output.count
                voice.render(count: syllable.samples, into: &output, syllable: syllable)
            }
        }
        let peak = output.reduce(0) { max($0, abs($1)) }
        let scale = peak > 0 ? 0.25 * 32767 / peak * PCMBuffer.linearGain(volume: volume) : 0
        let samples = output.map { Int16(min(max(($0 * scale).rounded(), -32768), 32767)) }
        return PCMBuffer(samples: samples, sampleRate: sampleRate)
    }

    private func sampleCount(until seconds: Double) -> Int {
        Int((seconds * Double(sampleRate)).rounded())
    }
}
