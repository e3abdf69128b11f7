internal import CLame

/// Streaming MP3 encoder over LAME for mono s16 PCM; owns the `lame_global_flags` (closed in `deinit`).
///
/// Feed chunks of any size with `encode(_:)`; each call returns whatever whole MP3 frames LAME
/// has ready (possibly none — LAME buffers about one frame plus its lookahead). Call `flush()`
/// once at the end for the rest. Constant bitrate, no Xing/LAME tag frame (the stream is sent
/// as it is produced, so the tag could not be patched in). Output sample rate = input rate:
/// 8 kHz is MPEG-2.5, 16/24 kHz MPEG-2 (576 samples per frame), 32–48 kHz MPEG-1 (1152).
/// LAME snaps `bitrate` to the nearest bitrate valid for that MPEG version. Not thread-safe.
package final class MP3Encoder {
    /// Why LAME failed.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// LAME's return code (e.g. -1 buffer too small, -3 parameters not initialised).
        package let code: Int32
        /// The call that failed.
        package let context: String
        /// A readable one-line explanation.
        package var description: String { "\(context) failed with LAME code \(code)" }
    }

    /// Input and output sample rate.
    package let sampleRate: Int
    /// Requested constant bitrate in kbit/s.
    package let bitrateKbps: Int

    /// The sample rates MPEG-1/2/2.5 Layer III defines (LAME would silently resample others).
    package static let sampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]

    private let flags: OpaquePointer
    private var flushed = false

    /// Creates an encoder.
    /// - Parameters:
    ///   - sampleRate: 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100 or 48000.
    ///   - bitrateKbps: constant bitrate in kbit/s (e.g. 32 for speech at 16 kHz).
    ///   - quality: LAME's algorithm quality, 0 (best, slowest) … 9 (worst, fastest); 5 is a good default.
    /// - Throws: `Failure` for a rate MP3 does not define (code -1001) or when LAME rejects the parameters.
    package init(sampleRate: Int, bitrateKbps: Int = 32, quality: Int = 5) throws(Failure) {
        guard Self.sampleRates.contains(sampleRate) else {
            throw Failure(code: -1001, context: "MP3 has no \(sampleRate) Hz mode; use one of \(Self.sampleRates)")
        }
        guard let flags = lame_init() else { throw Failure(code: -2, context: "lame_init") }
        self.flags = flags
        self.sampleRate = sampleRate
        self.bitrateKbps = bitrateKbps
        lame_set_num_channels(flags, 1)
        lame_set_in_samplerate(flags, Int32(sampleRate))
        lame_set_out_samplerate(flags, Int32(sampleRate))
        lame_set_mode(flags, MONO)
        lame_set_VBR(flags, vbr_off)
        lame_set_brate(flags, Int32(bitrateKbps))
        lame_set_quality(flags, Int32(quality))
        lame_set_bWriteVbrTag(flags, 0)
        let code = lame_init_params(flags)
        guard code >= 0 else {
            lame_close(flags)
            throw Failure(code: code, context: "lame_init_params(\(sampleRate) Hz, \(bitrateKbps) kbps)")
        }
    }

    deinit {
        lame_close(flags)
    }

    /// Samples per MP3 frame: 1152 for MPEG-1 rates (≥ 32 kHz), 576 otherwise.
    package var samplesPerFrame: Int { Int(lame_get_framesize(flags)) }

    /// Encodes a chunk and returns the MP3 bytes ready so far (whole frames; may be empty).
    /// - Throws: `Failure` for a rate mismatch (code -1000) or a LAME error.
    package func encode(_ chunk: PCMBuffer) throws(Failure) -> [UInt8] {
        guard chunk.sampleRate == sampleRate else {
            throw Failure(code: -1000, context: "encode: chunk is \(chunk.sampleRate) Hz, encoder \(sampleRate) Hz")
        }
        guard !chunk.isEmpty else { return [] }
        precondition(!flushed, "MP3Encoder used after flush()")
        var output = [UInt8](repeating: 0, count: chunk.count * 5 / 4 + 7200)  // LAME's documented worst case
        let written = chunk.samples.withUnsafeBufferPointer { pcm in
            output.withUnsafeMutableBufferPointer { out in
                lame_encode_buffer(
                    flags, pcm.baseAddress, pcm.baseAddress, Int32(pcm.count),
                    out.baseAddress, Int32(out.count))
            }
        }
        guard written >= 0 else { throw Failure(code: written, context: "lame_encode_buffer(\(chunk.count))") }
        return Array(output[0..<Int(written)])
    }

    /// Pads and encodes the buffered samples and returns the final frames. Call once.
    /// - Throws: `Failure` for a LAME error.
    package func flush() throws(Failure) -> [UInt8] {
        guard !flushed else { return [] }
        flushed = true
        var output = [UInt8](repeating: 0, count: 7200)
        let written = output.withUnsafeMutableBufferPointer { out in
            lame_encode_flush(flags, out.baseAddress, Int32(out.count))
        }
        guard written >= 0 else { throw Failure(code: written, context: "lame_encode_flush") }
        return Array(output[0..<Int(written)])
    }
}
