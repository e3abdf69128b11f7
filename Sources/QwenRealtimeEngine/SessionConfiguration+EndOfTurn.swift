import WireJSON

extension SessionConfiguration {
    /// The scenario's end-of-turn silence (`endOfTurnSilenceMs`, the AIBuds "maximum permitted
    /// speech pause before the AI responds"): the server VAD's `silence_duration_ms` unless the
    /// client sets one, echoed in `session.created`; clamped to the service's 200–6000 ms.
    mutating func useEndOfTurnSilence(ms: Int) {
        let silence = min(max(ms, 200), 6000)
        endOfTurnSilenceMs = silence
        guard var detection = object["turn_detection"]?.objectValue, detection["silence_duration_ms"] != nil else {
            return
        }
        detection["silence_duration_ms"] = .int(Int64(silence))
        object["turn_detection"] = .object(detection)
    }
}
