/// The server-side dialog states the protocol announces in `DialogStateChanged` (§8.1).
///
/// `Idle` is a client-only state and is never sent, so it has no case here.
package enum DialogState: String, Sendable, Hashable, CaseIterable {
    /// The server accepts user audio and `RequestToRespond`.
    case listening = "Listening"
    /// User input is closed; the answer is being prepared.
    case thinking = "Thinking"
    /// The answer is streaming, or the device is still playing it.
    case responding = "Responding"
}

/// How the end of a user's turn is decided (`upstream.mode`, §8.3).
package enum InteractionMode: String, Sendable, Hashable, CaseIterable {
    /// The client brackets speech with `SendSpeech` … `StopSpeech`.
    case pushToTalk = "push2talk"
    /// The server's voice-activity detector ends the turn; audio only while Listening.
    case tapToTalk = "tap2talk"
    /// Audio flows in every state; speaking during an answer interrupts it.
    case duplex = "duplex"

    /// Whether the 20 s audio-gap rule watches the uplink in `state` (tap2talk: Listening;
    /// duplex: always; push2talk: never).
    package func watchesAudioGap(in state: DialogState) -> Bool {
        switch self {
        case .pushToTalk: false
        case .tapToTalk: state == .listening
        case .duplex: true
        }
    }
}

/// The client directives of §5.0, spelled as on the wire.
package enum Directive: String, Sendable, Hashable, CaseIterable {
    case start = "Start"
    case stop = "Stop"
    case sendSpeech = "SendSpeech"
    case stopSpeech = "StopSpeech"
    case cancelSpeech = "CancelSpeech"
    case requestToSpeak = "RequestToSpeak"
    case requestToRespond = "RequestToRespond"
    case updateInfo = "UpdateInfo"
    case localRespondingStarted = "LocalRespondingStarted"
    case localRespondingEnded = "LocalRespondingEnded"
    case heartBeat = "HeartBeat"

    /// The `header.action` this directive must travel with (C7).
    package var expectedAction: String {
        switch self {
        case .start: "run-task"
        case .stop: "finish-task"
        default: "continue-task"
        }
    }
}
