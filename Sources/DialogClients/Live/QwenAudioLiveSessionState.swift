import ProtocolModel
import WireJSON
import WireSocket

/// What a `QwenAudioLiveClient` tracks, guarded by its mutex.
struct QwenAudioLiveSessionState {
    enum Phase: Equatable { case idle, connecting, configuring, ready, closed }

    var callbacks = QwenAudioLiveCallbacks()
    var faults = QwenAudioLiveFaults()
    var socket: WebSocketClient?
    var connection: ClientConnection?
    var phase = Phase.idle
    /// Events held until the first `session.updated` (qal.C4).
    var held: [String] = []
    /// The effective session (of the last `session.updated`, else `session.created`).
    var session: JSONObject = [:]
    /// `turn_detection.type` in effect: `server_vad` or `duplex`.
    var turnDetection = "server_vad"
    /// `turn_detection.interrupt_response` in effect (barge-in stops the model).
    var interruptResponse = true
    /// `transport.type` last asked for or confirmed; with `aoq` no audio goes on the WebSocket (qal.C7).
    var transport = "websocket"
    /// Function calls: call id → output sent (qal.C8: exactly one each).
    var calls: [String: Bool] = [:]
    /// Client delegations: id → commentary sent (qal.C9).
    var delegations: [String: Bool] = [:]
    var player = PlaybackModel()
    /// When the last audio delta arrived (monotonic µs): playback ends after a quiet spell.
    var lastAudioMicros: Int64 = 0
    /// Whether an end-of-playback check is scheduled.
    var playbackCheckArmed = false
    /// Audio deltas received so far (lets a caller wait for an answer).
    var audioDeltas = 0
    /// When the server last sent output (audio, subtitles, a call, a delegation).
    var lastOutputMicros: Int64 = 0
    /// `session.close` was sent: nothing more goes out.
    var closeSent = false
    /// `session.closed` arrived (or the socket closed): nothing more goes out (qal.C10).
    var sessionClosed = false
    var closeReason: String?
    var waiter:
        (
            kind: QwenAudioLiveServerEvent, eventID: String?,
            continuation: CheckedContinuation<Result<JSONObject, QwenAudioLiveError>, Never>
        )?

    /// Whether the session asked for AOQ media: the uplink then belongs to AOQ (qal.C7).
    var audioGoesOverAOQ: Bool { transport == "aoq" }

    /// Whether a call or a client delegation still waits for the app's answer.
    var hasPendingAnswers: Bool { calls.values.contains(false) || delegations.values.contains(false) }
}
