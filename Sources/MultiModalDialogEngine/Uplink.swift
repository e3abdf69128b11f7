import ProtocolModel
import WireAudio

/// The uplink as the engine hears it from Start on (S6, S7): the decoder of the declared format,
/// the voice-activity detector, the utterance being recognised and the push2talk bracket. A value
/// with its own transitions; what they mean on the wire is the session's business.
struct Uplink {
    /// Decodes binary frames at the declared format and rate (C9).
    private(set) var decoder: UplinkAudioDecoder
    /// The detector of speech in the decoded audio (tap2talk, duplex).
    var detector: VoiceActivityDetector
    private let detectorSettings: VADConfiguration
    /// The utterance being recognised, if any.
    private(set) var utterance: Utterance?
    /// push2talk: between SendSpeech and StopSpeech.
    private(set) var pushToTalkOpen = false
    /// When `SpeechEnded` was last sent (tap2talk grace for frames in flight, C11).
    var speechEndedSentAt: Int64?
    /// The PCM stream's sustained rate (a rate mislabel, C9).
    var rate = AudioRateMonitor()

    /// The uplink of a session started with `format` at `sampleRate`.
    init(format: UplinkFormat, sampleRate: Int, detectorSettings: VADConfiguration) {
        decoder = UplinkAudioDecoder(format: format, sampleRate: sampleRate)
        detector = VoiceActivityDetector(sampleRate: sampleRate, configuration: detectorSettings)
        self.detectorSettings = detectorSettings
    }

    /// UpdateInfo changed the upstream (§5.6): a new decoder when the format or rate changed, and
    /// speech detection starts over.
    mutating func reconfigure(format: UplinkFormat, sampleRate: Int) {
        if decoder.format != format || decoder.sampleRate != sampleRate {
            decoder = UplinkAudioDecoder(format: format, sampleRate: sampleRate)
        }
        restartDetection()
    }

    /// A fresh detector at the uplink rate; no utterance; the push2talk bracket closed.
    mutating func restartDetection() {
        detector = VoiceActivityDetector(sampleRate: decoder.sampleRate, configuration: detectorSettings)
        utterance = nil
        pushToTalkOpen = false
    }

    /// An utterance starts being recognised.
    mutating func begin(_ utterance: Utterance) {
        self.utterance = utterance
    }

    /// push2talk: SendSpeech opened the bracket.
    mutating func openBracket() {
        pushToTalkOpen = true
    }

    /// push2talk: audio inside the bracket; the utterance's bracket audio so far, in ms.
    mutating func addBracketAudio(ms: Int) -> Int {
        utterance?.bracketAudioMs += ms
        return utterance?.bracketAudioMs ?? 0
    }

    /// Ends the utterance in progress (the bracket closes with it) and returns it.
    mutating func close() -> Utterance? {
        guard let open = utterance else { return nil }
        utterance = nil
        pushToTalkOpen = false
        return open
    }

    /// Drops the utterance in progress without closing the bracket or restarting detection
    /// (duplex: the detector goes on listening).
    mutating func dropUtterance() {
        utterance = nil
    }

    /// The cumulative partial transcript after `speechMs` of speech, one token per `tokenMs`,
    /// never the whole text; nil when it reveals nothing new.
    mutating func reveal(speechMs: Int, tokenMs: Int) -> (text: String, round: Int)? {
        // Called for every uplink chunk: the utterance is read and updated in place, not copied.
        guard let tokenCount = utterance?.tokens.count, tokenCount > 1, let revealed = utterance?.revealed else {
            return nil
        }
        let count = min(tokenCount - 1, speechMs / max(1, tokenMs))
        guard count > revealed else { return nil }
        utterance?.revealed = count
        guard let open = utterance else { return nil }
        return (open.tokens.prefix(count).joined(), open.round)
    }
}
