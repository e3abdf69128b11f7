package import AnswerAudio
package import ProtocolModel
package import ScenarioEngine
package import WireJSON

/// A timer a session asks its driver to run: the scenario's own, or one the protocol engine
/// names (e.g. `"respond"`, `"listeningFallback"`). Scheduling an existing timer moves it.
package enum SessionTimer: Sendable, Hashable {
    case scenario(ScenarioTimer)
    case engine(String)
}

/// What a protocol session asks the server's session driver to do, in order.
package enum SessionCommand: Sendable, Hashable {
    /// Put a frame on the socket at `frame.sendAtMicros` (already through the fault stage).
    case send(ScheduledFrame)
    /// Act on the socket (faults and protocol closes) at a time.
    case transport(TransportAction, atMicros: Int64)
    case scheduleTimer(SessionTimer, atMicros: Int64)
    case cancelTimer(SessionTimer)
    /// Record something in the session journal.
    case journal(JournalNote)
    /// Fire `then` as soon as this answer's audio is rendered (at once if it already is). The
    /// session waits for it without blocking its thread or any other session.
    case awaitAudio(AnswerAudioHandle, then: SessionTimer)
}

/// Journal records that are not frames.
package enum JournalNote: Sendable, Hashable {
    /// The dialog state (or response lifecycle state) changed.
    case state(String)
    /// The client broke an obligation of the spec (`mmd.C8`, `qrt.C13`, …).
    case violation(obligation: String, message: String)
    /// A fault was armed or applied.
    case fault(FaultNote)
    /// Anything else worth reading in a journal.
    case info(String)
    /// The session's final report (scenario policy `sessionReport`), once, at its end.
    case report(JSONValue)
}

/// The upgrade request as a session sees it.
package struct SessionRequest: Sendable {
    package let path: String
    package let queryItems: [(name: String, value: String)]
    /// Header names lower-cased.
    package let headers: [String: String]

    package init(path: String, queryItems: [(name: String, value: String)], headers: [String: String]) {
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
    }

    package func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}

/// The result of a parsed inbound text frame, for the journal: its type and JSON, or the audio
/// event the engine read in place instead.
package struct InboundClassification: Sendable, Hashable {
    package let eventType: String?
    package let json: JSONValue?
    /// Set (with `json` nil) for an audio event read without a JSON tree.
    package let inPlaceAudio: InPlaceAudioEvent?

    package init(eventType: String?, json: JSONValue?, inPlaceAudio: InPlaceAudioEvent? = nil) {
        self.eventType = eventType
        self.json = json
        self.inPlaceAudio = inPlaceAudio
    }
}

/// The commonest client frame, an audio chunk (Qwen's `input_audio_buffer.append`), read in
/// place: no tree, no copy of its base64 text. Only frames whose members are all plain ASCII
/// strings qualify (``InPlaceJSON``), so a JSON parser would have read exactly these members.
package struct InPlaceAudioEvent: Sendable, Hashable {
    /// The client's `event_id`, when it sent one.
    package let eventID: String?
    /// Where the base64 payload is in the frame's bytes (without quotes).
    package let base64Payload: Range<Int>
    /// The payload's audio, for the journal; nil when its length is not base64's.
    package let audio: AudioSummary?

    package init(eventID: String?, base64Payload: Range<Int>, audio: AudioSummary?) {
        self.eventID = eventID
        self.base64Payload = base64Payload
        self.audio = audio
    }
}
