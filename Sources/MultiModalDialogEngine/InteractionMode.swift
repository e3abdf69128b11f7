/// How the end of a user's turn is decided (`upstream.mode`, §8.3).
package enum InteractionMode: String, Sendable, Hashable, CaseIterable {
    /// The client brackets speech with `SendSpeech` … `StopSpeech`.
    case pushToTalk = "push2talk"
    /// The server's voice-activity detector ends the turn; audio only while Listening.
    case tapToTalk = "tap2talk"
    /// Audio flows in every state; speaking during an answer interrupts it.
    case duplex = "duplex"

    /// Whether the 20 s audio-gap rule watches the uplink in `state`: tap2talk in Listening,
    /// duplex in Listening or, with the `duplexAudioGapInEveryState` policy, in every state;
    /// push2talk never.
    package func watchesAudioGap(in state: DialogState, duplexInEveryState: Bool) -> Bool {
        switch self {
        case .pushToTalk: false
        case .tapToTalk: state == .listening
        case .duplex: duplexInEveryState || state == .listening
        }
    }
}
