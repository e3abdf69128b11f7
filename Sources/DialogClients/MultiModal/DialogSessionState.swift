import WireJSON
import WireSocket

/// Everything a `MultiModalDialog` tracks, guarded by its mutex.
struct DialogSessionState {
    enum Phase: Equatable { case idle, connecting, awaitingStarted, started, finishing, closed }

    /// An operation waiting for the next Listening (C10, C13: only allowed in Listening).
    enum Pending {
        case sendSpeech
        case audio([UInt8])
        case stopSpeech
        case cancelSpeech
        case requestToRespond(type: String, text: String, parameters: JSONObject)
    }

    /// Playback bookkeeping of the current answer round (C19).
    struct Round {
        var respondingStarted = false
        var localStartedSent = false
        var localEndedSent = false
        /// Interrupted (RequestAccepted or barge-in): later audio of the round is dropped.
        var interrupted = false
    }

    var mode: DialogMode
    var callbacks = MultiModalDialog.Callbacks()
    var faults = MultiModalDialogFaults()
    var socket: WebSocketClient?
    var connection: ClientConnection?
    var phase = Phase.idle
    var taskID = Identifiers.uuid()
    var dialogID: String?
    var dialogState = DialogState.idle
    var listeningSeen = false
    var pushToTalkOpen = false
    /// The server is leaving Listening (StopSpeech or RequestToRespond sent, SpeechEnded seen):
    /// tap2talk upload pauses and Listening-only directives wait for the next Listening (C11, C13).
    var tapPaused = false

    /// Whether Listening-only directives may go out now.
    var canActInListening: Bool { dialogState == .listening && !tapPaused && pending.isEmpty }
    var pending: [Pending] = []
    var round = Round()
    var player = PlaybackModel()
    var lastReceivedAt: Int64 = 0
    var lastHeartbeatAt: Int64 = -60_000_000
    var lastAudioAt: Int64 = 0
    var finishSent = false
    var upstreamFormat = "pcm"
    var upstreamRate = 16_000
    var downstreamFormat = "pcm"
    var downstreamRate = 24_000
    var downstreamBitRate = 32
    var startWaiter: CheckedContinuation<Result<String, DialogError>, Never>?
    var endWaiters: [CheckedContinuation<Void, Never>] = []

    init(mode: DialogMode) { self.mode = mode }

    /// Whether the mode and state call for continuous upload right now (C11, C12).
    var wantsContinuousAudio: Bool {
        guard phase == .started, listeningSeen, !finishSent else { return false }
        switch mode {
        case .push2talk: return false
        case .tap2talk: return dialogState == .listening && !tapPaused
        case .duplex: return true
        }
    }
}
