/// How the end of a user's turn is decided (`upstream.mode`, §8.3).
package enum InteractionMode: String, Sendable, Hashable, CaseIterable {
    /// The client brackets speech with `SendSpeech` … `StopSpeech`.
    case pushToTalk = "push2talk"
    /// The server's voice-activity detector ends the turn; audio only while Listening.
    case tapToTalk = "tap2talk"
    /// Audio flows in every state; speaking during an answer interrupts it.
    case duplex = "duplex"

}
