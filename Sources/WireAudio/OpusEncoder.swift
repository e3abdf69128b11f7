internal import COpus

/// An owning wrapper of a libopus encoder for mono s16 PCM (destroyed in `deinit`).
///
/// Not thread-safe: use one encoder per stream from one task at a time.
package final class OpusEncoder {
    /// The encoder's intended use (maps to `OPUS_APPLICATION_*`).
    package enum Application: Sendable {
        /// `OPUS_APPLICATION_VOIP`: speech, best intelligibility at low bitrates.
        case voip
        /// `OPUS_APPLICATION_AUDIO`: music and general audio.
        case audio
        /// `OPUS_APPLICATION_RESTRICTED_LOWDELAY`: lowest delay, CELT only.
        case lowDelay
    }

    /// Input sample rate: 8000, 12000, 16000, 24000 or 48000.
    package let sampleRate: Int
    /// Duration of each frame passed to `encode(frame:)`.
    package let frameDuration: OpusFrameDuration
    /// Samples in one frame at `sampleRate`.
    package let frameSamples: Int
    /// Encoder delay in samples at `sampleRate` (`OPUS_GET_LOOKAHEAD`); decoded audio lags by this.
    package let lookahead: Int

    private let state: OpaquePointer
    private static let maxPacketBytes = 4000

    /// Creates an encoder.
    /// - Parameters:
    ///   - sampleRate: 8000, 12000, 16000, 24000 or 48000.
    ///   - frameDuration: one of the Opus frame sizes.
    ///   - application: codec tuning.
    ///   - bitrate: bits per second (500…512000), or nil for the library default.
    ///   - complexity: 0…10, or nil for the library default (10).
    /// - Throws: `OpusError` when libopus rejects the configuration.
    package init(
        sampleRate: Int, frameDuration: OpusFrameDuration = .ms20, application: Application = .voip,
        bitrate: Int? = nil, complexity: Int? = nil
    ) throws(OpusError) {
        let cApplication =
            switch application {
            case .voip: OPUS_APPLICATION_VOIP
            case .audio: OPUS_APPLICATION_AUDIO
            case .lowDelay: OPUS_APPLICATION_RESTRICTED_LOWDELAY
            }
        var error: Int32 = OPUS_OK
        guard let state = opus_encoder_create(opus_int32(sampleRate), 1, cApplication, &error), error == OPUS_OK else {
            throw OpusError(code: error, context: "opus_encoder_create(\(sampleRate) Hz, mono)")
        }
        self.state = state
        self.sampleRate = sampleRate
        self.frameDuration = frameDuration
        self.frameSamples = frameDuration.samples(atRate: sampleRate)
        if let bitrate {
            let code = copus_encoder_set_bitrate(state, opus_int32(bitrate))
            guard code == OPUS_OK else {
                opus_encoder_destroy(state)
                throw OpusError(code: code, context: "OPUS_SET_BITRATE(\(bitrate))")
            }
        }
        if let complexity {
            let code = copus_encoder_set_complexity(state, opus_int32(complexity))
            guard code == OPUS_OK else {
                opus_encoder_destroy(state)
                throw OpusError(code: code, context: "OPUS_SET_COMPLEXITY(\(complexity))")
            }
        }
        if application == .voip { _ = copus_encoder_set_signal_voice(state) }
        var delay: opus_int32 = 0
        _ = copus_encoder_get_lookahead(state, &delay)
        self.lookahead = Int(delay)
    }

    deinit {
        opus_encoder_destroy(state)
    }

    /// Encodes exactly one frame (`frameSamples` samples) into one Opus packet.
    /// - Throws: `OpusError` (`OPUS_BAD_ARG`) for a wrong length or rate, or a libopus failure.
    package func encode(frame: PCMBuffer) throws(OpusError) -> [UInt8] {
        guard frame.sampleRate == sampleRate, frame.count == frameSamples else {
            throw OpusError(
                code: OpusError.Code.OPUS_BAD_ARG.rawValue,
                context: "opus_encode needs \(frameSamples) samples at \(sampleRate) Hz "
                    + "(\(frameDuration.milliseconds) ms), got \(frame.count) at \(frame.sampleRate) Hz")
        }
        var packet = [UInt8](repeating: 0, count: Self.maxPacketBytes)
        let written = frame.samples.withUnsafeBufferPointer { pcm in
            packet.withUnsafeMutableBufferPointer { out in
                opus_encode(state, pcm.baseAddress!, opus_int32(frameSamples), out.baseAddress!, opus_int32(out.count))
            }
        }
        guard written >= 0 else { throw OpusError(code: written, context: "opus_encode (\(frameSamples) samples)") }
        return Array(packet[0..<Int(written)])
    }

    /// Encodes a whole buffer as consecutive frames; the last partial frame is padded with silence.
    /// - Throws: `OpusError` when the rate differs or libopus fails.
    package func encode(_ buffer: PCMBuffer) throws(OpusError) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var start = 0
        while start < buffer.count {
            var frame = buffer.slice(samples: start..<(start + frameSamples))
            frame.append(contentsOf: repeatElement(0, count: frameSamples - frame.count))
            packets.append(try encode(frame: frame))
            start += frameSamples
        }
        return packets
    }
}
