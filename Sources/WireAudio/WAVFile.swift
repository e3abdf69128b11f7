import Glibc

/// Reading and writing RIFF/WAVE files of 16-bit PCM.
///
/// Reading accepts integer PCM (format tag 1, or `WAVE_FORMAT_EXTENSIBLE` with the PCM
/// subformat), 16-bit, mono or stereo (stereo is downmixed by averaging), at any sample rate;
/// unknown chunks (`LIST`, `fact`, …) are skipped, including their pad byte. A `data` chunk
/// whose declared size runs past the end of the file is an error, except for the streaming
/// sizes 0 and 0xFFFFFFFF, which mean "to the end of the file". Writing produces the canonical
/// 44-byte header followed by mono s16le data.
package enum WAVFile {
    /// Decodes WAV bytes into a mono buffer.
    /// - Throws: `WAVError` for non-WAV, non-PCM, unsupported layout or truncated input.
    package static func decode(_ bytes: [UInt8]) throws(WAVError) -> PCMBuffer {
        guard bytes.count >= 12, ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else {
            throw .notRIFFWave
        }
        var offset = 12
        var format: (channels: Int, rate: Int)?
        while offset + 8 <= bytes.count {
            let id = ascii(bytes, offset)
            let declared = Int(readUInt32(bytes, offset + 4))
            let body = offset + 8
            if id == "data" {
                guard let format else { throw .missingFormatChunk }
                var size = declared
                if size == 0 || declared == 0xFFFF_FFFF { size = bytes.count - body }
                guard body + size <= bytes.count else {
                    throw .truncated(expectedBytes: body + size, availableBytes: bytes.count)
                }
                return samples(bytes[body..<(body + size)], channels: format.channels, rate: format.rate)
            }
            guard body + declared <= bytes.count else {
                throw .truncated(expectedBytes: body + declared, availableBytes: bytes.count)
            }
            if id == "fmt " {
                format = try parseFormat(bytes, body, declared)
            }
            offset = body + declared + (declared & 1)
        }
        if offset < bytes.count {
            throw .truncated(expectedBytes: offset + 8, availableBytes: bytes.count)
        }
        throw format == nil ? .missingFormatChunk : .missingDataChunk
    }

    /// The header of a WAV *stream*: where the samples of the `data` chunk start and their
    /// layout, for audio that arrives in pieces (the data may run past `bytes`). `nil` when
    /// `bytes` does not start with a complete RIFF/WAVE header up to the `data` chunk.
    package static func streamHeader(_ bytes: [UInt8]) -> (dataOffset: Int, channels: Int, sampleRate: Int)? {
        guard bytes.count >= 12, ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else { return nil }
        var offset = 12
        var format: (channels: Int, rate: Int)?
        while offset + 8 <= bytes.count {
            let declared = Int(readUInt32(bytes, offset + 4))
            let body = offset + 8
            switch ascii(bytes, offset) {
            case "data":
                guard let format else { return nil }
                return (body, format.channels, format.rate)
            case "fmt ":
                guard body + declared <= bytes.count, let parsed = try? parseFormat(bytes, body, declared) else {
                    return nil
                }
                format = parsed
            default:
                break
            }
            offset = body + declared + (declared & 1)
        }
        return nil
    }

    /// The 44-byte header of a streamed mono 16-bit WAV whose `data` holds `dataBytes` bytes.
    package static func streamHeader(sampleRate: Int, dataBytes: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(44)
        out += Array("RIFF".utf8)
        append32(&out, UInt32(clamping: 36 + dataBytes))
        out += Array("WAVEfmt ".utf8)
        append32(&out, 16)
        append16(&out, 1)  // PCM
        append16(&out, 1)  // mono
        append32(&out, UInt32(sampleRate))
        append32(&out, UInt32(sampleRate * 2))  // byte rate
        append16(&out, 2)  // block align
        append16(&out, 16)  // bits per sample
        out += Array("data".utf8)
        append32(&out, UInt32(clamping: dataBytes))
        return out
    }

    /// Encodes a buffer as a 16-bit mono WAV file.
    package static func encode(_ buffer: PCMBuffer) -> [UInt8] {
        var out = streamHeader(sampleRate: buffer.sampleRate, dataBytes: buffer.count * 2)
        out += buffer.littleEndianBytes
        return out
    }

    /// Reads and decodes the WAV file at `path`.
    package static func read(path: String) throws(WAVError) -> PCMBuffer {
        try decode(FileBytes.read(path: path))
    }

    /// Reads and decodes the WAV file at `path` relative to `folder`, refusing one that
    /// resolves outside it (``FileBytes/read(path:inside:)``).
    package static func read(path: String, inside folder: String) throws(WAVError) -> PCMBuffer {
        try decode(FileBytes.read(path: path, inside: folder))
    }

    /// Encodes `buffer` and writes it to `path`, replacing any existing file.
    package static func write(_ buffer: PCMBuffer, to path: String) throws(WAVError) {
        try FileBytes.write(encode(buffer), to: path)
    }

    // MARK: - Parsing helpers

    private static func parseFormat(_ bytes: [UInt8], _ body: Int, _ size: Int) throws(WAVError) -> (Int, Int) {
        guard size >= 16 else { throw .truncated(expectedBytes: body + 16, availableBytes: body + size) }
        var tag = readUInt16(bytes, body)
        if tag == 0xFFFE, size >= 26 {
            tag = readUInt16(bytes, body + 24)  // first two bytes of the SubFormat GUID
        }
        guard tag == 1 else { throw .unsupportedFormat(formatTag: tag) }
        let channels = Int(readUInt16(bytes, body + 2))
        let rate = Int(readUInt32(bytes, body + 4))
        let bits = Int(readUInt16(bytes, body + 14))
        guard bits == 16, channels == 1 || channels == 2, rate > 0 else {
            throw .unsupportedLayout(channels: channels, bitsPerSample: bits)
        }
        return (channels, rate)
    }

    private static func samples(_ data: ArraySlice<UInt8>, channels: Int, rate: Int) -> PCMBuffer {
        let interleaved = PCMBuffer(littleEndianBytes: data, sampleRate: rate).samples
        guard channels == 2 else { return PCMBuffer(samples: interleaved, sampleRate: rate) }
        let mono = stride(from: 0, to: interleaved.count - 1, by: 2).map {
            Int16((Int(interleaved[$0]) + Int(interleaved[$0 + 1])) / 2)
        }
        return PCMBuffer(samples: mono, sampleRate: rate)
    }

    private static func ascii(_ bytes: [UInt8], _ offset: Int) -> String {
        guard offset + 4 <= bytes.count else { return "" }
        return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    private static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private static func append16(_ out: inout [UInt8], _ value: UInt16) {
        out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}
