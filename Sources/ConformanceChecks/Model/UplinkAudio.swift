package import ProtocolModel
import WireJSON

/// The client's audio chunks as the checks see them: binary frames (multimodal dialog) or the
/// base64 `audio` of an append event (Qwen realtime `input_audio_buffer.append`, Qwen-Audio-Live
/// `session.input_audio.append`).
package struct UplinkAudio: Sendable {
    /// One chunk.
    package struct Chunk: Sendable, Hashable {
        /// Journal index.
        package var index: Int
        /// Time in milliseconds.
        package var ms: Double
        /// Decoded byte count (nil when the base64 is invalid).
        package var bytes: Int?
        /// Audio duration in milliseconds (nil when unknown).
        package var durationMs: Double?
        /// Codec from the server's audio summary.
        package var codec: String?

        /// Creates a chunk.
        package init(index: Int, ms: Double, bytes: Int?, durationMs: Double?, codec: String? = nil) {
            self.index = index
            self.ms = ms
            self.bytes = bytes
            self.durationMs = durationMs
            self.codec = codec
        }
    }

    /// The chunks in order.
    package var chunks: [Chunk]

    /// The client events that carry base64 uplink audio in `audio`, one per protocol that has them.
    package static let base64AppendEvents: Set<String> = [
        QwenClientEvent.inputAudioBufferAppend.rawValue, QwenAudioLiveClientEvent.inputAudioAppend.rawValue,
    ]

    /// Collects the chunks of `transcript`; `source` is `binary` or `base64`.
    package init(_ transcript: Transcript, source: String, sampleRate: Int) {
        var chunks: [Chunk] = []
        for index in transcript.clientFrameIndices {
            let entry = transcript.journal[index]
            let ms = transcript.milliseconds(at: index)
            if source == "binary", entry.kind == .binary {
                let duration = transcript.audioMilliseconds(at: index, sampleRate: sampleRate)
                chunks.append(
                    Chunk(
                        index: index, ms: ms, bytes: entry.byteLength, durationMs: duration, codec: entry.audio?.codec))
            } else if source == "base64", let type = transcript.messageType(at: index),
                Self.base64AppendEvents.contains(type)
            {
                let bytes = entry.json?["audio"]?.stringValue.flatMap(Base64.checkedDecodedCount(ofEncoded:))
                let duration =
                    entry.audio?.durationMs ?? bytes.map { Double($0) / Double(2 * max(sampleRate, 1)) * 1000 }
                chunks.append(
                    Chunk(index: index, ms: ms, bytes: bytes, durationMs: duration, codec: entry.audio?.codec))
            }
        }
        self.chunks = chunks
    }

    /// The rate mislabel `chunks` (their `durationMs` at `declaredRate`) show, if any
    /// (``AudioRateMislabel``: the steps between consecutive chunks of the whole stream).
    package static func rateMislabel(_ chunks: [Chunk], declaredRate: Int) -> AudioRateMislabel? {
        let steps = zip(chunks, chunks.dropFirst()).compactMap { chunk, next in
            chunk.durationMs.flatMap { AudioRateMislabel.step(ms: chunk.ms, durationMs: $0, nextMs: next.ms) }
        }
        return AudioRateMislabel.judge(steps, declaredRate: declaredRate)
    }

    /// Total audio duration in milliseconds (chunks of unknown length count as 0).
    package var totalMs: Double { chunks.reduce(0) { $0 + ($1.durationMs ?? 0) } }

    /// Audio sent per wall-clock time: the audio before the last chunk over the time from the
    /// first chunk to the last (nil with fewer than two chunks or no elapsed time).
    package var realTimeFactor: Double? {
        guard chunks.count >= 2, let first = chunks.first, let last = chunks.last else { return nil }
        let wall = last.ms - first.ms
        let audio = totalMs - (last.durationMs ?? 0)
        guard wall > 0 else { return audio > 0 ? .infinity : nil }
        return audio / wall
    }
}
