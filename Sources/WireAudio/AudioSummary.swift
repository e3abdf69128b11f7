/// A compact description of one audio stream for transcripts and journals.
///
/// Built incrementally with `record(frameBytes:atMs:durationMs:decodeFailed:)`, so a session can
/// keep one per direction without storing the audio. All times are milliseconds on the
/// recorder's monotonic clock.
package struct AudioSummary: Sendable, Equatable, Codable {
    /// The codec of a stream.
    package enum Codec: String, Sendable, Codable, CaseIterable {
        /// s16le PCM.
        case pcm
        /// Bare Opus packets, one per frame (`raw-opus`).
        case rawOpus = "raw-opus"
        /// Ogg-encapsulated Opus (`opus`).
        case oggOpus = "opus"
        /// MPEG-1/2 Layer III.
        case mp3
    }

    /// The stream's codec.
    package var codec: Codec
    /// Sample rate in Hz (decoded or declared).
    package var sampleRate: Int
    /// Transport frames (WebSocket binary messages or base64 chunks) seen.
    package var frames = 0
    /// Total payload bytes.
    package var bytes = 0
    /// Total audio duration in milliseconds (decoded or computed from the format).
    package var durationMs = 0.0
    /// Frames that failed to decode (corrupt Opus, odd PCM byte counts, …).
    package var decodeErrors = 0
    /// Arrival time of the first frame.
    package var firstFrameAtMs: Double?
    /// Arrival time of the last frame.
    package var lastFrameAtMs: Double?
    /// The largest gap between consecutive frame arrivals.
    package var maxInterFrameGapMs = 0.0

    /// An empty summary.
    package init(codec: Codec, sampleRate: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
    }

    /// Records one frame.
    /// - Parameters:
    ///   - frameBytes: payload size.
    ///   - atMs: arrival time.
    ///   - durationMs: audio it carries (0 if unknown or undecodable).
    ///   - decodeFailed: whether decoding it failed.
    package mutating func record(frameBytes: Int, atMs: Double, durationMs: Double, decodeFailed: Bool = false) {
        if let last = lastFrameAtMs {
            maxInterFrameGapMs = max(maxInterFrameGapMs, atMs - last)
        } else {
            firstFrameAtMs = atMs
        }
        lastFrameAtMs = atMs
        frames += 1
        bytes += frameBytes
        self.durationMs += durationMs
        if decodeFailed { decodeErrors += 1 }
    }

    /// Wall-clock span from first to last frame, or 0.
    package var spanMs: Double {
        guard let first = firstFrameAtMs, let last = lastFrameAtMs else { return 0 }
        return last - first
    }

    /// Audio duration divided by the arrival span (>1 = faster than real time); nil if < 2 frames.
    package var realTimeFactor: Double? {
        spanMs > 0 ? durationMs / spanMs : nil
    }
}
