package import ProtocolModel

/// One answer's audio, rendered and framed: immutable and shared by every session that sends it.
package struct RenderedAnswer: Sendable {
    /// One frame of the stream.
    package struct Frame: Sendable, Hashable {
        /// When to send it relative to the first audio frame, by the cadence (before rate limits).
        package var sendOffsetMicros: Int64
        /// The frame's bytes (PCM slice, MP3 frames, Ogg pages or an Opus packet).
        package var bytes: [UInt8]
        /// The level of the PCM the frame carries, measured when it was rendered (PCM and WAV
        /// frames); nil for encoded audio.
        package var level: AudioLevel?

        package init(sendOffsetMicros: Int64, bytes: [UInt8], level: AudioLevel? = nil) {
            self.sendOffsetMicros = sendOffsetMicros
            self.bytes = bytes
            self.level = level
        }
    }

    /// The frames in sending order.
    package var frames: [Frame]
    /// Length of the audio in microseconds (0 without audio).
    package var durationMicros: Int64
    /// Why the audio is missing or replaced (an unreadable fixture), for the journal.
    package var problem: String?

    package init(frames: [Frame], durationMicros: Int64, problem: String? = nil) {
        self.frames = frames
        self.durationMicros = durationMicros
        self.problem = problem
    }

    /// Bytes held by the frames (what the cache's budget counts).
    package var byteCount: Int { frames.reduce(0) { $0 + $1.bytes.count } + 64 }
}
