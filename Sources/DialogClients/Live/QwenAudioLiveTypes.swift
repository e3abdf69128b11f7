public import WireJSON

/// An `error` event, a refused handshake, or a client-side failure (connect, timeout, closed).
public struct QwenAudioLiveError: Error, Sendable, CustomStringConvertible, Equatable {
    public let code: String
    public let message: String
    /// The `event_id` of the client event the server refused, when it says.
    public let clientEventId: String?
    /// Whether the client itself raised it (`connect_failed`, `timeout`, `closed`), not the server.
    public let isClientSide: Bool

    public init(code: String, message: String, clientEventId: String? = nil, isClientSide: Bool = false) {
        self.code = code
        self.message = message
        self.clientEventId = clientEventId
        self.isClientSide = isClientSide
    }

    public var description: String { "\(code): \(message)" }
}

/// A function call the frontend model asked for (`session.event` with a `function_call` item).
public struct QwenAudioLiveFunctionCall: Sendable, Equatable {
    public let callId: String
    public let name: String
    /// The arguments as JSON text.
    public let arguments: String
}

/// A task the frontend model handed over (`session.delegation.created`).
public struct QwenAudioLiveDelegation: Sendable, Equatable {
    public let id: String
    /// `client` (the app runs it and answers with commentary) or `responses` (the backend runs it).
    public let target: String
}

/// Why local playback of the model's audio ended.
public enum QwenAudioLivePlaybackEnd: String, Sendable {
    /// The queued audio has been played and no more came.
    case played
    /// The user spoke over the model (server VAD with `interrupt_response`): the rest is dropped.
    case bargeIn = "barge_in"
    /// The session ended.
    case closed
}

/// Client options beyond the wire protocol.
public struct QwenAudioLiveOptions: Sendable {
    /// Extra handshake headers.
    public var headers: [(String, String)] = []
    /// How long `connect` waits for `session.created` and `session.updated` (the SDKs: 10 s).
    public var connectTimeoutMillis = 10_000
    /// How long `close()` waits for `session.closed` after `session.close`.
    public var closeTimeoutMillis = 10_000
    /// One `session.input_audio.append` chunk of the paced helper (the C# SDK: 1280 bytes, 40 ms).
    public var chunkMillis = 40
    /// The model's audio has no end event: playback ends once the queued audio has played and
    /// none came for this long.
    public var playbackIdleMillis = 400
    public init() {}
}

/// The client's callbacks, run one at a time in wire order; and the two handlers that answer
/// the model (run off that order, each in its own task).
public struct QwenAudioLiveCallbacks: Sendable {
    /// Every server event, as received (also the ones with a dedicated callback below).
    public var onEvent: (@Sendable (_ type: String, _ event: JSONObject) -> Void)?
    public var onSessionCreated: (@Sendable (JSONObject) -> Void)?
    public var onSessionUpdated: (@Sendable (JSONObject) -> Void)?
    /// A piece of the user's transcript (`session.input_transcript.delta`).
    public var onInputTranscript: (@Sendable (_ delta: String) -> Void)?
    /// A piece of the model's subtitles (`session.output_transcript.delta`).
    public var onOutputTranscript: (@Sendable (_ delta: String) -> Void)?
    /// Decoded 24 kHz PCM of `session.output_audio.delta` (none after a barge-in flush).
    public var onAudio: (@Sendable (_ pcm: [UInt8]) -> Void)?
    public var onPlaybackStarted: (@Sendable () -> Void)?
    public var onPlaybackEnded: (@Sendable (QwenAudioLivePlaybackEnd) -> Void)?
    /// A function call arrived (also when `answerFunctionCall` answers it).
    public var onFunctionCall: (@Sendable (QwenAudioLiveFunctionCall) -> Void)?
    /// A delegation arrived (also when `answerDelegation` answers it).
    public var onDelegation: (@Sendable (QwenAudioLiveDelegation) -> Void)?
    /// A backend event of a `responses` delegation (`response.event`).
    public var onResponseEvent: (@Sendable (_ delegationId: String, _ event: JSONObject) -> Void)?
    /// `session.input_audio.muted` (true) / `.unmuted` (false).
    public var onMuted: (@Sendable (Bool) -> Void)?
    /// `session.usage.updated`: billed seconds so far.
    public var onUsage: (@Sendable (_ seconds: Double) -> Void)?
    public var onError: (@Sendable (QwenAudioLiveError) -> Void)?
    /// `session.closed`: the session is over; nothing more is sent.
    public var onSessionClosed: (@Sendable (_ reason: String) -> Void)?
    /// The socket closed.
    public var onClosed: (@Sendable (_ code: Int, _ reason: String) -> Void)?
    /// Runs a function call; the client sends the returned output as the call's one
    /// `function_call_output` (nil: answer later with `sendFunctionCallOutput`).
    public var answerFunctionCall: (@Sendable (QwenAudioLiveFunctionCall) async -> String?)?
    /// Runs a client delegation; the client sends the returned result as its
    /// `session.commentary.append` (nil: answer later with `appendCommentary`).
    public var answerDelegation: (@Sendable (QwenAudioLiveDelegation) async -> String?)?
    public init() {}
}

/// Deliberate misbehaviour for the faulty clients (package only); defaults break nothing.
package struct QwenAudioLiveFaults: Sendable {
    /// C1: omit the Authorization header.
    package var omitAuthorization = false
    /// C3: the first `session.update` without `event_id`.
    package var omitUpdateEventID = false
    /// C3: the first `session.update` with an `event_id` one character too long.
    package var overlongUpdateEventID = false
    /// C4: one 100 ms append right after the first `session.update`, before `session.updated`
    /// (not when that update asks for AOQ media: the append would break C7 too).
    package var appendRightAfterSessionUpdate = false
    /// C5: these `session` members are left out of the first `session.update`.
    package var omittedSessionFields: Set<String> = []
    /// C7: audio goes on the WebSocket even after asking for AOQ media.
    package var audioOnWebSocketUnderAOQ = false
    /// C10: a `session.input_audio.mute` right behind `session.close`, not waiting for
    /// `session.closed` (nothing can follow that: the server closes the connection).
    package var eventRightAfterSessionClose = false
    package init() {}
}
