import ScenarioEngine
import SessionCore

/// Omni `turn_detection.idle_timeout_ms` (§3.3): with server VAD, when the user stays silent
/// that long after an answer has played, the model speaks first with the next scripted turn, once
/// per silence: it waits for the user again after that.
extension QwenRealtimeSession {
    /// The engine timer of the silence after an answer.
    static var speakFirstTimer: String { "speakFirst" }

    /// After an answer of `audioMicros` that started at `startMicros`: schedules the model's own
    /// turn for when playback has ended and the idle timeout has passed without user input.
    func watchIdleSilence(answerStartMicros: Int64, audioMicros: Int64) -> [SessionCommand] {
        guard dialect.speaksFirstAfterIdleTimeout, let detection = configuration.turnDetection,
            detection.type == "server_vad",
            let idleMs = detection.idleTimeoutMs, !tools.isAwaitingOutput, !isFinishing, idleSilence.mayArm
        else { return [] }
        let playbackEnd = max(now, answerStartMicros + audioMicros)
        let due = playbackEnd + scenario.runtime.scenario.scaledMicros(Double(idleMs))
        idleSilence.arm(atMicros: due)
        return [.scheduleTimer(.engine(Self.speakFirstTimer), atMicros: due)]
    }

    /// User input (speech, an item, a response request, a commit): the model does not speak first.
    func userActed() -> [SessionCommand] {
        handle(scenario.runtime.userInput())
            + (idleSilence.userActed() ? [.cancelTimer(.engine(Self.speakFirstTimer))] : [])
    }

    func idleSilenceElapsed() -> [SessionCommand] {
        guard idleSilence.isDue(atMicros: now), response == nil, turns.speaking == nil, !isFinishing else {
            return []
        }
        idleSilence.spoke()
        let idleMs = configuration.turnDetection?.idleTimeoutMs ?? 0
        return [.journal(.info("idle_timeout_ms \(idleMs): the user stayed silent, the model speaks first"))]
            + startResponse(scenario.runtime.nextTurn(), delay: 0)
    }
}
