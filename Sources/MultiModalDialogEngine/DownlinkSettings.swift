/// The downlink audio encodings of `downstream.audio_format` (§7.2).
package enum DownlinkFormat: String, Sendable, Hashable, CaseIterable {
    /// s16le mono at `downstream.sample_rate`.
    case pcm
    /// MPEG audio layer III (LAME), mono.
    case mp3
    /// Ogg-encapsulated Opus (RFC 7845).
    case opus
    /// Bare Opus packets, one per binary frame.
    case rawOpus = "raw-opus"
}

/// The downstream half of `Start.parameters` that shapes answers (§5.1).
package struct DownlinkSettings: Sendable, Hashable {
    /// Encoding of answer audio.
    package var format: DownlinkFormat = .pcm
    /// Sample rate of answer audio (8000, 16000, 24000 or 48000).
    package var sampleRate = 24000
    /// `sample_rate: 0` was sent (the Java SDK's unset value), so `sampleRate` is the default.
    package var sampleRateUnset = false
    /// Opus frame size in milliseconds (10, 20, 40, 60, 100, 120).
    package var frameSizeMs = 60
    /// Opus bit rate in kbit/s (6–510).
    package var bitRateKbps = 32
    /// Loudness 0–100 (50 = the synthesizer's nominal level).
    package var volume = 50
    /// Speaking rate in percent (50–200).
    package var speechRate = 100
    /// Pitch in percent (50–200).
    package var pitchRate = 100
    /// `intermediate_text` ∋ `transcript`: partial SpeechContent is sent.
    package var transcriptPartials = true
    /// `intermediate_text` ∋ `dialog`: partial RespondingContent is sent.
    package var dialogPartials = false
    /// `incremental_response`: text/spoken carry increments instead of the text so far.
    package var incrementalResponse = false
    /// `transmit_rate_limit`: downstream audio bytes per second, or nil for no cap.
    package var transmitRateLimit: Int?
    /// `downstream.type == "Text"`: answers carry no audio.
    package var textOnly = false
    /// The requested voice, echoed nowhere (the console decides it on the real service).
    package var voice: String?

    /// The defaults of §5.1.
    package init() {}
}
