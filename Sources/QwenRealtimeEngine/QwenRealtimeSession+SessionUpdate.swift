import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension QwenRealtimeSession {
    /// `session.update` (S4, S5): validate, merge as a patch, reply `session.updated` with the
    /// full configuration, or `error` keeping the old one.
    func sessionUpdate(_ event: JSONObject) -> [SessionCommand] {
        let isFirst = lifecycle.sessionUpdateArrived()
        guard case .object(var patch)? = event["session"] else {
            return reject(.invalidValue("session", "session.update needs a 'session' object."), "qrt.C5")
        }
        var notes: [SessionCommand] = []
        if isFirst, dialect.omittedTurnDetectionMayMeanPushToTalk, !input.started, patch["turn_detection"] == nil,
            scenario.runtime.scenario.policies.omittedTurnDetectionIsPushToTalk
        {
            patch["turn_detection"] = .null
            notes.append(
                .journal(
                    .info(
                        "the first session.update carries no turn_detection: push-to-talk on the audio profile, "
                            + "as the nuisdk documents (policy omittedTurnDetectionIsPushToTalk)")))
        }
        let before = configuration
        switch configuration.apply(patch, isFirstUpdate: isFirst, audioStarted: input.started) {
        case .failure(let failure):
            return reject(failure.error, failure.obligation)
        case .success(let result):
            var commands = notes
            for key in result.ignoredKeys {
                // C7's SHOULD half: the docs say a later value is ignored, not refused (DOC-QA-CE).
                commands.append(
                    .journal(.should("qrt.C7", "\(key) is only honoured in the first session.update (ignored)")))
            }
            let voiceprintID = result.voiceprintURLs.isEmpty ? nil : scenario.runtime.ids.id(prefix: "vp_")
            if let voiceprintID {
                commands += emit(
                    .voiceprintAudioListInProgress, ["item_id": .string(voiceprintID)],
                    delay: delay(before: .voiceprintAudioListInProgress))
            }
            commands += emit(
                .sessionUpdated, ["session": configuration.json], delay: delay(before: .sessionUpdated))
            if isFirst { lifecycle.firstUpdatedSent(atMicros: timeline.laneTime) }
            if let voiceprintID {
                commands += voiceprintResult(voiceprintID, urls: result.voiceprintURLs)
            }
            if before.turnDetection != configuration.turnDetection { commands += turnDetectionChanged() }
            return commands + enter(phase == .idle && input.started ? .listening : phase)
        }
    }

    /// The voiceprint outcome: `failed` when a URL is not http(s) (scriptable by giving a bad
    /// URL), else `completed` (S5).
    private func voiceprintResult(_ id: String, urls: [String]) -> [SessionCommand] {
        let bad = urls.first { !($0.hasPrefix("http://") || $0.hasPrefix("https://")) }
        if let bad {
            return emit(
                .voiceprintAudioListFailed,
                ["item_id": .string(id), "reason": .string("Cannot download voiceprint audio: \(bad)")],
                delay: delay(before: .voiceprintAudioListFailed))
        }
        return emit(
            .voiceprintAudioListCompleted, ["item_id": .string(id)],
            delay: delay(before: .voiceprintAudioListCompleted))
    }

    /// Restarts the detector for a new turn-detection mode (omni may change it mid-session).
    func turnDetectionChanged() -> [SessionCommand] {
        turns.detectionChanged()
        guard input.started else { return [] }
        input.detector = makeDetector()
        input.detectorOffsetMs = input.totalMs
        return []
    }

    /// A detector for the configured VAD mode, `nil` in push-to-talk.
    func makeDetector() -> VoiceActivityDetector? {
        guard let detection = configuration.turnDetection else { return nil }
        // smart_turn ignores threshold and silence_duration_ms (§3.3): use the defaults.
        let vad: VADConfiguration =
            detection.isSmartTurn
            ? .qwen(prefixPaddingMs: detection.prefixPaddingMs)
            : .qwen(
                threshold: detection.threshold, silenceDurationMs: detection.silenceDurationMs,
                prefixPaddingMs: detection.prefixPaddingMs)
        return VoiceActivityDetector(sampleRate: input.sampleRate, configuration: vad)
    }
}
