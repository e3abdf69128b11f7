/// The life of one Qwen session as its client events see it: how many arrived and with which
/// `event_id`s (C3), whether `session.updated` for the first update is out yet (C4), and whether
/// the session is finishing (C18), ended by a `server_error` (C19) or closed. A value: the engine
/// asks it what to do with a frame and tells it what happened.
struct SessionLifecycle: Sendable {
    /// What to do with a client frame, decided before reading it.
    enum Admission: Equatable, Sendable {
        /// Read and handle it.
        case handle
        /// Drop it unread: the session closed normally.
        case drop
        /// Journal it as in flight: it was sent within `graceMs` of the ending `server_error`.
        case inFlightAfterServerError(graceMs: Int64)
        /// A C19 breach: sent after a `server_error` ended the session.
        case afterServerError
        /// A C18 breach: sent after `session.finish` (ignored).
        case afterFinish
    }

    /// The in-flight grace after a `server_error` the protocol reference gives for C19 (300 ms).
    static var serverErrorInFlightMicros: Int64 { 300_000 }

    /// Client frames handled so far (text and binary).
    private(set) var clientEvents = 0
    private var seenEventIDs: Set<String> = []
    /// The `event_id` of the client event being handled, echoed in errors.
    private(set) var currentEventID: String?
    /// Keys of SHOULD-level violations already journaled (reported once per session).
    private var reportedOnce: Set<String> = []
    /// `session.update` events received.
    private(set) var sessionUpdates = 0
    /// When the `session.updated` answering the first `session.update` is due (C4).
    private var firstUpdatedDueMicros: Int64?
    /// After `session.finish` (C18).
    private(set) var isFinishing = false
    /// When a `server_error` ended the session (the first one counts).
    private(set) var terminatedAt: Int64?
    /// After the engine closed the connection or the peer went away.
    private(set) var isClosed = false

    var isTerminated: Bool { terminatedAt != nil }

    /// Whether the event being handled is the session's first.
    var isFirstEvent: Bool { clientEvents == 1 }

    /// What to do with a frame arriving at `now`. Frames after a finish or a `server_error` are
    /// judged even once the engine has closed; otherwise nothing is read after the close.
    func admission(atMicros now: Int64) -> Admission {
        if let terminatedAt {
            return now - terminatedAt <= Self.serverErrorInFlightMicros
                ? .inFlightAfterServerError(graceMs: Self.serverErrorInFlightMicros / 1000) : .afterServerError
        }
        if isFinishing { return .afterFinish }
        return isClosed ? .drop : .handle
    }

    /// A client frame is being handled: counted, with no `event_id` until it shows one.
    mutating func eventArrived() {
        currentEventID = nil
        clientEvents += 1
    }

    /// Remembers the handled event's `event_id`; false when it was used before (C3).
    mutating func record(eventID: String) -> Bool {
        currentEventID = eventID
        return seenEventIDs.insert(eventID).inserted
    }

    /// True the first time `key` is reported in this session.
    mutating func firstReport(_ key: String) -> Bool {
        reportedOnce.insert(key).inserted
    }

    /// A `session.update` arrived; returns whether it is the first.
    mutating func sessionUpdateArrived() -> Bool {
        sessionUpdates += 1
        return sessionUpdates == 1
    }

    /// The first update's `session.updated` goes out at `dueMicros`.
    mutating func firstUpdatedSent(atMicros dueMicros: Int64) {
        firstUpdatedDueMicros = dueMicros
    }

    /// Whether at `now` the first update's `session.updated` is still to go out (C4).
    func awaitsFirstUpdated(atMicros now: Int64) -> Bool {
        firstUpdatedDueMicros.map { now < $0 } ?? false
    }

    /// `session.finish` arrived: the session ends after its last frames.
    mutating func finish() { isFinishing = true }

    /// A `server_error` ends the session at `now` (the first one counts).
    mutating func terminate(atMicros now: Int64) { terminatedAt = terminatedAt ?? now }

    /// The connection closes; returns false when it already was.
    mutating func close() -> Bool {
        guard !isClosed else { return false }
        isClosed = true
        return true
    }
}
