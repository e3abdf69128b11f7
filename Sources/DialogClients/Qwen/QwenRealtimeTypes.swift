public import WireJSON

/// The two model families of the Qwen realtime protocol (qwen-realtime.md, intro).
public enum QwenRealtimeProfile: String, Sendable {
    /// `qwen-audio-*-realtime-*` (the nuisdk of SEED-003).
    case audio
    /// `*omni*` realtime models (images, `session.finish`).
    case omni

    /// The profile of a model name, as the server chooses it.
    public init(model: String) {
        self = model.hasPrefix("qwen-audio") ? .audio : .omni
    }

    /// Whether the profile takes `input_image_buffer.append` (omni only).
    public var takesImages: Bool {
        switch self {
        case .audio: false
        case .omni: true
        }
    }

    /// Whether the profile ends a session with `session.finish` (omni only; the audio profile
    /// refuses it, C17).
    public var finishesWithSessionFinish: Bool {
        switch self {
        case .audio: false
        case .omni: true
        }
    }
}

/// An `error` event, a refused handshake, or a client-side failure.
public struct QwenRealtimeError: Error, Sendable, CustomStringConvertible, Equatable {
    /// `invalid_request_error`, `server_error`, or `client_error` (connect, timeout, closed).
    public let type: String
    public let code: String
    public let message: String
    public let param: String?

    public init(type: String, code: String, message: String, param: String? = nil) {
        self.type = type
        self.code = code
        self.message = message
        self.param = param
    }

    /// `server_error` ends the session (C19).
    public var isFatal: Bool { type != "invalid_request_error" }
    public var description: String { "\(type)/\(code): \(message)" }
}

/// Client options beyond the wire protocol.
public struct QwenRealtimeOptions: Sendable {
    /// Extra handshake headers.
    public var headers: [(String, String)] = []
    /// How long `connect` waits for `session.created` and `session.updated`.
    public var connectTimeoutMillis = 10_000
    /// How long `finish()` waits for a response in flight and then for `session.finished`.
    public var finishTimeoutMillis = 20_000
    /// Duration of one `input_audio_buffer.append` chunk in the paced helpers (C8: 20–200 ms).
    public var chunkMillis = 100
    public init() {}
}

/// The client's callbacks, run one at a time in wire order.
public struct QwenRealtimeCallbacks: Sendable {
    /// Every server event, as received (also the ones with a dedicated callback below).
    public var onEvent: (@Sendable (_ type: String, _ event: JSONObject) -> Void)?
    public var onSessionUpdated: (@Sendable (JSONObject) -> Void)?
    public var onSpeechStarted: (@Sendable (_ itemId: String) -> Void)?
    public var onSpeechStopped: (@Sendable (_ itemId: String) -> Void)?
    /// Input transcription: deltas (`text + stash`, `isFinal` false) and `.completed`.
    public var onInputTranscript: (@Sendable (_ itemId: String, _ text: String, _ isFinal: Bool) -> Void)?
    public var onResponseCreated: (@Sendable (_ responseId: String) -> Void)?
    /// Final text of a response part (`response.audio_transcript.done` / `response.text.done`).
    public var onResponseText: (@Sendable (_ responseId: String, _ text: String) -> Void)?
    /// Decoded PCM of `response.audio.delta` (deltas of cancelled responses are dropped, C20).
    public var onAudio: (@Sendable (_ responseId: String, _ pcm: [UInt8]) -> Void)?
    public var onResponseDone: (@Sendable (_ responseId: String, _ status: String) -> Void)?
    /// `response.function_call_arguments.done`: run the tool with these arguments (C14).
    public var onFunctionCall: (@Sendable (_ callId: String, _ name: String, _ arguments: String) -> Void)?
    public var onError: (@Sendable (QwenRealtimeError) -> Void)?
    public var onPlaybackStarted: (@Sendable (_ responseId: String) -> Void)?
    public var onPlaybackEnded: (@Sendable (_ responseId: String) -> Void)?
    public var onClosed: (@Sendable (_ code: Int, _ reason: String) -> Void)?
    public init() {}
}

/// Deliberate misbehaviour for the faulty clients (package only); defaults break nothing.
package struct QwenRealtimeFaults: Sendable {
    /// C1: omit the Authorization header.
    package var omitAuthorization = false
    /// C4: one 100 ms append right after the first `session.update`, before `session.updated`.
    package var appendRightAfterSessionUpdate = false
    /// C19: carry on after `error{type:"server_error"}` as if it were not terminal.
    package var ignoreFatalErrors = false
    /// C19: treat every `error` (also `invalid_request_error`) as terminal.
    package var everyErrorTerminal = false
    /// C20 (latency): stop playback this long after a barge-in's `speech_started` (0: at once).
    package var bargeInDelayMillis = 0
    package init() {}
}
