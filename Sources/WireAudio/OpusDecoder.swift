internal import COpus

/// An owning wrapper of a libopus decoder producing mono s16 PCM (destroyed in `deinit`).
///
/// Stereo streams (`channels: 2`) are decoded and downmixed by averaging. Not thread-safe:
/// use one decoder per stream from one task at a time.
package final class OpusDecoder {
    /// Output sample rate: 8000, 12000, 16000, 24000 or 48000.
    package let sampleRate: Int
    /// Channels in the encoded stream (1 or 2).
    package let channels: Int

    private let state: OpaquePointer
    private var lastFrameSamples: Int

    /// Creates a decoder.
    /// - Throws: `OpusError` when libopus rejects the rate or channel count.
    package init(sampleRate: Int, channels: Int = 1) throws(OpusError) {
        var error: Int32 = OPUS_OK
        guard let state = opus_decoder_create(opus_int32(sampleRate), Int32(channels), &error), error == OPUS_OK else {
            throw OpusError(code: error, context: "opus_decoder_create(\(sampleRate) Hz, \(channels) ch)")
        }
        self.state = state
        self.sampleRate = sampleRate
        self.channels = channels
        self.lastFrameSamples = sampleRate / 50
    }

    deinit {
        opus_decoder_destroy(state)
    }

    /// Decodes one packet; `nil` runs packet-loss concealment for one frame of the last size.
    /// - Throws: `OpusError` (e.g. `OPUS_INVALID_PACKET`) for corrupt data.
    package func decode(_ packet: [UInt8]?) throws(OpusError) -> PCMBuffer {
        let maxSamples = sampleRate * 120 / 1000  // the longest Opus packet is 120 ms
        var pcm = [Int16](repeating: 0, count: maxSamples * channels)
        let decoded: Int32 = pcm.withUnsafeMutableBufferPointer { out in
            guard let packet else {
                return opus_decode(state, nil, 0, out.baseAddress!, opus_int32(lastFrameSamples), 0)
            }
            guard !packet.isEmpty else { return OpusError.Code.OPUS_INVALID_PACKET.rawValue }
            return packet.withUnsafeBufferPointer { data in
                opus_decode(
                    state, data.baseAddress!, opus_int32(data.count), out.baseAddress!, opus_int32(maxSamples), 0)
            }
        }
        guard decoded >= 0 else {
            let what = packet.map { "opus_decode (\($0.count)-byte packet)" } ?? "opus_decode (concealment)"
            throw OpusError(code: decoded, context: what)
        }
        if packet != nil { lastFrameSamples = Int(decoded) }
        let count = Int(decoded)
        guard channels == 2 else { return PCMBuffer(samples: Array(pcm[0..<count]), sampleRate: sampleRate) }
        let mono = (0..<count).map { Int16((Int(pcm[2 * $0]) + Int(pcm[2 * $0 + 1])) / 2) }
        return PCMBuffer(samples: mono, sampleRate: sampleRate)
    }

    /// Decodes a sequence of packets and concatenates the audio.
    /// - Throws: the first `OpusError`.
    package func decode(packets: [[UInt8]]) throws(OpusError) -> PCMBuffer {
        var out = PCMBuffer(sampleRate: sampleRate)
        for packet in packets {
            out.append(try decode(packet))
        }
        return out
    }

    /// Clears the decoder state (`OPUS_RESET_STATE`), e.g. between utterances.
    package func reset() {
        _ = copus_decoder_reset(state)
    }

    /// Samples per channel that `packet` decodes to at `sampleRate`, or nil if it is malformed.
    package static func sampleCount(ofPacket packet: [UInt8], sampleRate: Int) -> Int? {
        guard !packet.isEmpty else { return nil }
        let count = packet.withUnsafeBufferPointer {
            opus_packet_get_nb_samples($0.baseAddress!, opus_int32($0.count), opus_int32(sampleRate))
        }
        return count > 0 ? Int(count) : nil
    }
}
