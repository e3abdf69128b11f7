/// Settings of `VoiceActivityDetector`.
///
/// A 10 ms frame is *voiced* when its RMS level is at least `thresholdDBFS` **and** at least
/// `marginAboveNoiseDB` above the adaptive noise floor (`hysteresisDB` lower while in speech).
/// Speech starts once `minSpeechMs` of voiced frames accumulate (gaps < `candidateGapMs`
/// allowed); it stops after `silenceDurationMs` without a voiced frame.
package struct VADConfiguration: Sendable, Equatable {
    /// Absolute level a frame must reach, in dBFS (full-scale square wave = 0 dBFS).
    package var thresholdDBFS: Double = -40
    /// How far above the noise floor a frame must be, in dB.
    package var marginAboveNoiseDB: Double = 10
    /// How much lower both thresholds are while speech is ongoing, in dB.
    package var hysteresisDB: Double = 3
    /// Voiced time needed before `speechStarted` is emitted.
    package var minSpeechMs = 100
    /// A pause this long while confirming a start discards the candidate.
    package var candidateGapMs = 100
    /// Silence after the last voiced frame that ends speech (Qwen `silence_duration_ms`).
    package var silenceDurationMs = 800
    /// Audio before the detected onset included in the reported start (Qwen `prefix_padding_ms`).
    package var prefixPaddingMs = 0
    /// Analysis frame length.
    package var frameMs = 10
    /// How fast the noise floor may rise towards louder frames, in dB per second.
    package var noiseFloorRiseDBPerSecond = 3.0

    /// The defaults: −40 dBFS, 10 dB over the floor, 100 ms to start, 800 ms to stop, no padding.
    package init() {}

    /// Settings from a Qwen `turn_detection` object.
    ///
    /// `threshold` (−1…1, default 0.5, lower = more sensitive) maps linearly to
    /// `thresholdDBFS = −50 + 20 · threshold`: 0.5 → −40 dBFS, −1 → −70 dBFS, 1 → −30 dBFS.
    /// - Parameters:
    ///   - threshold: Qwen `threshold`, clamped to −1…1.
    ///   - silenceDurationMs: Qwen `silence_duration_ms` (200…6000, default 800).
    ///   - prefixPaddingMs: Qwen `prefix_padding_ms` (default 300).
    package static func qwen(
        threshold: Double = 0.5, silenceDurationMs: Int = 800,
        prefixPaddingMs: Int = 300
    ) -> VADConfiguration {
        var configuration = VADConfiguration()
        configuration.thresholdDBFS = -50 + 20 * min(max(threshold, -1), 1)
        configuration.silenceDurationMs = silenceDurationMs
        configuration.prefixPaddingMs = prefixPaddingMs
        return configuration
    }
}

/// A speech boundary found by `VoiceActivityDetector`, in milliseconds from the stream start.
package enum VADEvent: Sendable, Equatable {
    /// Speech began at `atMs` (onset minus prefix padding, clamped at 0).
    case speechStarted(atMs: Int)
    /// Speech ended at `atMs` (end of the last voiced frame); emitted `silenceDurationMs` later.
    case speechStopped(atMs: Int)

    /// The boundary time.
    package var atMs: Int {
        switch self {
        case .speechStarted(let ms), .speechStopped(let ms): ms
        }
    }
}
