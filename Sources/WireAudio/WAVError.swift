/// Why a WAV file could not be read or written.
package enum WAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with `RIFF….WAVE`.
    case notRIFFWave
    /// No `fmt ` chunk before the `data` chunk.
    case missingFormatChunk
    /// No `data` chunk.
    case missingDataChunk
    /// The format is not integer PCM (`formatTag` 1, or 0xFFFE with a PCM subformat).
    case unsupportedFormat(formatTag: UInt16)
    /// PCM, but not 16-bit, or with 0 or more than 2 channels.
    case unsupportedLayout(channels: Int, bitsPerSample: Int)
    /// A chunk header or the data chunk runs past the end of the file.
    case truncated(expectedBytes: Int, availableBytes: Int)
    /// The file could not be opened, read or written (`errno` text).
    case io(path: String, reason: String)

    /// A readable one-line explanation.
    package var description: String {
        switch self {
        case .notRIFFWave: "not a RIFF/WAVE file"
        case .missingFormatChunk: "WAV file has no fmt chunk before its data chunk"
        case .missingDataChunk: "WAV file has no data chunk"
        case .unsupportedFormat(let tag): "WAV format tag \(tag) is not integer PCM (1)"
        case .unsupportedLayout(let channels, let bits):
            "WAV layout \(channels) channel(s) × \(bits) bit is unsupported (need 16-bit mono or stereo)"
        case .truncated(let expected, let available):
            "WAV file truncated: needs \(expected) bytes, has \(available)"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }
}
