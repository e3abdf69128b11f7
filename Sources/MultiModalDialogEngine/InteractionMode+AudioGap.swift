package import ProtocolModel

extension InteractionMode {
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
