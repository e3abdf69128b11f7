/// Why the scenario ends a session; the protocol engine renders it.
///
/// Suggested rendering — multimodal: `idle` → `task-failed{ResponseTimeout}` + close;
/// `serverSilence` → `task-failed{ResponseTimeout}` + close; `audioGap` →
/// `Error{40000, AudioTimeout}` + `task-failed` + close; `sessionExpiry` →
/// `task-failed{SessionExpired}` + close. Qwen: `error{server_error, session_expired}`, then
/// close; `idle` ends like a finished session (omni `session.finished`) with close 1000.
package enum SessionEnd: Sendable, Hashable {
    /// No client input for the idle-end duration.
    case idle
    /// The server sent nothing for the silence timeout.
    case serverSilence
    /// No upstream audio for the audio-gap timeout while watched.
    case audioGap
    /// The session cap or a `sessionExpiry` fault expired.
    case sessionExpiry
    /// A trigger's `endSession` action, with its reason text.
    case trigger(reason: String)
}

extension SessionEnd {
    /// The end reason a session report gives.
    package var reportName: String {
        switch self {
        case .idle: "idle"
        case .serverSilence: "serverSilence"
        case .audioGap: "audioGap"
        case .sessionExpiry: "sessionExpiry"
        case .trigger: "trigger"
        }
    }
}
