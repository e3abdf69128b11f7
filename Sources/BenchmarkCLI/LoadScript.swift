import Glibc
import LoadGenerator
import ProtocolModel
import WireJSON

/// What the C load generator's clients of one protocol send and react to (`lg_script`), built
/// from the protocol model — event, directive and envelope names — so the C code knows
/// WebSocket framing, timing and playout, and no protocol.
struct LoadScript {
    /// Where a rule reads a value: the string member `key`, searched from the first `anchor`.
    struct Selector {
        var anchor: String?
        var key: String
    }

    /// When the value at `selectors[selector]` is `value`, the generator does `action`.
    struct Rule {
        var selector: Int
        var value: String
        var action: lg_action
    }

    var setupText: String
    /// Sent right after the handshake; otherwise an `LG_ON_SEND_SETUP` rule sends it.
    var setupOnOpen: Bool
    /// Uplink audio as base64 in a text frame between these; nil: raw binary frames.
    var audioEnvelope: (prefix: String, suffix: String)?
    var binaryAudioDown: Bool
    /// The member holding base64 answer audio (`LG_ON_AUDIO_BASE64`).
    var audioKey: String?
    /// Sent when an answer starts; then `playbackEndedReply` is owed at the playout end.
    var responseStartedReply: String?
    var playbackEndedReply: String?
    /// The orderly stop, acknowledged by `LG_ON_STOPPED`; nil: close the WebSocket at once.
    var stopText: String?
    var selectors: [Selector]
    var rules: [Rule]

    /// The script of `dialogProtocol` with answers at `downRate` Hz.
    static func of(_ dialogProtocol: DialogProtocol, downRate: Int) -> LoadScript {
        switch dialogProtocol {
        case .qwenRealtime: qwenRealtime()
        case .qwenAudioLive: qwenAudioLive()
        case .multimodalDialog: multimodalDialog(downRate: downRate)
        }
    }

    /// The path and query a load client of `dialogProtocol` connects to: its service path with
    /// its descriptor's default model (`/api-ws/v1/live?model=qwen-audio-3.1-live`).
    static func path(of dialogProtocol: DialogProtocol) -> String {
        dialogProtocol.path(model: dialogProtocol.descriptor.defaultModel)
    }

    /// `"name":"`, the start of a string member as the generator searches for it.
    static func member(_ name: String) -> String { "\"\(name)\":\"" }

    /// The text before and after the string value of `placeholder` in `frame`'s encoding.
    static func envelope(of frame: JSONValue, around placeholder: String) -> (prefix: String, suffix: String) {
        let text = frame.encodedString()
        let parts = text.split(separator: "\"\(placeholder)\"", maxSplits: 1, omittingEmptySubsequences: false)
        precondition(parts.count == 2, "no \(placeholder) in \(text)")
        return (parts[0] + "\"", "\"" + parts[1])
    }

    // MARK: - Qwen realtime

    /// Server VAD with a 500 ms end of turn; the audio goes in `input_audio_buffer.append`.
    static func qwenRealtime() -> LoadScript {
        let session: JSONObject = [
            "modalities": ["text", "audio"], "input_audio_format": "pcm", "output_audio_format": "pcm",
            "turn_detection": ["type": "server_vad", "threshold": 0.5, "silence_duration_ms": 500],
        ]
        let placeholder = "AUDIO-BASE64"
        let rules: [(QwenServerEvent, lg_action)] = [
            (.responseAudioDelta, LG_ON_AUDIO_BASE64), (.responseCreated, LG_ON_RESPONSE_STARTED),
            (.responseDone, LG_ON_RESPONSE_DONE), (.inputAudioBufferSpeechStarted, LG_ON_SPEECH_STARTED),
            (.sessionCreated, LG_ON_SEND_SETUP), (.sessionUpdated, LG_ON_READY), (.error, LG_ON_ERROR),
        ]
        return LoadScript(
            setupText: JSONValue.object(QwenClientEvent.sessionUpdate.object(["session": .object(session)]))
                .encodedString(),
            setupOnOpen: false,
            audioEnvelope: envelope(
                of: .object(QwenClientEvent.inputAudioBufferAppend.object(["audio": .string(placeholder)])),
                around: placeholder),
            binaryAudioDown: false, audioKey: member("delta"), responseStartedReply: nil, playbackEndedReply: nil,
            stopText: nil, selectors: [Selector(anchor: nil, key: member("type"))],
            rules: rules.map { Rule(selector: 0, value: $0.0.rawValue, action: $0.1) })
    }

    // MARK: - Qwen-Audio-Live

    /// The documented flow: `session.update` (event id, frontend model, client delegation, server
    /// VAD with a 500 ms end of turn) once `session.created` arrives, audio in
    /// `session.input_audio.append`, `session.close` acknowledged by `session.closed`. No event
    /// marks an answer's start or the user's: an answer's first audio opens it, and the first
    /// transcript delta of the user's next segment is the speech start that ends it (a barge-in
    /// while it still plays).
    static func qwenAudioLive() -> LoadScript {
        let session: JSONObject = [
            "model": .string(QwenAudioLive.duplexModel), "modalities": ["text", "audio"],
            "input_audio_format": "pcm", "output_audio_format": "pcm", "delegation": ["type": "client"],
            "turn_detection": ["type": "server_vad", "threshold": 0.5, "silence_duration_ms": 500],
        ]
        let placeholder = "AUDIO-BASE64"
        typealias Event = QwenAudioLiveServerEvent
        let rules: [(Event, lg_action)] = [
            (.outputAudioDelta, LG_ON_ANSWER_AUDIO_BASE64), (.inputTranscriptDelta, LG_ON_SPEECH_HEARD),
            (.sessionCreated, LG_ON_SEND_SETUP), (.sessionUpdated, LG_ON_READY), (.error, LG_ON_ERROR),
            (.sessionClosed, LG_ON_STOPPED),
        ]
        let setup = QwenAudioLiveClientEvent.sessionUpdate.object([
            "event_id": "load-session-update", "session": .object(session),
        ])
        let close = QwenAudioLiveClientEvent.sessionClose.object(["event_id": "load-session-close"])
        return LoadScript(
            setupText: JSONValue.object(setup).encodedString(), setupOnOpen: false,
            audioEnvelope: envelope(
                of: .object(QwenAudioLiveClientEvent.inputAudioAppend.object(["audio": .string(placeholder)])),
                around: placeholder),
            binaryAudioDown: false, audioKey: member("delta"), responseStartedReply: nil, playbackEndedReply: nil,
            stopText: JSONValue.object(close).encodedString(), selectors: [Selector(anchor: nil, key: member("type"))],
            rules: rules.map { Rule(selector: 0, value: $0.0.rawValue, action: $0.1) })
    }

    // MARK: - Multimodal dialog

    /// Every session's task: one task per connection, so its directives carry the run-task's id
    /// (mmd.C6).
    static let taskID = "00000000-0000-4000-8000-000000000000"

    /// Duplex PCM 16 kHz up, PCM at `downRate` down; playback reported with
    /// `LocalRespondingStarted` / `LocalRespondingEnded` (mmd.C19); `Stop` at the end.
    static func multimodalDialog(downRate: Int) -> LoadScript {
        var payload: JSONObject = [:]
        for (key, value) in DashScopeEnvelope.dialogTask { payload[key] = .string(value) }
        payload["model"] = .string(DialogProtocol.multimodalDialog.rawValue)
        payload["input"] = [
            "directive": .string(Directive.start.rawValue), "workspace_id": "load-ws", "app_id": "load-app",
        ]
        payload["parameters"] = [
            "upstream": [
                "type": "AudioOnly", "mode": .string(InteractionMode.duplex.rawValue), "audio_format": "pcm",
                "sample_rate": 16000,
            ],
            "downstream": ["audio_format": "pcm", "sample_rate": .int(Int64(downRate))],
            "client_info": ["user_id": "load-user"],
        ]
        func directive(_ directive: Directive) -> String {
            DashScopeEnvelope.directive(directive.rawValue, taskID: taskID, dialogID: nil).encodedString()
        }
        let output = "\"output\":{"
        let header = Selector(anchor: nil, key: member("event"))
        let event = Selector(anchor: output, key: member("event"))
        let state = Selector(anchor: output, key: member("state"))
        typealias Event = MultiModalDialogEvent
        let rules: [Rule] =
            [
                Rule(selector: 0, value: DashScopeEnvelope.Event.taskFailed.rawValue, action: LG_ON_FATAL),
                Rule(selector: 0, value: DashScopeEnvelope.Event.taskFinished.rawValue, action: LG_ON_STOPPED),
            ]
            + [
                (Event.respondingStarted, LG_ON_RESPONSE_STARTED), (.respondingEnded, LG_ON_RESPONSE_SENT),
                (.speechStarted, LG_ON_SPEECH_STARTED), (.stopped, LG_ON_STOPPED), (.error, LG_ON_ERROR),
            ].map { Rule(selector: 1, value: $0.0.rawValue, action: $0.1) }
            + [Rule(selector: 2, value: DialogState.listening.rawValue, action: LG_ON_LISTENING)]
        return LoadScript(
            setupText: DashScopeEnvelope.clientFrame(.runTask, taskID: taskID, payload: payload).encodedString(),
            setupOnOpen: true, audioEnvelope: nil, binaryAudioDown: true, audioKey: nil,
            responseStartedReply: directive(.localRespondingStarted),
            playbackEndedReply: directive(.localRespondingEnded), stopText: directive(.stop),
            selectors: [header, event, state], rules: rules)
    }

    // MARK: - The C view

    /// Calls `body` with the C script; its pointers live for the call only.
    func withCScript<Result>(_ body: (UnsafePointer<lg_script>) -> Result) -> Result {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for string in strings { free(string) } }
        func c(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            strings.append(copy)
            return UnsafePointer(copy)
        }
        let cSelectors = selectors.map { lg_selector(anchor: c($0.anchor), key: c($0.key)) }
        let cRules = rules.map { lg_rule(selector: Int32($0.selector), value: c($0.value), action: $0.action) }
        return cSelectors.withUnsafeBufferPointer { selectorBuffer in
            cRules.withUnsafeBufferPointer { ruleBuffer in
                var script = lg_script(
                    setup_text: c(setupText), setup_on_open: setupOnOpen ? 1 : 0,
                    audio_prefix: c(audioEnvelope?.prefix), audio_suffix: c(audioEnvelope?.suffix),
                    binary_audio_down: binaryAudioDown ? 1 : 0, audio_key: c(audioKey),
                    response_started_reply: c(responseStartedReply), playback_ended_reply: c(playbackEndedReply),
                    stop_text: c(stopText), selectors: selectorBuffer.baseAddress,
                    selector_count: Int32(selectorBuffer.count), rules: ruleBuffer.baseAddress,
                    rule_count: Int32(ruleBuffer.count))
                return withUnsafePointer(to: &script) { body($0) }
            }
        }
    }
}
