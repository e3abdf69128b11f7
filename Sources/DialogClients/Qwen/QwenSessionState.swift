import ProtocolModel
import WireJSON
import WireSocket

/// What a `QwenRealtimeClient` tracks, guarded by its mutex.
struct QwenSessionState {
    enum Phase: Equatable { case idle, connecting, configuring, ready, closed }

    var callbacks = QwenRealtimeCallbacks()
    var faults = QwenRealtimeFaults()
    var socket: WebSocketClient?
    var connection: ClientConnection?
    var phase = Phase.idle
    /// Frames held until `session.updated` of the first update (C4).
    var held: [String] = []
    var session: JSONObject = [:]
    /// `turn_detection.type`, nil for push-to-talk.
    var turnDetection: String? = "server_vad"
    var inputRate = 16_000
    var outputRate = 24_000
    /// push-to-talk: µs of audio appended since the last commit/clear (C10).
    var bufferedMicros: Int64 = 0
    var audioAppended = false
    /// `response.create` sent, `response.created` not yet seen.
    var createSent = false
    var responseInProgress: String?
    /// A `response.create` waiting for the current response to end (C11, C13).
    var deferredCreate: JSONObject?
    /// From `speech_started` to the turn's `response.done` (C11 smart_turn; finish waits).
    var inTurn = false
    /// Function calls of the current/last response: call id → output sent (C13).
    var calls: [String: Bool] = [:]
    var cancelled: Set<String> = []
    var player = PlaybackModel()
    var playingResponse: String?
    var finishSent = false
    /// A fatal error or the close ended the session (C19): nothing is sent or awaited any more.
    var terminated = false
    var finished = false
    var waiter:
        (kind: QwenServerEvent, continuation: CheckedContinuation<Result<JSONObject, QwenRealtimeError>, Never>)?

    /// Whether a response is requested, running or about to run.
    var isBusy: Bool { createSent || responseInProgress != nil || deferredCreate != nil || inTurn }
}
