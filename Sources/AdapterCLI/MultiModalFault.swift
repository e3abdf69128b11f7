import DialogClients
import ProtocolModel
import WireJSON

/// The faulty multimodal dialog clients (`--fault NAME`).
enum MultiModalFault: String, CaseIterable, Sendable {
    case noAuthorization = "no-authorization"
    case missingBearer = "missing-bearer"
    case firstFrameNotStart = "first-frame-not-start"
    case badTaskGroup = "bad-task-group"
    case missingUserId = "missing-user-id"
    case badEnum = "bad-enum"
    case wrongTaskId = "wrong-task-id"
    case continueForStop = "continue-for-stop"
    case binaryBeforeListening = "binary-before-listening"
    case oddPcmFrame = "odd-pcm-frame"
    case oggAsPcm = "ogg-as-pcm"
    case wrongRate = "wrong-rate"
    case wrongRate24k = "wrong-rate-24k"
    case audioOutsideSendspeech = "audio-outside-sendspeech"
    case sendspeechOutsideListening = "sendspeech-outside-listening"
    case noSilence = "no-silence"
    case noSilenceDuplex = "no-silence-duplex"
    case respondOutsideListening = "respond-outside-listening"
    case respondWithoutText = "respond-without-text"
    case badImage = "bad-image"
    case oversizedImage = "oversized-image"
    case framesOutsideVideo = "frames-outside-video"
    case videoConnectAsTranscript = "video-connect-as-transcript"
    case noLocalRespondingEnded = "no-local-responding-ended"
    case doubleLocalRespondingEnded = "double-local-responding-ended"
    case interruptInListening = "interrupt-in-listening"
    case noHeartbeat = "no-heartbeat"
    case heartbeatFlood = "heartbeat-flood"
    case framesAfterFinish = "frames-after-finish"
    case badDialogId = "bad-dialog-id"
    case wrongDialogId = "wrong-dialog-id"

    /// Its catalogue entry (an exhaustive switch: a new case cannot lack its obligation).
    var fault: Fault {
        switch self {
        case .noAuthorization:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C1",
                summary: "upgrade without Authorization (refused with 401, no session)")
        case .missingBearer:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C1",
                summary: "Authorization: <key> without \"Bearer \" (SHOULD)")
        case .firstFrameNotStart:
            Fault(kind: .multimodal(self), obligation: "mmd.C2", summary: "Start sent with action continue-task")
        case .badTaskGroup:
            Fault(kind: .multimodal(self), obligation: "mmd.C3", summary: "Start payload task_group \"audio\"")
        case .missingUserId:
            Fault(kind: .multimodal(self), obligation: "mmd.C4", summary: "Start without client_info.user_id")
        case .badEnum:
            Fault(kind: .multimodal(self), obligation: "mmd.C5", summary: "downstream.sample_rate 44100")
        case .wrongTaskId:
            Fault(kind: .multimodal(self), obligation: "mmd.C6", summary: "one HeartBeat with another task_id")
        case .continueForStop:
            Fault(kind: .multimodal(self), obligation: "mmd.C7", summary: "Stop sent with action continue-task")
        case .binaryBeforeListening:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C8",
                summary: "audio frame right after Start, before Listening")
        case .oddPcmFrame:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C9",
                summary: "the first uplink audio frame one byte longer (odd PCM length)")
        case .oggAsPcm:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C9",
                summary: "Start declares pcm, the speech goes as Ogg Opus pages")
        case .wrongRate:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C9",
                summary: "Start declares 16000 Hz, the speech goes as 48000 Hz PCM (not resampled: 3× real time)",
                unresampledCaptureRate: 48_000)
        case .wrongRate24k:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C9",
                summary: "Start declares 16000 Hz, the speech goes as 24000 Hz PCM (not resampled: 1.5× real time)",
                unresampledCaptureRate: 24_000)
        case .audioOutsideSendspeech:
            Fault(kind: .multimodal(self), obligation: "mmd.C10", summary: "push2talk audio without SendSpeech")
        case .sendspeechOutsideListening:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C10",
                summary:
                    "push2talk: a start_speech outside Listening sends SendSpeech at once (seeds: only in Listening)",
                drivenOnly: true)
        case .noSilence:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C11",
                summary: "tap2talk: no audio while Listening (20 s gap)", needs: "time scale, e.g. --time-scale 0.01",
                needsTimeScale: true)
        case .noSilenceDuplex:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C12", summary: "duplex: audio stops (20 s gap)",
                needs: "time scale", needsTimeScale: true)
        case .respondOutsideListening:
            Fault(kind: .multimodal(self), obligation: "mmd.C13", summary: "RequestToRespond while Responding")
        case .respondWithoutText:
            Fault(kind: .multimodal(self), obligation: "mmd.C13", summary: "RequestToRespond without text")
        case .badImage:
            Fault(kind: .multimodal(self), obligation: "mmd.C14", summary: "image {type:\"file\"} in RequestToRespond")
        case .oversizedImage:
            Fault(kind: .multimodal(self), obligation: "mmd.C14", summary: "base64 image of 200 KB")
        case .framesOutsideVideo:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C15",
                summary: "UpdateInfo video frame before the connect round is back in Listening")
        case .videoConnectAsTranscript:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C16",
                summary: "video connect with RequestToRespond type transcript")
        case .noLocalRespondingEnded:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C19",
                summary: "never LocalRespondingEnded (mock falls back after audio + 5 s)")
        case .doubleLocalRespondingEnded:
            Fault(kind: .multimodal(self), obligation: "mmd.C19", summary: "LocalRespondingEnded twice in a round")
        case .interruptInListening:
            Fault(kind: .multimodal(self), obligation: "mmd.C20", summary: "RequestToSpeak while Listening (SHOULD)")
        case .noHeartbeat:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C21",
                summary: "push2talk, idle, no HeartBeat (60 s server silence)", needs: "time scale",
                needsTimeScale: true)
        case .heartbeatFlood:
            Fault(kind: .multimodal(self), obligation: "mmd.C21", summary: "two HeartBeats 1 s apart (SHOULD)")
        case .framesAfterFinish:
            Fault(kind: .multimodal(self), obligation: "mmd.C22", summary: "a HeartBeat right after Stop")
        case .badDialogId:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C23",
                summary: "resume with Start.input.dialog_id \"not-a-dialog\"")
        case .wrongDialogId:
            Fault(
                kind: .multimodal(self), obligation: "mmd.C23",
                summary: "a HeartBeat carrying another dialog_id (SHOULD)")
        }
    }
}
