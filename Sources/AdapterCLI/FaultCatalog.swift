import DialogClients
import ProtocolModel

/// The faulty clients: `--fault NAME` breaks exactly one obligation in an otherwise correct
/// flow. `obligation` is the id the mock journals (or, for a refused upgrade, the id the
/// refusal enforces); `needs` names what the run must provide.
struct Fault: Sendable {

    let name: String
    let protocolName: ProtocolName
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
}

enum FaultCatalog {
    static let all: [Fault] = multimodal + qwen

    static let multimodal: [Fault] = [
        Fault(
            name: "no-authorization", protocolName: .multimodalDialog, obligation: "mmd.C1",
            summary: "upgrade without Authorization (refused with 401, no session)"),
        Fault(
            name: "missing-bearer", protocolName: .multimodalDialog, obligation: "mmd.C1",
            summary: "Authorization: <key> without \"Bearer \" (SHOULD)"),
        Fault(
            name: "first-frame-not-start", protocolName: .multimodalDialog, obligation: "mmd.C2",
            summary: "Start sent with action continue-task"),
        Fault(
            name: "bad-task-group", protocolName: .multimodalDialog, obligation: "mmd.C3",
            summary: "Start payload task_group \"audio\""),
        Fault(
            name: "missing-user-id", protocolName: .multimodalDialog, obligation: "mmd.C4",
            summary: "Start without client_info.user_id"),
        Fault(
            name: "bad-enum", protocolName: .multimodalDialog, obligation: "mmd.C5",
            summary: "downstream.sample_rate 44100"),
        Fault(
            name: "wrong-task-id", protocolName: .multimodalDialog, obligation: "mmd.C6",
            summary: "one HeartBeat with another task_id"),
        Fault(
            name: "continue-for-stop", protocolName: .multimodalDialog, obligation: "mmd.C7",
            summary: "Stop sent with action continue-task"),
        Fault(
            name: "binary-before-listening", protocolName: .multimodalDialog, obligation: "mmd.C8",
            summary: "audio frame right after Start, before Listening"),
        Fault(
            name: "odd-pcm-frame", protocolName: .multimodalDialog, obligation: "mmd.C9",
            summary: "the first uplink audio frame one byte longer (odd PCM length)"),
        Fault(
            name: "ogg-as-pcm", protocolName: .multimodalDialog, obligation: "mmd.C9",
            summary: "Start declares pcm, the speech goes as Ogg Opus pages"),
        Fault(
            name: "wrong-rate", protocolName: .multimodalDialog, obligation: "mmd.C9",
            summary: "Start declares 16000 Hz, the speech goes as 48000 Hz PCM (not resampled: 3× real time)"),
        Fault(
            name: "wrong-rate-24k", protocolName: .multimodalDialog, obligation: "mmd.C9",
            summary: "Start declares 16000 Hz, the speech goes as 24000 Hz PCM (not resampled: 1.5× real time)"),
        Fault(
            name: "audio-outside-sendspeech", protocolName: .multimodalDialog, obligation: "mmd.C10",
            summary: "push2talk audio without SendSpeech"),
        Fault(
            name: "sendspeech-outside-listening", protocolName: .multimodalDialog, obligation: "mmd.C10",
            summary: "push2talk: a start_speech outside Listening sends SendSpeech at once (seeds: only in Listening)",
            drivenOnly: true),
        Fault(
            name: "no-silence", protocolName: .multimodalDialog, obligation: "mmd.C11",
            summary: "tap2talk: no audio while Listening (20 s gap)", needs: "time scale, e.g. --time-scale 0.01"),
        Fault(
            name: "no-silence-duplex", protocolName: .multimodalDialog, obligation: "mmd.C12",
            summary: "duplex: audio stops (20 s gap)", needs: "time scale"),
        Fault(
            name: "respond-outside-listening", protocolName: .multimodalDialog, obligation: "mmd.C13",
            summary: "RequestToRespond while Responding"),
        Fault(
            name: "respond-without-text", protocolName: .multimodalDialog, obligation: "mmd.C13",
            summary: "RequestToRespond without text"),
        Fault(
            name: "bad-image", protocolName: .multimodalDialog, obligation: "mmd.C14",
            summary: "image {type:\"file\"} in RequestToRespond"),
        Fault(
            name: "oversized-image", protocolName: .multimodalDialog, obligation: "mmd.C14",
            summary: "base64 image of 200 KB"),
        Fault(
            name: "frames-outside-video", protocolName: .multimodalDialog, obligation: "mmd.C15",
            summary: "UpdateInfo video frame before the connect round is back in Listening"),
        Fault(
            name: "video-connect-as-transcript", protocolName: .multimodalDialog, obligation: "mmd.C16",
            summary: "video connect with RequestToRespond type transcript"),
        Fault(
            name: "no-local-responding-ended", protocolName: .multimodalDialog, obligation: "mmd.C19",
            summary: "never LocalRespondingEnded (mock falls back after audio + 5 s)"),
        Fault(
            name: "double-local-responding-ended", protocolName: .multimodalDialog, obligation: "mmd.C19",
            summary: "LocalRespondingEnded twice in a round"),
        Fault(
            name: "interrupt-in-listening", protocolName: .multimodalDialog, obligation: "mmd.C20",
            summary: "RequestToSpeak while Listening (SHOULD)"),
        Fault(
            name: "no-heartbeat", protocolName: .multimodalDialog, obligation: "mmd.C21",
            summary: "push2talk, idle, no HeartBeat (60 s server silence)", needs: "time scale"),
        Fault(
            name: "heartbeat-flood", protocolName: .multimodalDialog, obligation: "mmd.C21",
            summary: "two HeartBeats 1 s apart (SHOULD)"),
        Fault(
            name: "frames-after-finish", protocolName: .multimodalDialog, obligation: "mmd.C22",
            summary: "a HeartBeat right after Stop"),
        Fault(
            name: "bad-dialog-id", protocolName: .multimodalDialog, obligation: "mmd.C23",
            summary: "resume with Start.input.dialog_id \"not-a-dialog\""),
        Fault(
            name: "wrong-dialog-id", protocolName: .multimodalDialog, obligation: "mmd.C23",
            summary: "a HeartBeat carrying another dialog_id (SHOULD)"),
    ]

    static let qwen: [Fault] = [
        Fault(
            name: "no-authorization", protocolName: .qwenRealtime, obligation: "qrt.C1",
            summary: "upgrade without Authorization (refused with 401, no session)"),
        Fault(
            name: "missing-model", protocolName: .qwenRealtime, obligation: "qrt.C1",
            summary: "URL with an empty model (refused with 400, no session)"),
        Fault(name: "binary-frame", protocolName: .qwenRealtime, obligation: "qrt.C2", summary: "a binary frame"),
        Fault(
            name: "unknown-event", protocolName: .qwenRealtime, obligation: "qrt.C2",
            summary: "an event of type input_audio_buffer.flush"),
        Fault(
            name: "numeric-event-id", protocolName: .qwenRealtime, obligation: "qrt.C3",
            summary: "event_id 42 (a number)"),
        Fault(
            name: "audio-before-session-update", protocolName: .qwenRealtime, obligation: "qrt.C4",
            summary: "append right after session.update, before session.updated"),
        Fault(
            name: "bad-modalities", protocolName: .qwenRealtime, obligation: "qrt.C5",
            summary: "session.update modalities [\"audio\"]"),
        Fault(
            name: "flat-tools", protocolName: .qwenRealtime, obligation: "qrt.C6",
            summary: "OpenAI-style flat tool {type, name, parameters}"),
        Fault(
            name: "change-turn-detection-after-audio", protocolName: .qwenRealtime, obligation: "qrt.C7",
            summary: "turn_detection changed after the first append", needs: "an audio-profile model (qwen-audio-…)",
            profile: .audio),
        Fault(
            name: "voice-in-later-update", protocolName: .qwenRealtime, obligation: "qrt.C7",
            summary: "a second session.update carrying voice after the first append (SHOULD)",
            needs: "an audio-profile model (qwen-audio-…)", profile: .audio),
        Fault(
            name: "bad-base64", protocolName: .qwenRealtime, obligation: "qrt.C8",
            summary: "append with audio that is not base64"),
        Fault(
            name: "odd-audio-chunk", protocolName: .qwenRealtime, obligation: "qrt.C8",
            summary: "append of 3 bytes (half a sample)"),
        Fault(
            name: "wrong-rate", protocolName: .qwenRealtime, obligation: "qrt.C8",
            summary: "the speech appended as 48000 Hz PCM to a 16000 Hz session (not resampled: 3× real time)"),
        Fault(
            name: "wrong-rate-24k", protocolName: .qwenRealtime, obligation: "qrt.C8",
            summary: "the speech appended as 24000 Hz PCM labelled pcm16 (16000 Hz; not resampled: 1.5× real time)"),
        Fault(
            name: "commit-in-vad", protocolName: .qwenRealtime, obligation: "qrt.C9",
            summary: "input_audio_buffer.commit under server_vad (SHOULD)"),
        Fault(
            name: "empty-commit", protocolName: .qwenRealtime, obligation: "qrt.C10",
            summary: "push-to-talk commit with an empty buffer", needs: "an omni model", profile: .omni),
        Fault(
            name: "second-response", protocolName: .qwenRealtime, obligation: "qrt.C11",
            summary: "response.create while a response is in progress"),
        Fault(
            name: "cancel-without-response", protocolName: .qwenRealtime, obligation: "qrt.C12",
            summary: "response.cancel with nothing in progress"),
        Fault(
            name: "wrong-call-id", protocolName: .qwenRealtime, obligation: "qrt.C13",
            summary: "function_call_output with an unknown call_id", needs: "a scenario that calls a tool"),
        Fault(
            name: "duplicate-tool-output", protocolName: .qwenRealtime, obligation: "qrt.C13",
            summary: "two function_call_outputs for one call", needs: "a scenario that calls a tool"),
        Fault(
            name: "bad-item", protocolName: .qwenRealtime, obligation: "qrt.C15",
            summary: "message item with role \"robot\""),
        Fault(
            name: "image-before-audio", protocolName: .qwenRealtime, obligation: "qrt.C16",
            summary: "input_image_buffer.append before any audio", needs: "an omni model", profile: .omni),
        Fault(
            name: "finish-on-audio-profile", protocolName: .qwenRealtime, obligation: "qrt.C17",
            summary: "session.finish on the audio profile", needs: "an audio-profile model", profile: .audio),
        Fault(
            name: "events-after-finish", protocolName: .qwenRealtime, obligation: "qrt.C18",
            summary: "an append right after session.finish", needs: "an omni model", profile: .omni),
        Fault(
            name: "ignore-server-error", protocolName: .qwenRealtime, obligation: "qrt.C19",
            summary: "keeps streaming after error{type:\"server_error\"}",
            needs: "a server_error without an immediate close"),
        Fault(
            name: "slow-barge-in", protocolName: .qwenRealtime, obligation: "qrt.C20",
            summary:
                "stops playback \(QwenDriver.slowBargeInMillis) ms after a barge-in's speech_started (within C20's 500 ms; slower than a 100 ms budget)",
            needs: "a driven barge-in and a latency budget under \(QwenDriver.slowBargeInMillis) ms",
            runWith: ["--budget", "bargeIn.speechStarted.cancel=100ms"], drivenOnly: true),
        Fault(
            name: "stop-on-request-error", protocolName: .qwenRealtime, obligation: "qrt.C19",
            summary: "treats error{type:\"invalid_request_error\"} as terminal (stops sending, closes)",
            needs: "an injected invalid_request_error"),
    ]

    static func find(_ name: String, protocolName: ProtocolName) -> Fault? {
        all.first { $0.name == name && $0.protocolName == protocolName }
    }

    /// The `--help` table.
    static var helpText: String {
        var lines = ["Faults (--fault NAME; each breaks one obligation in an otherwise correct flow):"]
        for group in [multimodal, qwen] {
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

/// The two protocols the adapter speaks.
typealias ProtocolName = DialogProtocol
