/// An MPEG audio Layer III frame header, for checking MP3 streams without decoding them.
///
/// `scan(_:)` walks a byte stream frame by frame from the first 11-bit sync (0xFFE): each
/// header gives the frame length, so a valid stream is a chain of headers. ID3v2 tags at the
/// start are skipped.
package struct MP3FrameHeader: Sendable, Equatable {
    /// MPEG version: 1, 2 or 2.5.
    package let version: Double
    /// Bitrate in kbit/s.
    package let bitrateKbps: Int
    /// Sample rate in Hz.
    package let sampleRate: Int
    /// Whether the frame carries a padding byte.
    package let padding: Bool
    /// Whether the channel mode is mono.
    package let isMono: Bool

    private static let bitratesV1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let bitratesV2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    private static let ratesV1 = [44100, 48000, 32000]

    /// Parses the 4 bytes at `offset`; nil if they are not a Layer III header.
    package init?(_ bytes: [UInt8], at offset: Int) {
        guard offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = (bytes[offset + 1] >> 3) & 3
        let layerBits = (bytes[offset + 1] >> 1) & 3
        let bitrateIndex = Int(bytes[offset + 2] >> 4)
        let rateIndex = Int((bytes[offset + 2] >> 2) & 3)
        guard versionBits != 1, layerBits == 1, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else {
            return nil
        }
        version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 2.5
        bitrateKbps = (version == 1 ? Self.bitratesV1 : Self.bitratesV2)[bitrateIndex]
        sampleRate = Self.ratesV1[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        padding = (bytes[offset + 2] >> 1) & 1 == 1
        isMono = bytes[offset + 3] >> 6 == 3
    }

    /// PCM samples per frame: 1152 (MPEG-1) or 576 (MPEG-2/2.5).
    package var samplesPerFrame: Int { version == 1 ? 1152 : 576 }

    /// Frame length in bytes, header included.
    package var frameLength: Int {
        samplesPerFrame / 8 * bitrateKbps * 1000 / sampleRate + (padding ? 1 : 0)
    }

    /// All frames of a stream in order; stops at the first byte that does not start a frame.
    /// - Returns: the headers and how many bytes they cover (trailing bytes are not counted).
    package static func scan(_ bytes: [UInt8]) -> (frames: [MP3FrameHeader], bytes: Int) {
        var offset = 0
        if bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) {
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            offset = 10 + size
        }
        let start = offset
        var frames: [MP3FrameHeader] = []
        while let header = MP3FrameHeader(bytes, at: offset), offset + header.frameLength <= bytes.count {
            frames.append(header)
            offset += header.frameLength
        }
        return (frames, offset - start)
    }
}
