/// The client directives of §5.0, spelled as on the wire.
package enum Directive: String, Sendable, Hashable, CaseIterable {
    /// The first message (`run-task`): opens the dialog.
    case start = "Start"
    /// The last message (`finish-task`): ends the dialog.
    case stop = "Stop"
    /// push2talk: the talk button was pressed; audio follows.
    case sendSpeech = "SendSpeech"
    /// push2talk: the talk button was released; the utterance ends.
    case stopSpeech = "StopSpeech"
    /// Discards the utterance in progress; no answer.
    case cancelSpeech = "CancelSpeech"
    /// Interrupts the answer (`interrupt()` in the SDKs).
    case requestToSpeak = "RequestToSpeak"
    /// Asks for an answer to a given text (`transcript` or `prompt`).
    case requestToRespond = "RequestToRespond"
    /// Updates client status, biz_params, or sends video frames.
    case updateInfo = "UpdateInfo"
    /// Local playback of the answer began.
    case localRespondingStarted = "LocalRespondingStarted"
    /// Local playback of the answer finished.
    case localRespondingEnded = "LocalRespondingEnded"
    /// Keep-alive; the server echoes it.
    case heartBeat = "HeartBeat"

    /// The `header.action` this directive must travel with (C7).
    package var expectedAction: DashScopeEnvelope.Action {
        switch self {
        case .start: .runTask
        case .stop: .finishTask
        default: .continueTask
        }
    }
}
