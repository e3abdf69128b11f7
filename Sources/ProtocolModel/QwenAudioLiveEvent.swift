package import WireJSON

/// Qwen-Audio-Live facts the engine, the clients and the harness share (conformance/protocols/
/// qwen-audio-live/README.md §1–§3): its models, voices, audio rates and limits.
package enum QwenAudioLive {
    /// The service model of the upgrade URL the documentation uses.
    package static let serviceModel = "qwen-audio-3.1-live"
    /// The newest service path (DOC-QAL-WS, id Nov 29 2026); the realtime path still serves the
    /// dialect when the URL's model is a live model.
    package static let livePath = "/api-ws/v1/live"
    /// The frontend voice models `session.model` may name (DOC-QAL-CE).
    package static let frontendModels = ["qwen-audio-4.0-realtime-preview", "qwen-audio-3.1-realtime-flash"]
    /// The frontend model that holds full-duplex conversations (`turn_detection.type: duplex`).
    package static let duplexModel = "qwen-audio-4.0-realtime-preview"
    /// The documented system voices; the first is the default (DOC-QAL-CE).
    package static let voices = ["yunshu", "xiaoman", "wanfeng", "qingyou", "poxiao", "maiya", "wulong", "xuesong"]
    /// The `turn_detection.type` values: server VAD (the `session.created` default) and duplex.
    package static let turnDetectionTypes = ["server_vad", "duplex"]
    /// The `delegation.type` values (DOC-QAL-CE).
    package static let delegationTypes = ["client", "responses"]
    /// The `transport.type` values (DOC-QAL-REF): the mock serves media on the WebSocket only.
    package static let transportTypes = ["websocket", "rtc", "aoq"]
    /// Uplink PCM16LE mono rate.
    package static let inputSampleRate = 16_000
    /// Downlink PCM16LE mono rate.
    package static let outputSampleRate = 24_000
    /// The longest `event_id` (DOC-QAL-CE).
    package static let maxEventIDLength = 128
    /// How often the server reports usage, in seconds (DOC-QAL-REF, tc Nov 24 2026).
    package static let usageIntervalSeconds = 5

    /// Whether `model` (any case) is a Qwen-Audio-Live service model: `qwen-audio-<d>.<d>-live`
    /// optionally followed by `-<suffix>` (dated snapshots).
    package static func isServiceModel(_ model: String) -> Bool {
        let name = model.lowercased()
        let prefix = "qwen-audio-"
        guard name.hasPrefix(prefix) else { return false }
        var rest = name.dropFirst(prefix.count)
        let major = rest.prefix { $0.isASCII && $0.isNumber }
        guard !major.isEmpty else { return false }
        rest = rest.dropFirst(major.count)
        guard rest.hasPrefix(".") else { return false }
        rest = rest.dropFirst()
        let minor = rest.prefix { $0.isASCII && $0.isNumber }
        guard !minor.isEmpty else { return false }
        rest = rest.dropFirst(minor.count)
        guard rest.hasPrefix("-live") else { return false }
        let suffix = rest.dropFirst("-live".count)
        return suffix.isEmpty || (suffix.hasPrefix("-") && suffix.count > 1)
    }
}

/// The Qwen-Audio-Live client events, spelled as on the wire (the `type` member).
package enum QwenAudioLiveClientEvent: String, Sendable, Hashable, CaseIterable {
    /// Configures the session (`event_id` and `session.model` required); answered by
    /// `session.updated`.
    case sessionUpdate = "session.update"
    /// A chunk of base64 PCM16 16 kHz mono (`audio`); no reply.
    case inputAudioAppend = "session.input_audio.append"
    /// Mutes the uplink; answered by `session.input_audio.muted`.
    case inputAudioMute = "session.input_audio.mute"
    /// Unmutes the uplink; answered by `session.input_audio.unmuted`.
    case inputAudioUnmute = "session.input_audio.unmute"
    /// A text message or a function call's output.
    case itemCreate = "session.item.create"
    /// Speakable context or a client delegation's result (`delegation_id`, `content`).
    case commentaryAppend = "session.commentary.append"
    /// Silent context or a delegation's progress.
    case thinkingAppend = "session.thinking.append"
    /// Instructions appended during the session.
    case instructionsAppend = "session.instructions.append"
    /// The same, spelled in the singular on one page (DOC-QAL-REF, help.aliyun.com zh).
    case instructionAppend = "session.instruction.append"
    /// Ends the session; answered by `session.closed`.
    case sessionClose = "session.close"

    /// The event as a JSON object: `type` first, then `fields` in their order.
    package func object(_ fields: JSONObject = [:]) -> JSONObject {
        var object: JSONObject = ["type": .string(rawValue)]
        for (key, value) in fields { object[key] = value }
        return object
    }
}

/// The Qwen-Audio-Live server events, spelled as on the wire (the `type` member).
package enum QwenAudioLiveServerEvent: String, Sendable, Hashable, CaseIterable {
    /// A refused request or a service failure (`error{code, message, client_event_id?}`).
    case error
    /// The first event after connect, with the default session.
    case sessionCreated = "session.created"
    /// The configuration took effect (`client_event_id`, `session`).
    case sessionUpdated = "session.updated"
    /// Reply to `session.input_audio.mute`.
    case inputAudioMuted = "session.input_audio.muted"
    /// Reply to `session.input_audio.unmute`.
    case inputAudioUnmuted = "session.input_audio.unmuted"
    /// A piece of the user's transcript.
    case inputTranscriptDelta = "session.input_transcript.delta"
    /// A piece of the model's subtitles.
    case outputTranscriptDelta = "session.output_transcript.delta"
    /// A chunk of base64 PCM16 24 kHz mono answer audio (`delta`).
    case outputAudioDelta = "session.output_audio.delta"
    /// The frontend model handed a task to the client or the backend (`delegation{id, target}`).
    case delegationCreated = "session.delegation.created"
    /// A backend (Responses) event of a delegation (`delegation_id`, `event`).
    case responseEvent = "response.event"
    /// The frontend model asks for a function call (`event.item`).
    case sessionEvent = "session.event"
    /// Reply to `session.commentary.append`.
    case commentaryAppended = "session.commentary.appended"
    /// Reply to `session.thinking.append`.
    case thinkingAppended = "session.thinking.appended"
    /// Reply to `session.instructions.append`.
    case instructionsAppended = "session.instructions.appended"
    /// Usage so far (`usage.seconds`), every 5 s.
    case usageUpdated = "session.usage.updated"
    /// The session ended (`reason`, `usage`); the server closes the connection.
    case sessionClosed = "session.closed"
}

/// Why a Qwen-Audio-Live session ended (`session.closed.reason`; the values of the OpenAI Live
/// API, which the Qwen pages do not list: inferred).
package enum QwenAudioLiveCloseReason: String, Sendable, Hashable, CaseIterable {
    /// The client sent `session.close`.
    case closeRequested = "close_requested"
    /// The session reached its time limit.
    case expired
    /// The content was refused.
    case content
    /// The far end hung up.
    case remoteHangup = "remote_hangup"
    /// The connection or the service failed.
    case connectionLost = "connection_lost"
}
