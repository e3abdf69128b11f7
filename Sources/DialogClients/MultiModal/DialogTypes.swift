/// Interaction mode of a multimodal dialog, chosen once in `Start` (`upstream.mode`).
public enum DialogMode: String, Sendable, CaseIterable {
    case push2talk
    case tap2talk
    case duplex
}

/// The dialog state. `idle` is client-only (not connected); the server announces the others
/// with `DialogStateChanged`.
public enum DialogState: String, Sendable {
    case idle = "Idle"
    case listening = "Listening"
    case thinking = "Thinking"
    case responding = "Responding"
}

/// Audio-related dialog events (`onConversationEvent`).
public enum DialogEvent: String, Sendable {
    case speechStarted = "SpeechStarted"
    case speechEnded = "SpeechEnded"
    case respondingStarted = "RespondingStarted"
    case respondingEnded = "RespondingEnded"
    case requestAccepted = "RequestAccepted"
}

/// An error the dialog reports through `onErrorReceived` or throws from `start`.
public struct DialogError: Error, Sendable, CustomStringConvertible, Equatable {
    /// `InvalidApiKey`, `task-failed` codes such as `ResponseTimeout`, the `Error` event's
    /// `error_name`, or a client-side code (`ConnectFailed`, `Timeout`, `Closed`).
    public let code: String
    public let message: String
    /// Whether the session is over (handshake refusal, `task-failed`, lost connection).
    public let isFatal: Bool

    public init(code: String, message: String, isFatal: Bool) {
        self.code = code
        self.message = message
        self.isFatal = isFatal
    }

    public var description: String { "\(code): \(message)" }
}

/// Client-side options beyond the SDK surface: timers of the built-in helpers.
public struct MultiModalDialogOptions: Sendable {
    /// Send `HeartBeat` when the server has been silent this long (C21). Clamped to 5…50 s.
    public var heartbeatPeriodSeconds: Double = 30
    /// Report playback with the built-in player model (LocalRespondingStarted/Ended per round).
    /// Turn off to report playback yourself with `sendLocalRespondingStarted/Ended`.
    public var builtInPlayer = true
    /// Upload 100 ms silence frames whenever the app has sent no audio for 200 ms while the mode
    /// requires continuous audio (tap2talk Listening, duplex), like an open microphone (C11, C12).
    /// PCM uplink only.
    public var keepAudioFlowing = true
    /// How long `stop()` waits for `Stopped` / the server's close before closing itself.
    public var stopTimeoutMillis = 5_000
    /// Extra handshake headers.
    public var headers: [(String, String)] = []

    public init() {}

    var heartbeatPeriodMicros: Int64 { Int64(min(50, max(5, heartbeatPeriodSeconds)) * 1_000_000) }
}
