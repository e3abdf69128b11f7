package import WireAudio

/// Turns uplink binary frames into PCM for speech detection (§7.1, C9).
///
/// `pcm` is s16le mono at the declared rate. For `opus` and `raw-opus` the framing is detected
/// from the first bytes of the stream (`OggS` → Ogg Opus, anything else → one bare packet per
/// frame), because clients disagree on what each name means (§5.1: DOC-MMWS says `raw-opus`,
/// the SDKs say `opus`); a mismatch with the declared name is reported once as a C9 note.
/// Session-confined (owns libopus and libogg state).
package final class UplinkAudioDecoder {
    /// The result of one binary frame.
    package struct Decoded {
        /// The decoded audio (may be empty).
        package var pcm: PCMBuffer
        /// A C9 problem with this frame, if any.
        package var problem: String?
    }

    /// The declared format.
    package let format: UplinkFormat
    /// The declared sample rate (also the decode rate of Opus).
    package let sampleRate: Int

    /// The Opus framing once the first bytes told it (nil before, and for PCM).
    package private(set) var framing: OpusFraming?
    private var prefix: [UInt8] = []
    private var decoder: OpusDecoder?
    private var demuxer: OggOpusDemuxer?
    private var reportedFraming = false
    private var reportedContainer = false

    /// Creates a decoder for the declared upstream format and rate.
    package init(format: UplinkFormat, sampleRate: Int) {
        self.format = format
        self.sampleRate = sampleRate
    }

    /// Decodes one binary frame.
    package func decode(_ bytes: [UInt8]) -> Decoded {
        switch format {
        case .pcm:
            if let container = AudioContainer.detect(bytes) {
                // Not samples: the VAD hears nothing; reported on the first such frame.
                defer { reportedContainer = true }
                return Decoded(
                    pcm: PCMBuffer(sampleRate: sampleRate),
                    problem: reportedContainer
                        ? nil
                        : "\(container == .ogg ? "an Ogg page" : "a RIFF/WAVE file header") where upstream.audio_format pcm "
                            + "was declared (raw s16le at \(sampleRate) Hz)")
            }
            let even = bytes.count & ~1
            let pcm = PCMBuffer(littleEndianBytes: bytes[0..<even], sampleRate: sampleRate)
            let problem =
                even == bytes.count ? nil : "pcm frame of \(bytes.count) bytes (odd length: not whole s16le samples)"
            return Decoded(pcm: pcm, problem: problem)
        case .opus, .rawOpus:
            return decodeOpus(bytes)
        }
    }

    private func decodeOpus(_ bytes: [UInt8]) -> Decoded {
        var notes: [String] = []
        if framing == nil {
            prefix += bytes
            guard let detected = OpusFraming.detect(prefix: prefix) else {
                return Decoded(pcm: PCMBuffer(sampleRate: sampleRate), problem: nil)
            }
            framing = detected
            if detected == .ogg, format == .rawOpus, !reportedFraming {
                notes.append("upstream.audio_format is raw-opus but the stream is Ogg Opus")
                reportedFraming = true
            }
        }
        let data = prefix.isEmpty ? bytes : prefix
        prefix = []
        do {
            let opus = try decoder ?? OpusDecoder(sampleRate: sampleRate)
            decoder = opus
            let packets: [[UInt8]]
            if framing == .ogg {
                let ogg = demuxer ?? OggOpusDemuxer()
                demuxer = ogg
                packets = try ogg.feed(data)
            } else {
                packets = data.isEmpty ? [] : [data]
            }
            let pcm = try opus.decode(packets: packets)
            return Decoded(pcm: pcm, problem: notes.first)
        } catch {
            notes.append("undecodable opus frame (\(bytes.count) bytes): \(error)")
            return Decoded(pcm: PCMBuffer(sampleRate: sampleRate), problem: notes.joined(separator: "; "))
        }
    }
}
