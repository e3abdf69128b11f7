/// What a binary (or base64) audio payload contained, measured by the server's audio layer.
package struct AudioSummary: Sendable, Hashable {
    /// `pcm`, `opus`, `raw-opus`, `mp3`, `wav` …
    package var codec: String
    /// Audio length in milliseconds.
    package var durationMs: Double
    /// Number of codec frames (PCM: 1 per WebSocket frame; Opus: packets).
    package var frames: Int
    /// Sample rate in Hz, when known.
    package var sampleRate: Int?
    /// The payload's loudness, when its samples were at hand (PCM, decoded uplink Opus, answer
    /// audio measured when it was rendered); nil otherwise.
    package var level: AudioLevel?

    /// Creates a summary.
    package init(
        codec: String, durationMs: Double, frames: Int = 1, sampleRate: Int? = nil, level: AudioLevel? = nil
    ) {
        self.codec = codec
        self.durationMs = durationMs
        self.frames = frames
        self.sampleRate = sampleRate
        self.level = level
    }
}
