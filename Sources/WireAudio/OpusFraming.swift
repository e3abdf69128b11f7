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
