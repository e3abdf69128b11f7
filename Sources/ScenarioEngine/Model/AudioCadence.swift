/// How answer audio is streamed: chunk length and speed relative to real time.
package struct AudioCadence: Sendable, Hashable {
    /// Audio per chunk in milliseconds (the last chunk may be shorter).
    package var chunkMs: Double
    /// Playback-time produced per wall-clock time; 2.0 sends 1 s of audio every 500 ms.
    package var realTimeFactor: Double

    /// Creates a cadence.
    package init(chunkMs: Double = 40, realTimeFactor: Double = 1.5) {
        self.chunkMs = chunkMs
        self.realTimeFactor = realTimeFactor
    }

    /// One chunk of a streamed answer.
    package struct Chunk: Sendable, Hashable {
        /// Position of the chunk's first sample in the audio, in microseconds.
        package var audioOffsetMicros: Int64
        /// Length of audio in the chunk, in microseconds.
        package var durationMicros: Int64
        /// When to send it, relative to the first chunk, in microseconds.
        package var sendOffsetMicros: Int64
    }

    /// The chunks for `durationMicros` of audio: chunk `i` starts at `i·chunk` in the audio and
    /// is sent at `i·chunk / realTimeFactor`.
    package func chunks(forDurationMicros durationMicros: Int64) -> [Chunk] {
        guard durationMicros > 0 else { return [] }
        let chunkMicros = max(1, Int64((chunkMs * 1000).rounded()))
        var result: [Chunk] = []
        var offset: Int64 = 0
        while offset < durationMicros {
            let length = min(chunkMicros, durationMicros - offset)
            let send = Int64((Double(offset) / realTimeFactor).rounded())
            result.append(Chunk(audioOffsetMicros: offset, durationMicros: length, sendOffsetMicros: send))
            offset += length
        }
        return result
    }

    /// Bytes in a chunk of `durationMicros` of 16-bit mono PCM at `sampleRate` (whole samples).
    package static func pcmByteCount(durationMicros: Int64, sampleRate: Int) -> Int {
        let samples = (Int64(sampleRate) * durationMicros) / 1_000_000
        return Int(samples) * 2
    }
}
