/// The uplink audio encodings of `upstream.audio_format` (§7.1).
package enum UplinkFormat: String, Sendable, Hashable, CaseIterable {
    /// s16le mono at `upstream.sample_rate`.
    case pcm
    /// Opus; the SDKs' name. The framing (Ogg or bare packets) is detected from the first bytes.
    case opus
    /// Bare Opus packets, one per binary frame (DOC-MMWS's name).
    case rawOpus = "raw-opus"
}
