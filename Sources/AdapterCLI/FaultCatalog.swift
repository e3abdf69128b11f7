import DialogClients
import ProtocolModel
import WireJSON

/// The faulty clients: `--fault NAME` breaks exactly one obligation in an otherwise correct
/// flow. `obligation` is the id the mock journals (or, for a refused upgrade, the id the
/// refusal enforces); `needs` names what the run must provide. The names are the cases of
/// ``MultiModalFault``, ``QwenFault`` and ``QwenAudioLiveFault``, the one list: the drivers
/// switch over them, and `.ci/mutation-score` reads them from `--list-faults`.
struct Fault: Sendable {
    let kind: FaultKind
    let obligation: String
    let summary: String
    var needs: String? = nil
    /// The Qwen profile the breach exists on (on the other profile the same frame breaks another
    /// rule, C17, or none): elsewhere the faulty client behaves correctly. Nil: every profile.
    var profile: QwenRealtimeProfile? = nil
    /// `conformance run` options under which the breach shows (e.g. a tighter `--budget`).
    var runWith: [String] = []
    /// Whether only a drive provokes the breach (the default flow has no barge-in): with
    /// `--passive` the faulty client behaves correctly.
    var drivenOnly = false
    /// Whether the breach shows within a case's timeout only with the mock's policy timers
    /// scaled down (`--time-scale`): a 20 s audio gap, 60 s without a frame.
    var needsTimeScale = false
    /// The `wrong-rate` faults' capture rate: the speech goes as PCM at this rate, not
    /// resampled to the declared 16 kHz (``UnresampledSpeech``).
    var unresampledCaptureRate: Int? = nil

    var name: String { kind.name }
    var protocolName: ProtocolName { kind.protocolName }

    /// Its `--list-faults` line: `{name, protocol, obligation, summary, needs?, runWith?,
    /// drivenOnly?, needsTimeScale?}`.
    var listEntry: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "protocol": .string(protocolName.rawValue), "obligation": .string(obligation),
            "summary": .string(summary),
        ]
        object["needs"] = needs.map(JSONValue.string)
        if !runWith.isEmpty { object["runWith"] = .array(runWith.map(JSONValue.string)) }
        if drivenOnly { object["drivenOnly"] = true }
        if needsTimeScale { object["needsTimeScale"] = true }
        return .object(object)
    }
}

/// A fault by protocol.
enum FaultKind: Hashable, Sendable {
    case multimodal(MultiModalFault)
    case qwen(QwenFault)
    case qwenAudioLive(QwenAudioLiveFault)

    var name: String {
        switch self {
        case .multimodal(let fault): fault.rawValue
        case .qwen(let fault): fault.rawValue
        case .qwenAudioLive(let fault): fault.rawValue
        }
    }

    var multimodal: MultiModalFault? { if case .multimodal(let fault) = self { fault } else { nil } }
    var qwen: QwenFault? { if case .qwen(let fault) = self { fault } else { nil } }
    var qwenAudioLive: QwenAudioLiveFault? { if case .qwenAudioLive(let fault) = self { fault } else { nil } }

    var protocolName: ProtocolName {
        switch self {
        case .multimodal: .multimodalDialog
        case .qwen: .qwenRealtime
        case .qwenAudioLive: .qwenAudioLive
        }
    }
}

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

enum FaultCatalog {
    static let all: [Fault] = multimodal + qwen + qwenAudioLive
    static let multimodal: [Fault] = MultiModalFault.allCases.map(\.fault)
    static let qwen: [Fault] = QwenFault.allCases.map(\.fault)
    static let qwenAudioLive: [Fault] = QwenAudioLiveFault.allCases.map(\.fault)

    static func find(_ name: String, protocolName: ProtocolName) -> Fault? {
        all.first { $0.name == name && $0.protocolName == protocolName }
    }

    /// The `--help` table.
    static var helpText: String {
        var lines = ["Faults (--fault NAME; each breaks one obligation in an otherwise correct flow):"]
        for group in [multimodal, qwen, qwenAudioLive] {
            lines.append("  \(group[0].protocolName.rawValue):")
            for fault in group {
                let needs = fault.needs.map { " [needs \($0)]" } ?? ""
                lines.append("    \(fault.name.padding(34)) \(fault.obligation.padding(9)) \(fault.summary)\(needs)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// The protocols the adapter speaks.
typealias ProtocolName = DialogProtocol
