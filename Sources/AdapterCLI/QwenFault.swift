import DialogClients
import ProtocolModel
import WireJSON

/// The faulty Qwen realtime clients (`--fault NAME`).
enum QwenFault: String, CaseIterable, Sendable {
    case noAuthorization = "no-authorization"
    case missingModel = "missing-model"
    case binaryFrame = "binary-frame"
    case unknownEvent = "unknown-event"
    case numericEventId = "numeric-event-id"
    case audioBeforeSessionUpdate = "audio-before-session-update"
    case badModalities = "bad-modalities"
    case flatTools = "flat-tools"
    case changeTurnDetectionAfterAudio = "change-turn-detection-after-audio"
    case voiceInLaterUpdate = "voice-in-later-update"
    case badBase64 = "bad-base64"
    case oddAudioChunk = "odd-audio-chunk"
    case wrongRate = "wrong-rate"
    case wrongRate24k = "wrong-rate-24k"
    case commitInVad = "commit-in-vad"
    case emptyCommit = "empty-commit"
    case secondResponse = "second-response"
    case cancelWithoutResponse = "cancel-without-response"
    case wrongCallId = "wrong-call-id"
    case duplicateToolOutput = "duplicate-tool-output"
    case badItem = "bad-item"
    case imageBeforeAudio = "image-before-audio"
    case finishOnAudioProfile = "finish-on-audio-profile"
    case eventsAfterFinish = "events-after-finish"
    case ignoreServerError = "ignore-server-error"
    case slowBargeIn = "slow-barge-in"
    case stopOnRequestError = "stop-on-request-error"

    /// Its catalogue entry (an exhaustive switch: a new case cannot lack its obligation).
    var fault: Fault {
        switch self {
        case .noAuthorization:
            Fault(
                kind: .qwen(self), obligation: "qrt.C1",
                summary: "upgrade without Authorization (refused with 401, no session)")
        case .missingModel:
            Fault(
                kind: .qwen(self), obligation: "qrt.C1",
                summary: "URL with an empty model (refused with 400, no session)")
        case .binaryFrame:
            Fault(kind: .qwen(self), obligation: "qrt.C2", summary: "a binary frame")
        case .unknownEvent:
            Fault(kind: .qwen(self), obligation: "qrt.C2", summary: "an event of type input_audio_buffer.flush")
        case .numericEventId:
            Fault(kind: .qwen(self), obligation: "qrt.C3", summary: "event_id 42 (a number)")
        case .audioBeforeSessionUpdate:
            Fault(
                kind: .qwen(self), obligation: "qrt.C4",
                summary: "append right after session.update, before session.updated")
        case .badModalities:
            Fault(kind: .qwen(self), obligation: "qrt.C5", summary: "session.update modalities [\"audio\"]")
        case .flatTools:
            Fault(kind: .qwen(self), obligation: "qrt.C6", summary: "OpenAI-style flat tool {type, name, parameters}")
        case .changeTurnDetectionAfterAudio:
            Fault(
                kind: .qwen(self), obligation: "qrt.C7", summary: "turn_detection changed after the first append",
                needs: "an audio-profile model (qwen-audio-…)", profile: .audio)
        case .voiceInLaterUpdate:
            Fault(
                kind: .qwen(self), obligation: "qrt.C7",
                summary: "a second session.update carrying voice after the first append (SHOULD)",
                needs: "an audio-profile model (qwen-audio-…)", profile: .audio)
        case .badBase64:
            Fault(kind: .qwen(self), obligation: "qrt.C8", summary: "append with audio that is not base64")
        case .oddAudioChunk:
            Fault(kind: .qwen(self), obligation: "qrt.C8", summary: "append of 3 bytes (half a sample)")
        case .wrongRate:
            Fault(
                kind: .qwen(self), obligation: "qrt.C8",
                summary: "the speech appended as 48000 Hz PCM to a 16000 Hz session (not resampled: 3× real time)",
                unresampledCaptureRate: 48_000)
        case .wrongRate24k:
            Fault(
                kind: .qwen(self), obligation: "qrt.C8",
                summary: "the speech appended as 24000 Hz PCM labelled pcm16 (16000 Hz; not resampled: 1.5× real time)",
                unresampledCaptureRate: 24_000)
        case .commitInVad:
            Fault(
                kind: .qwen(self), obligation: "qrt.C9", summary: "input_audio_buffer.commit under server_vad (SHOULD)")
        case .emptyCommit:
            Fault(
                kind: .qwen(self), obligation: "qrt.C10", summary: "push-to-talk commit with an empty buffer",
                needs: "an omni model", profile: .omni)
        case .secondResponse:
            Fault(kind: .qwen(self), obligation: "qrt.C11", summary: "response.create while a response is in progress")
        case .cancelWithoutResponse:
            Fault(kind: .qwen(self), obligation: "qrt.C12", summary: "response.cancel with nothing in progress")
        case .wrongCallId:
            Fault(
                kind: .qwen(self), obligation: "qrt.C13", summary: "function_call_output with an unknown call_id",
                needs: "a scenario that calls a tool")
        case .duplicateToolOutput:
            Fault(
                kind: .qwen(self), obligation: "qrt.C13", summary: "two function_call_outputs for one call",
                needs: "a scenario that calls a tool")
        case .badItem:
            Fault(kind: .qwen(self), obligation: "qrt.C15", summary: "message item with role \"robot\"")
        case .imageBeforeAudio:
            Fault(
                kind: .qwen(self), obligation: "qrt.C16", summary: "input_image_buffer.append before any audio",
                needs: "an omni model", profile: .omni)
        case .finishOnAudioProfile:
            Fault(
                kind: .qwen(self), obligation: "qrt.C17", summary: "session.finish on the audio profile",
                needs: "an audio-profile model", profile: .audio)
        case .eventsAfterFinish:
            Fault(
                kind: .qwen(self), obligation: "qrt.C18", summary: "an append right after session.finish",
                needs: "an omni model", profile: .omni)
        case .ignoreServerError:
            Fault(
                kind: .qwen(self), obligation: "qrt.C19", summary: "keeps streaming after error{type:\"server_error\"}",
                needs: "a server_error without an immediate close")
        case .slowBargeIn:
            Fault(
                kind: .qwen(self), obligation: "qrt.C20",
                summary:
                    "stops playback \(QwenDriver.slowBargeInMillis) ms after a barge-in's speech_started (within C20's 500 ms; slower than a 100 ms budget)",
                needs: "a driven barge-in and a latency budget under \(QwenDriver.slowBargeInMillis) ms",
                runWith: ["--budget", "bargeIn.speechStarted.cancel=100ms"], drivenOnly: true)
        case .stopOnRequestError:
            Fault(
                kind: .qwen(self), obligation: "qrt.C19",
                summary: "treats error{type:\"invalid_request_error\"} as terminal (stops sending, closes)",
                needs: "an injected invalid_request_error")
        }
    }
}
