import DialogClients
import ProtocolModel
import WireJSON

/// The faulty Qwen-Audio-Live clients (`--fault NAME`; design of issue 42, obligations qal.*).
enum QwenAudioLiveFault: String, CaseIterable, Sendable {
    case noAuthorization = "no-authorization"
    case binaryFrame = "binary-frame"
    case unknownEvent = "unknown-event"
    case missingEventId = "missing-event-id"
    case longEventId = "long-event-id"
    case audioBeforeUpdated = "audio-before-updated"
    case missingSessionModel = "missing-session-model"
    case missingDelegation = "missing-delegation"
    case duplexOnFlash = "duplex-on-flash"
    case oddPcmFrame = "odd-pcm-frame"
    case wrongRate = "wrong-rate"
    case aoqAudioOnWs = "aoq-audio-on-ws"
    case ignoreFunctionCall = "ignore-function-call"
    case wrongCallId = "wrong-call-id"
    case eventsAfterClosed = "events-after-closed"

    /// Its catalogue entry (an exhaustive switch: a new case cannot lack its obligation).
    var fault: Fault {
        switch self {
        case .noAuthorization:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C1",
                summary: "upgrade without Authorization (refused with 401, no session)")
        case .binaryFrame:
            Fault(kind: .qwenAudioLive(self), obligation: "qal.C2", summary: "a binary frame after session.updated")
        case .unknownEvent:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C2",
                summary: "an event of type session.input_audio.flush (not in the protocol)")
        case .missingEventId:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C3", summary: "the first session.update without event_id")
        case .longEventId:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C3",
                summary: "the first session.update with an event_id of \(QwenAudioLive.maxEventIDLength + 1) characters"
            )
        case .audioBeforeUpdated:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C4",
                summary: "an append right after session.update, before session.updated")
        case .missingSessionModel:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C5",
                summary: "the first session.update without session.model")
        case .missingDelegation:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C5",
                summary: "the first session.update without session.delegation")
        case .duplexOnFlash:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C5",
                summary:
                    "turn_detection duplex with \(QwenAudioLiveDriver.flashModel) (duplex needs \(QwenAudioLive.duplexModel))"
            )
        case .oddPcmFrame:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C6", summary: "an append of 3 bytes (half a sample)")
        case .wrongRate:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C6",
                summary: "the speech appended as 48000 Hz PCM (not resampled to 16000 Hz: 3× real time)",
                unresampledCaptureRate: 48_000)
        case .aoqAudioOnWs:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C7",
                summary: "asks for transport aoq, then appends the speech on the WebSocket all the same")
        case .ignoreFunctionCall:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C8",
                summary: "never answers a session.event function call",
                needs: "a scenario that calls a tool")
        case .wrongCallId:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C8",
                summary: "answers a function call with an unknown call_id", needs: "a scenario that calls a tool")
        case .eventsAfterClosed:
            Fault(
                kind: .qwenAudioLive(self), obligation: "qal.C10",
                summary:
                    "a session.input_audio.mute right behind session.close, not waiting for session.closed"
            )
        }
    }
}
