package import WireJSON

/// One line of a session journal: a frame in either direction, a close, a fault
/// application, a client violation, or a dialog-state change, with its time.
///
/// Shared by the server's recorder, the control API (`GET /_mock/sessions/<id>/journal`)
/// and replay (``Scenario/replay(journal:timeScale:)``). One entry is one JSON object per
/// line (JSON Lines); see ``jsonValue`` for the exact shape.
package struct JournalEntry: Sendable, Hashable {
    /// Who sent a frame.
    package enum Direction: String, Sendable, Hashable, CaseIterable {
        /// Client to server.
        case `in`
        /// Server to client.
        case out
    }

    /// What the entry records.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case text, binary, close, fault, violation, state
        /// The session's final report (in `json`), journaled at its end.
        case report
    }

    /// Microseconds since the session started.
    package var t: Int64
    /// Frame direction (`nil` for fault, violation and state entries).
    package var direction: Direction?
    /// What the entry records.
    package var kind: Kind
    /// Payload size of a frame in bytes.
    package var byteLength: Int?
    /// Event type of a frame (directive / `type`), when it has one.
    package var eventType: String?
    /// The parsed JSON of a text frame that was valid JSON.
    package var json: JSONValue?
    /// What a binary frame contained.
    package var audio: AudioSummary?
    /// The members only some kinds of entry have, boxed: a frame entry (the bulk of a streaming
    /// journal) then stays 128 bytes instead of 264.
    private var details: Details?

    /// The raw text of a text frame that was not valid JSON.
    package var text: String? {
        get { self[detail: \.text] }
        set { self[detail: \.text] = newValue }
    }
    /// The dialog state entered (state entries), or the state at the time.
    package var state: String? {
        get { self[detail: \.state] }
        set { self[detail: \.state] = newValue }
    }
    /// The fault application (fault entries).
    package var fault: FaultNote? {
        get { self[detail: \.fault] }
        set { self[detail: \.fault] = newValue }
    }
    /// The client deviation (violation entries).
    package var violation: Violation? {
        get { self[detail: \.violation] }
        set { self[detail: \.violation] = newValue }
    }
    /// Close code (close entries).
    package var closeCode: Int? {
        get { self[detail: \.closeCode] }
        set { self[detail: \.closeCode] = newValue }
    }
    /// Close reason (close entries).
    package var closeReason: String? {
        get { self[detail: \.closeReason] }
        set { self[detail: \.closeReason] = newValue }
    }
    /// The bytes of a binary frame, when the recorder keeps them (proxied sessions under
    /// `--record` or `--journal-audio`); journaled as base64 `data`.
    package var payload: [UInt8]? {
        get { self[detail: \.payload] }
        set { self[detail: \.payload] = newValue }
    }
    /// A frame the upstream of a proxied session sent after the client had closed: journaled
    /// (it is what the upstream said) but never passed on; journaled as `"undelivered": true`.
    package var undelivered: Bool {
        get { self[detail: \.undelivered] ?? false }
        set { self[detail: \.undelivered] = newValue ? true : nil }
    }

    /// The rare members; immutable, so entries that share one stay values.
    private final class Details: Sendable, Hashable {
        struct Fields: Hashable {
            var text: String?
            var state: String?
            var fault: FaultNote?
            var violation: Violation?
            var closeCode: Int?
            var closeReason: String?
            var payload: [UInt8]?
            var undelivered: Bool?

            var isEmpty: Bool { self == Fields() }
        }

        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        static func == (lhs: Details, rhs: Details) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    /// One rare member: read from the box, written into a new one (nil when all are empty).
    private subscript<Value>(detail member: WritableKeyPath<Details.Fields, Value?>) -> Value? {
        get { details?.fields[keyPath: member] }
        set {
            var fields = details?.fields ?? Details.Fields()
            fields[keyPath: member] = newValue
            details = fields.isEmpty ? nil : Details(fields)
        }
    }

    /// Creates an entry; set the optional members that apply to `kind`.
    package init(
        t: Int64, direction: Direction? = nil, kind: Kind, byteLength: Int? = nil, eventType: String? = nil,
        json: JSONValue? = nil, text: String? = nil, audio: AudioSummary? = nil, state: String? = nil,
        fault: FaultNote? = nil, violation: Violation? = nil, closeCode: Int? = nil, closeReason: String? = nil
    ) {
        self.t = t
        self.direction = direction
        self.kind = kind
        self.byteLength = byteLength
        self.eventType = eventType
        self.json = json
        self.audio = audio
        let fields = Details.Fields(
            text: text, state: state, fault: fault, violation: violation, closeCode: closeCode,
            closeReason: closeReason)
        self.details = fields.isEmpty ? nil : Details(fields)
    }

    /// A text frame entry.
    package static func textFrame(
        t: Int64, _ direction: Direction, json: JSONValue, eventType: String? = nil, byteLength: Int
    ) -> JournalEntry {
        JournalEntry(t: t, direction: direction, kind: .text, byteLength: byteLength, eventType: eventType, json: json)
    }

    /// A binary frame entry (with its bytes when `payload` is given).
    package static func binaryFrame(
        t: Int64, _ direction: Direction, byteLength: Int, audio: AudioSummary? = nil, payload: [UInt8]? = nil
    ) -> JournalEntry {
        var entry = JournalEntry(t: t, direction: direction, kind: .binary, byteLength: byteLength, audio: audio)
        if let payload { entry.payload = payload }
        return entry
    }

    /// Whether one of the rare members (text, state, fault, violation, close code or reason,
    /// payload, undelivered) is set: an entry without them is all in its common members.
    package var hasRareMembers: Bool { details != nil }

    /// Whether this entry is a frame (text or binary) sent in `direction`.
    package func isFrame(_ direction: Direction) -> Bool {
        self.direction == direction && (kind == .text || kind == .binary)
    }
}
