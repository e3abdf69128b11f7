package import ScenarioEngine

/// Everything that decides the bytes of one answer's audio frames: two sessions whose answers
/// have equal keys send identical audio, so the audio is rendered and encoded once and shared.
package struct AnswerAudioKey: Sendable, Hashable {
    /// Where the samples come from.
    package enum Source: Sendable, Hashable {
        /// Voice-like audio speaking `text` at `rate` (1 = normal).
        case synthesized(text: String, rate: Double)
        /// A WAV fixture at `path` inside the scenario's `folder` (a file that resolves outside
        /// it, through `..` or a symlink, is refused). When it cannot be read and `fallbackText`
        /// is set, that text is synthesized instead (with a problem note).
        case file(path: String, folder: String, fallbackText: String?)
    }

    /// How the samples are framed on the wire.
    package enum Encoding: Sendable, Hashable {
        /// s16le mono slices, one per cadence chunk.
        case pcm
        /// As `pcm`, the first slice led by the 44-byte header of a WAV file of the whole answer.
        case wav
        /// One LAME stream; a chunk that completes no MP3 frame is merged into the next.
        case mp3
        /// One Ogg Opus stream (header pages in the first frame, one page per packet).
        case oggOpus(frameMs: Int, bitRateKbps: Int)
        /// Bare Opus packets, one per frame.
        case rawOpus(frameMs: Int, bitRateKbps: Int)
    }

    package var source: Source
    package var sampleRate: Int
    /// Protocol volume 0–100 (50 = nominal).
    package var volume: Int
    /// Speaking rate in percent (100 = the source's own rate).
    package var speechRatePercent: Int
    /// Pitch in percent (synthesized voices only).
    package var pitchRatePercent: Int
    /// Voice seed of synthesized audio.
    package var seed: UInt64
    package var encoding: Encoding
    /// The chunking and pacing of the stream.
    package var cadence: AudioCadence

    package init(
        source: Source, sampleRate: Int, volume: Int = 50, speechRatePercent: Int = 100,
        pitchRatePercent: Int = 100, seed: UInt64, encoding: Encoding = .pcm, cadence: AudioCadence
    ) {
        self.source = source
        self.sampleRate = sampleRate
        self.volume = volume
        self.speechRatePercent = speechRatePercent
        self.pitchRatePercent = pitchRatePercent
        self.seed = seed
        self.encoding = encoding
        self.cadence = cadence
    }
}
