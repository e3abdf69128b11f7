/// How Opus arrives on a WebSocket: bare packets, one per binary frame, or an Ogg Opus stream.
///
/// The multimodal protocol names these `raw-opus` and `opus` (Ogg-wrapped). Detection looks at
/// the first bytes of the first binary frame: an Ogg stream always starts with the capture
/// pattern `OggS`, which is not a plausible Opus TOC sequence for a first packet.
package enum OpusFraming: String, Sendable, CaseIterable {
    /// One bare Opus packet per binary frame (`raw-opus`).
    case raw
    /// An Ogg Opus byte stream split arbitrarily across frames (`opus`).
    case ogg

    /// The framing for a stream starting with `prefix`, or nil if fewer than 4 bytes
    /// arrived and they are still a prefix of `OggS`.
    package static func detect(prefix: some Collection<UInt8>) -> OpusFraming? {
        let capture = Array("OggS".utf8)
        let head = Array(prefix.prefix(4))
        if head == capture { return .ogg }
        if head.count < 4, capture.starts(with: head) { return nil }
        return .raw
    }
}

/// Recognises audio containers where raw samples were declared: a client that sends an Ogg
/// file's pages or a WAV file's bytes on a stream declared as raw PCM.
package enum AudioContainer: String, Sendable {
    case ogg
    case wav

    /// The container `bytes` begin with: a whole Ogg page (capture pattern, version 0, and a
    /// header and segment table whose page fits in the bytes) or a RIFF/WAVE header; nil for
    /// anything else. Raw PCM passes these structural checks by chance with negligible odds.
    package static func detect(_ bytes: [UInt8]) -> AudioContainer? {
        if bytes.count >= 27, bytes[0] == 0x4F, bytes[1] == 0x67, bytes[2] == 0x67, bytes[3] == 0x53,
            bytes[4] == 0, bytes[5] & ~0x07 == 0
        {
            let segments = Int(bytes[26])
            if bytes.count >= 27 + segments {
                let body = bytes[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
                if 27 + segments + body <= bytes.count { return .ogg }
            }
        }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) {
            return .wav
        }
        return nil
    }
}
