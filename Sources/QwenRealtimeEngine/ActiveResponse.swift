import ScenarioEngine
import WireJSON

/// The response in progress (at most one, §7.2): what it has streamed and the items it has
/// produced so far. Its plan's steps wait on the session's ``OutboundTimeline`` (group ``group``).
struct ActiveResponse: Sendable {
    /// A function call the response makes.
    struct Call: Sendable, Hashable {
        var callID: String
        var name: String
        var arguments: String
        var itemID: String
        var argumentsSent = ""
    }

    /// `resp_…`.
    let id: String
    /// When `response.created` is due.
    let startMicros: Int64
    /// The timeline group of its steps (the session's response count).
    let group: Int
    /// The PCM bytes and length of its answer audio, once planned.
    var audioBytes = 0
    var audioDurationMicros: Int64 = 0
    /// The answer's text pieces, kept while the plan waits for its audio.
    var pendingText: [TextCadence.Piece] = []
    /// Modalities and voice of this response (session values or `response.create` overrides).
    let modalities: [String]
    let voice: String
    /// Whether `response.created` went out.
    var createdSent = false
    /// The assistant message item, once added.
    var messageItemID: String?
    /// Whether the message part is open (added, not done).
    var messageOpen = false
    /// Transcript or text sent so far.
    var textSent = ""
    /// PCM bytes sent so far.
    var audioBytesSent = 0
    /// Function calls (all are announced in order).
    var calls: [Call] = []
    /// The call whose item is open.
    var openCall: Int?
    /// Finished output items, for `response.done`.
    var output: [JSONValue] = []
    /// The error that makes this response fail (`insteadOfAnswer`).
    var failure: ErrorSpec?
    /// Errors to send after `response.done`.
    var errorsAfter: [ErrorSpec] = []
    /// Estimated prompt tokens (instructions + history) for usage.
    var promptTextTokens = 0
    /// Estimated prompt audio tokens.
    var promptAudioTokens = 0

    /// Whether the response speaks (audio in its modalities).
    var hasAudio: Bool { modalities.contains("audio") }

    /// The `response` object of `response.created` / `response.done`.
    func json(
        status: String, details: JSONValue = .null, usage: JSONValue = .null, conversationID: String?
    ) -> JSONValue {
        var object: JSONObject = [
            "id": .string(id), "object": "realtime.response", "status": .string(status),
            "status_details": details, "modalities": .array(modalities.map(JSONValue.string)),
            "voice": .string(voice), "output": .array(status == "in_progress" ? [] : output), "usage": usage,
        ]
        if let conversationID { object["conversation_id"] = .string(conversationID) }
        return .object(object)
    }
}
