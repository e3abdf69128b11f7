package import ProtocolModel

/// The Qwen realtime profiles sharing one protocol (spec §0): Qwen-Audio-Realtime,
/// Qwen-Omni-Realtime, the transcription-only Qwen-ASR-Realtime and the text-to-speech
/// Qwen-TTS-Realtime, chosen from the model name in the upgrade URL.
package enum QwenProfile: String, Sendable, Hashable, CaseIterable {
    /// `qwen-audio-3.x-realtime-*` (the nuisdk of SEED-003).
    case audio
    /// `*omni*realtime*` (image input, search, sampling knobs, `session.finish`).
    case omni
    /// `qwen3-asr-flash-realtime*`: speech in, transcripts out, no answers.
    case transcription
    /// `qwen-tts-realtime*`, `qwen3-tts-flash-realtime*`, `qwen3-tts-instruct-flash-realtime*`:
    /// text in (`input_text_buffer.*`), audio out (``SpeechSynthesisModel``).
    case speechSynthesis

    /// The profile of `model`, or `nil` for a model of neither family.
    ///
    /// Audio: `qwen-audio-3.<digits>-realtime` optionally followed by `-<suffix>` (`-plus`,
    /// `-flash`, dated snapshots). Omni: a `qwen…` name containing `omni` and then `realtime`.
    package init?(model: String) {
        let name = model.lowercased()
        if Self.isAudioModel(name) {
            self = .audio
        } else if SpeechSynthesisModel(model: name) != nil {
            self = .speechSynthesis
        } else if name.hasPrefix("qwen"), let asr = Self.end(of: "-asr-", in: name),
            Self.end(of: "realtime", in: String(name[asr...])) != nil
        {
            self = .transcription
        } else if name.hasPrefix("qwen"), let omni = Self.end(of: "omni", in: name),
            Self.end(of: "realtime", in: String(name[omni...])) != nil
        {
            self = .omni
        } else {
            return nil
        }
    }

    /// The model families the realtime route serves, for refusals.
    package static var servedModels: String {
        "qwen-audio-3.x-realtime…, qwen…omni…realtime…, qwen3-asr-flash-realtime…, qwen-tts-realtime…, "
            + "qwen3-tts-flash-realtime…, qwen3-tts-instruct-flash-realtime…"
    }

    /// The index just past the first occurrence of `needle` in `text`.
    private static func end(of needle: String, in text: String) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix(needle) { return text.index(index, offsetBy: needle.count) }
            index = text.index(after: index)
        }
        return nil
    }

    private static func isAudioModel(_ name: String) -> Bool {
        let prefix = "qwen-audio-3."
        guard name.hasPrefix(prefix) else { return false }
        let rest = name.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return false }
        let tail = rest.dropFirst(digits.count)
        guard tail.hasPrefix("-realtime") else { return false }
        let suffix = tail.dropFirst("-realtime".count)
        return suffix.isEmpty || (suffix.hasPrefix("-") && suffix.count > 1)
    }

    /// The default voice of `model` (§3.1).
    package static func defaultVoice(model: String, profile: QwenProfile) -> String {
        let name = model.lowercased()
        switch profile {
        case .audio:
            return name.hasPrefix("qwen-audio-3.1") ? "longanqian_v3.1" : "longanqian"
        case .transcription:
            return ""
        case .speechSynthesis:
            return SpeechSynthesisModel.defaultVoice
        case .omni:
            if name.hasPrefix("qwen3.5") || name.hasPrefix("qwen3.8") { return "Tina" }
            if name.hasPrefix("qwen-omni-turbo") { return "Chelsie" }
            return "Cherry"
        }
    }

    /// Whether the model answers (omni, audio) or only transcribes.
    package var answers: Bool { self != .transcription }

    /// The input transcription delta event: ASR's `…input_audio_transcription.text`.
    package var transcriptionDeltaEvent: QwenServerEvent {
        self == .transcription
            ? .conversationItemInputAudioTranscriptionText : .conversationItemInputAudioTranscriptionDelta
    }

    /// Whether transcription events report `language` and `emotion` (omni deltas, every ASR event).
    package var reportsLanguage: Bool { self != .audio }

    /// The `turn_detection.type` values this profile accepts (C5).
    package var turnDetectionTypes: [String] {
        switch self {
        case .audio: ["server_vad", "smart_turn"]
        case .omni: ["server_vad", "semantic_vad"]
        case .transcription: ["server_vad"]
        case .speechSynthesis: []
        }
    }

    /// The input transcription model echoed in the session object (§3.5).
    package var transcriptionModel: String {
        switch self {
        case .audio: "fun-asr"
        case .omni, .transcription, .speechSynthesis: "qwen3-asr-flash-realtime"
        }
    }

    /// Client event types of §4.0 this profile defines (omni's retrieve/delete are served but
    /// journaled as C17).
    package var clientEventTypes: Set<QwenClientEvent> {
        let audio: Set<QwenClientEvent> = [
            .sessionUpdate, .inputAudioBufferAppend, .inputAudioBufferCommit, .inputAudioBufferClear,
        ]
        switch self {
        case .transcription: return audio.union([.sessionFinish])
        case .speechSynthesis:
            return [
                .sessionUpdate, .inputTextBufferAppend, .inputTextBufferCommit, .inputTextBufferClear, .responseCancel,
                .sessionFinish,
            ]
        case .audio:
            return audio.union([
                .conversationItemCreate, .conversationItemRetrieve, .conversationItemDelete, .responseCreate,
                .responseCancel,
            ])
        case .omni:
            return QwenProfile.audio.clientEventTypes.union([.inputImageBufferAppend, .sessionFinish])
        }
    }
}
