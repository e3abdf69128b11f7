import WireJSON

/// Session-wide behaviour: device-style policies from the AIBuds SDK and the protocols'
/// own timeouts. Every duration is in scenario milliseconds and is multiplied by the
/// scenario's time scale before use (``scaled(_:timeScale:)``); `nil` turns a rule off.
package struct SessionPolicies: Sendable, Hashable {
    /// End the session after this long without user input — speech the VAD detected or a text
    /// turn; held while a turn or an answer (with its playback) runs (AIBuds
    /// `autoEndSessionAfterNoInputDuration`, 15 s in the SDK). Off by default.
    package var idleEndMs: Double?
    /// The silence that ends the user's turn, in audio milliseconds: the multimodal VAD's, and
    /// the Qwen server VAD's `silence_duration_ms` when the client sets none (AIBuds
    /// `maxPauseDurationBeforeAIResponds`, "Maximum permitted speech pause before the AI
    /// responds"). `nil`: the engines' default (800 ms). The scenario key `responsePauseMs`
    /// is read as this (it used to add a delay after the end of the turn).
    package var endOfTurnSilenceMs: Double?
    /// Whether answers carry voice (AIBuds `enableVoicePlayback`); `false`: text only (no
    /// answer audio on either protocol).
    package var voicePlayback: Bool
    /// Journal a final session report when the session ends (AIBuds `onFinish`).
    package var sessionReport: Bool
    /// Whether user barge-in (voice or `RequestToSpeak` / `response.cancel`) interrupts the
    /// answer (AIBuds `allowUserToInterruptAIResponse`).
    package var interruptible: Bool
    /// Multimodal dialog: fail the call after the server sent nothing for this long (60 s).
    package var serverSilenceTimeoutMs: Double?
    /// Multimodal dialog: error after this long without upstream audio while the engine
    /// watches the gap (tap2talk and duplex: Listening) (20 s).
    package var audioGapTimeoutMs: Double?
    /// Multimodal dialog, duplex: whether the audio-gap rule also watches Thinking and
    /// Responding. The docs name Listening; the official iOS demo stops its recorder on
    /// `SpeechEnded` and restarts it on Listening, so the default is `false`.
    package var duplexAudioGapInEveryState: Bool
    /// Qwen realtime: maximum session length (120 minutes).
    package var sessionCapMs: Double?
    /// Qwen-Audio-Live duplex: how long a user segment runs before the model answers without
    /// waiting for its end (3 s; inferred: the pages describe the behaviour, not its timing);
    /// `nil` answers at the end of speech only.
    package var duplexInterjectMs: Double?
    /// Qwen realtime: on the first answer of a session that declares tools and whose turn
    /// scripts no `functionCalls`, call the declared tool that best fits the transcript, then
    /// answer with its output. Off by default; the default and `tools` scenarios turn it on.
    package var callDeclaredTools: Bool
    /// Multimodal dialog: the final RespondingContent of each round carries
    /// `extra_info.timestamps`, when the round's steps happened (ms since the round started),
    /// unless the turn scripts its own. Off by default; the default scenario turns it on. The keys
    /// are mock-invented (inferred): DOC-MMWS names the field but not its keys.
    package var roundTimestamps: Bool
    /// Qwen realtime, audio profile: a first `session.update` that carries no `turn_detection`
    /// means push-to-talk, as the nuisdk documents for an `nls_config` without it (SEED-003).
    /// On by default (SEED-003, `nls_config.turn_detection`: "If omitted, the session uses
    /// push-to-talk mode"; `vad_mode` fixed to `MODE_P2T`). `session.created` still reports
    /// server VAD (DOC-QA-SE); only the first update decides. Off: an absent key keeps it.
    package var omittedTurnDetectionIsPushToTalk: Bool
    /// Multimodal dialog, opt-in: the voices of the application's TTS model; `downstream.voice`
    /// outside them (other than `""`, the console's voice, and cloned `cosyvoice-…` ids) is
    /// refused with `InvalidParameter`. `nil` (the default) accepts any voice: the service
    /// documents no list (seeds 000/001 name none; DOC-MMWS: the voices are the console's TTS
    /// model's), and real apps use voices such as `longanyang` or `Cherry` (issue 40 row 2).
    package var voices: [String]?

    /// Creates policies; the defaults are the documented protocol values with no idle end.
    package init(
        idleEndMs: Double? = nil, endOfTurnSilenceMs: Double? = nil, interruptible: Bool = true,
        serverSilenceTimeoutMs: Double? = 60_000, audioGapTimeoutMs: Double? = 20_000,
        duplexAudioGapInEveryState: Bool = false, sessionCapMs: Double? = 7_200_000,
        duplexInterjectMs: Double? = 3_000, callDeclaredTools: Bool = false,
        roundTimestamps: Bool = false, omittedTurnDetectionIsPushToTalk: Bool = true,
        voices: [String]? = nil, voicePlayback: Bool = true, sessionReport: Bool = false
    ) {
        self.idleEndMs = idleEndMs
        self.endOfTurnSilenceMs = endOfTurnSilenceMs
        self.voicePlayback = voicePlayback
        self.sessionReport = sessionReport
        self.interruptible = interruptible
        self.serverSilenceTimeoutMs = serverSilenceTimeoutMs
        self.audioGapTimeoutMs = audioGapTimeoutMs
        self.duplexAudioGapInEveryState = duplexAudioGapInEveryState
        self.sessionCapMs = sessionCapMs
        self.duplexInterjectMs = duplexInterjectMs
        self.callDeclaredTools = callDeclaredTools
        self.roundTimestamps = roundTimestamps
        self.omittedTurnDetectionIsPushToTalk = omittedTurnDetectionIsPushToTalk
        self.voices = voices
    }

    /// Whether `voice` is one the application may ask for (``voices``).
    package func acceptsVoice(_ voice: String) -> Bool {
        guard let voices else { return true }
        return voice.isEmpty || voice.hasPrefix("cosyvoice-") || voices.contains(voice)
    }

    /// `ms` times `timeScale`, in whole microseconds (at least 1 µs for a positive value).
    package static func scaled(_ ms: Double, timeScale: Double) -> Int64 {
        guard ms > 0 else { return 0 }
        return max(1, Int64((ms * timeScale * 1000).rounded()))
    }
}

extension SessionPolicies {
    /// The largest policy duration: one day.
    static let maximumMs = 86_400_000.0

    /// Parses the `policies` object; a duration given as `null` or `0` disables its rule.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> SessionPolicies {
        let reader = try context.object(value, at: tokens)
        let keys = [
            "idleEndMs", "responsePauseMs", "interruptible", "serverSilenceTimeoutMs",
            "audioGapTimeoutMs", "duplexAudioGapInEveryState", "sessionCapMs", "callDeclaredTools",
            "roundTimestamps", "omittedTurnDetectionIsPushToTalk", "voices", "endOfTurnSilenceMs", "voicePlayback",
            "sessionReport", "duplexInterjectMs",
        ]
        try reader.rejectUnknownKeys(allowing: keys)
        var policies = SessionPolicies()
        let range = 0...maximumMs
        func duration(_ key: String, _ current: Double?) throws(ScenarioError) -> Double? {
            guard reader.object[key] != nil else { return current }
            let value = try reader.double(key, in: range)
            return value == 0 ? nil : value
        }
        policies.idleEndMs = try duration("idleEndMs", policies.idleEndMs)
        if reader.object["endOfTurnSilenceMs"] != nil, reader.object["responsePauseMs"] != nil {
            throw context.error(
                reader.path("responsePauseMs"), "give endOfTurnSilenceMs or its old name responsePauseMs, not both")
        }
        for key in ["endOfTurnSilenceMs", "responsePauseMs"] where reader.object[key] != nil {
            let value = try reader.double(key, in: 0...6_000)
            policies.endOfTurnSilenceMs = value == 0 ? nil : value
        }
        policies.voicePlayback = try reader.bool("voicePlayback") ?? true
        policies.sessionReport = try reader.bool("sessionReport") ?? false
        policies.interruptible = try reader.bool("interruptible") ?? true
        policies.serverSilenceTimeoutMs = try duration("serverSilenceTimeoutMs", policies.serverSilenceTimeoutMs)
        policies.audioGapTimeoutMs = try duration("audioGapTimeoutMs", policies.audioGapTimeoutMs)
        policies.duplexAudioGapInEveryState = try reader.bool("duplexAudioGapInEveryState") ?? false
        policies.sessionCapMs = try duration("sessionCapMs", policies.sessionCapMs)
        policies.duplexInterjectMs = try duration("duplexInterjectMs", policies.duplexInterjectMs)
        policies.callDeclaredTools = try reader.bool("callDeclaredTools") ?? false
        policies.roundTimestamps = try reader.bool("roundTimestamps") ?? false
        policies.omittedTurnDetectionIsPushToTalk = try reader.bool("omittedTurnDetectionIsPushToTalk") ?? true
        if let given = reader.object["voices"] {
            if given.isNull {
                policies.voices = nil
            } else {
                var voices: [String] = []
                for (index, element) in (try reader.array("voices") ?? []).enumerated() {
                    guard let voice = element.stringValue, !voice.isEmpty else {
                        throw context.error(reader.path("voices") + [String(index)], "expected a non-empty voice name")
                    }
                    voices.append(voice)
                }
                policies.voices = voices
            }
        }
        return policies
    }
}
