import ProtocolModel
import WireAudio

/// What the session knows about the client's input audio: format, the uncommitted buffer,
/// the stream position from the first appended sample, pacing, buffered images and the VAD.
struct InputAudioState: Sendable {
    /// Input rate and channel count in force.
    var sampleRate = 16000
    var channels = 1
    /// Whether any `input_audio_buffer.append` arrived (the session left IDLE).
    var started = false
    /// The last appended chunk's PCM (its storage is reused for the next chunk).
    var decodedChunk: [UInt8] = []
    /// When the first append arrived.
    var firstAppendMicros: Int64 = 0
    /// Mono samples appended since the first append (the time base of `audio_*_ms`).
    var totalSamples = 0
    /// Uncommitted audio: wire bytes and duration.
    var bufferedBytes = 0
    var bufferedMicros: Int64 = 0
    /// Whether the C8 pacing warning was journaled already.
    var pacingReported = false
    /// The stream's sustained rate (a rate mislabel, C8).
    var rate = AudioRateMonitor()
    /// Images waiting for the next commit (omni), and recent image arrival times (C16 rate).
    var bufferedImages = 0
    var imageTimes: [Int64] = []
    /// The detector in VAD modes, and the stream position (ms) it started at.
    var detector: VoiceActivityDetector?
    var detectorOffsetMs = 0

    /// Bytes per sample frame on the wire.
    var frameBytes: Int { 2 * channels }

    /// Milliseconds of audio appended since the first append.
    var totalMs: Int { totalSamples * 1000 / sampleRate }

    /// Duration of `byteCount` wire bytes.
    func durationMicros(ofBytes byteCount: Int) -> Int64 {
        Int64(byteCount / frameBytes) * 1_000_000 / Int64(sampleRate)
    }

    /// Counts the samples of a chunk of whole s16le frames and feeds the VAD (in place: a copy
    /// of the detector would copy its buffer on every chunk). Mono little-endian audio is read
    /// straight from the wire bytes.
    mutating func feedDetector(_ bytes: [UInt8]) -> [VADEvent] {
        #if _endian(little)
            if channels == 1 {
                totalSamples += bytes.count / 2
                guard detector != nil else { return [] }
                return bytes.withUnsafeBytes { raw in
                    raw.withMemoryRebound(to: Int16.self) { detector?.feed($0) ?? [] }
                }
            }
        #endif
        let samples = monoSamples(bytes)
        totalSamples += samples.count
        return detector?.feed(samples) ?? []
    }

    /// Mono samples of interleaved s16le wire bytes (channels averaged).
    func monoSamples(_ bytes: [UInt8]) -> [Int16] {
        let interleaved = PCMBuffer(littleEndianBytes: bytes, sampleRate: sampleRate).samples
        guard channels > 1 else { return interleaved }
        return stride(from: 0, to: interleaved.count - channels + 1, by: channels).map { start in
            let sum = (start..<(start + channels)).reduce(0) { $0 + Int(interleaved[$1]) }
            return Int16(sum / channels)
        }
    }

    /// Drops the uncommitted audio and images.
    mutating func clearBuffer() {
        bufferedBytes = 0
        bufferedMicros = 0
        bufferedImages = 0
    }
}
