/// Sizes and chunking for paced audio streams (e.g. one binary frame every 20 or 100 ms).
///
/// PCM figures are for s16le mono: `bytes = rate × 2 × ms / 1000` (3200 bytes per 100 ms at
/// 16 kHz, the multimodal protocol's recommended chunk).
package enum FramePacing {
    /// Bytes of s16 mono PCM per millisecond at `sampleRate` (may be fractional, e.g. 16 at 8 kHz).
    package static func pcmBytesPerMillisecond(sampleRate: Int) -> Double {
        Double(sampleRate * 2) / 1000
    }

    /// Bytes of s16 mono PCM in `milliseconds` at `sampleRate` (whole samples, rounded down).
    package static func pcmBytes(milliseconds: Int, sampleRate: Int) -> Int {
        samples(milliseconds: milliseconds, sampleRate: sampleRate) * 2
    }

    /// Samples in `milliseconds` at `sampleRate`, rounded down.
    package static func samples(milliseconds: Int, sampleRate: Int) -> Int {
        sampleRate * milliseconds / 1000
    }

    /// Milliseconds of audio in `byteCount` bytes of s16 mono PCM at `sampleRate`.
    package static func milliseconds(pcmBytes byteCount: Int, sampleRate: Int) -> Double {
        Double(byteCount / 2) * 1000 / Double(sampleRate)
    }

    /// Bytes per `milliseconds` of a constant-bitrate stream (Opus CBR, MP3), rounded down.
    package static func compressedBytes(milliseconds: Int, bitrate: Int) -> Int {
        bitrate * milliseconds / 8000
    }

    /// Splits `buffer` into consecutive frames of `milliseconds`.
    /// - Parameters:
    ///   - padLast: pad a partial last frame with silence (true) or keep it short (false).
    /// - Returns: the frames; empty for an empty buffer.
    package static func chunk(_ buffer: PCMBuffer, milliseconds: Int, padLast: Bool = false) -> [PCMBuffer] {
        let size = samples(milliseconds: milliseconds, sampleRate: buffer.sampleRate)
        precondition(size > 0, "\(milliseconds) ms is less than one sample at \(buffer.sampleRate) Hz")
        var frames: [PCMBuffer] = []
        var start = 0
        while start < buffer.count {
            var frame = buffer.slice(samples: start..<(start + size))
            if padLast, frame.count < size {
                frame.append(contentsOf: repeatElement(0, count: size - frame.count))
            }
            frames.append(frame)
            start += size
        }
        return frames
    }

    /// Splits raw bytes into chunks of `size` bytes (the last may be shorter), e.g. 3200-byte frames.
    package static func chunk(bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
        precondition(size > 0, "chunk size must be positive")
        return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
    }

    /// The send time in milliseconds of frame `index` when starting at `startMs` and pacing at
    /// `frameMs` per frame, scaled by `speed` (2 = twice real time).
    package static func dueTime(frame index: Int, frameMs: Double, startMs: Double = 0, speed: Double = 1) -> Double {
        startMs + Double(index) * frameMs / speed
    }
}
