/// The engine states a Qwen realtime session enters; the raw values are the journal's
/// `state` names.
package enum QwenSessionState: String, Sendable, Hashable {
    case connecting = "Connecting"
    case idle = "Idle"
    case listening = "Listening"
    case speaking = "Speaking"
    case committed = "Committed"
    case responding = "Responding"
    case awaitingToolOutput = "AwaitingToolOutput"
    case finishing = "Finishing"
    case closed = "Closed"
}
