/// The Ogg Opus identification header (RFC 7845 §5.1), the first packet of an Ogg Opus stream.
package struct OpusHead: Sendable, Equatable {
    /// Encapsulation version; 1 for RFC 7845 (any 0…15 is accepted).
    package var version: UInt8 = 1
    /// Output channel count (1 or 2 for mapping family 0).
    package var channels: Int
    /// Samples at 48 kHz to discard from the decoder output at the start.
    package var preSkip: Int
    /// The original input sample rate (informational; Opus always decodes at 8–48 kHz).
    package var inputSampleRate: Int
    /// Output gain in Q7.8 dB.
    package var outputGain: Int16 = 0
    /// Channel mapping family (0 = mono/stereo, no mapping table).
    package var mappingFamily: UInt8 = 0

    /// Creates a header for a mono or stereo stream.
    package init(channels: Int = 1, preSkip: Int = 312, inputSampleRate: Int) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
    }

    /// Parses an `OpusHead` packet.
    /// - Throws: `OggOpusError.notOpusHead` or `.unsupportedOpusHead`.
    package init(packet: [UInt8]) throws(OggOpusError) {
        guard packet.count >= 19, packet.starts(with: Array("OpusHead".utf8)) else { throw .notOpusHead }
        version = packet[8]
        channels = Int(packet[9])
        preSkip = Int(packet[10]) | Int(packet[11]) << 8
        inputSampleRate = (0..<4).reduce(0) { $0 | Int(packet[12 + $1]) << (8 * $1) }
        outputGain = Int16(bitPattern: UInt16(packet[16]) | UInt16(packet[17]) << 8)
        mappingFamily = packet[18]
        guard version < 16, channels > 0 else {
            throw .unsupportedOpusHead("version \(version), \(channels) channel(s)")
        }
    }

    /// The 19-byte packet for mapping family 0.
    package var packet: [UInt8] {
        var out = Array("OpusHead".utf8)
        out.append(version)
        out.append(UInt8(channels))
        out += [UInt8(truncatingIfNeeded: preSkip), UInt8(truncatingIfNeeded: preSkip >> 8)]
        out += (0..<4).map { UInt8(truncatingIfNeeded: inputSampleRate >> (8 * $0)) }
        let gain = UInt16(bitPattern: outputGain)
        out += [UInt8(truncatingIfNeeded: gain), UInt8(truncatingIfNeeded: gain >> 8)]
        out.append(mappingFamily)
        return out
    }

    /// A minimal `OpusTags` packet (RFC 7845 §5.2) with `vendor` and no comments.
    package static func tagsPacket(vendor: String) -> [UInt8] {
        let vendorBytes = Array(vendor.utf8)
        var out = Array("OpusTags".utf8)
        out += (0..<4).map { UInt8(truncatingIfNeeded: vendorBytes.count >> (8 * $0)) }
        out += vendorBytes
        out += [0, 0, 0, 0]  // user comment list length
        return out
    }
}

/// Why an Ogg Opus stream could not be demultiplexed.
package enum OggOpusError: Error, Equatable, Sendable {
    /// The first packet of the logical stream is not `OpusHead`.
    case notOpusHead
    /// `OpusHead` is present but unusable.
    case unsupportedOpusHead(String)
    /// The second packet is not `OpusTags`.
    case missingOpusTags
    /// libogg reported an internal failure (the call name).
    case libogg(String)
}
