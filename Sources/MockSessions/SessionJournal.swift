package import ProtocolModel
import ScenarioEngine
import Synchronization
package import WireJSON

/// Everything one session did, in order: frames both ways, states, faults, violations, close.
/// Written by the session's service thread, read by the control API from any thread (a mutex
/// guards it). With a record directory, every entry is also handed to the ``RecordWriter`` for
/// `<dir>/<session-id>.jsonl` as it happens (on disk within the writer's flush interval).
package final class SessionJournal: Sendable {
    package let id: String
    package let protocolName: String
    package let path: String
    package let testID: String?
    package let caseID: String?
    package let startedAtMicros: Int64
    /// The upstream origin of a proxied session (`--proxy-upstream`); nil for the mock's own.
    package let upstream: String?
    /// The name of the scenario the session runs (its case's, its test id's or the global one).
    package let scenario: String?

    private struct State {
        var entries = JournalStorage()
        package var isOpen = true
        package var framesIn = 0
        package var framesOut = 0
        package var bytesIn = 0
        package var bytesOut = 0
        package var violations = 0
        /// Of ``violations``, those at MUST level (the rest are SHOULD).
        package var mustViolations = 0
        package var serviceThreadName: String?
        package var storedFrames = 0
        package var framesNotJournaled = 0
        /// Estimated memory the kept entries hold (see ``retainedBytes``).
        package var retainedBytes = 0
        /// When the last entry was appended (microseconds since the session started).
        var lastAppendMicros: Int64 = 0
    }

    private let state = Mutex(State())
    /// Where `--record` lines go, and this session's file; nil without `--record`.
    private let record: (writer: RecordWriter, path: String)?
    /// Frames kept in memory; later frames are only counted (states, violations, faults and
    /// closes are always kept, and `--record` files get every entry).
    package let frameLimit: Int
    /// Where violations and faults are announced as they are journaled (the dashboard's feed).
    private let events: SessionEvents?

    package init(
        id: String, protocolName: String, path: String, testID: String?, caseID: String?,
        startedAtMicros: Int64, recordWriter: RecordWriter?, frameLimit: Int = .max, upstream: String? = nil,
        scenario: String? = nil, events: SessionEvents? = nil
    ) {
        self.events = events
        self.upstream = upstream
        self.scenario = scenario
        self.frameLimit = frameLimit
        self.id = id
        self.protocolName = protocolName
        self.path = path
        self.testID = testID
        self.caseID = caseID
        self.startedAtMicros = startedAtMicros
        record = recordWriter.map { ($0, $0.path(ofSession: id)) }
    }

    /// Microseconds since the session started.
    package func elapsed(atMicros now: Int64) -> Int64 { now - startedAtMicros }

    /// Journals a close going `direction` at `now`: its code (nil for an abrupt close, no close
    /// frame) and reason.
    package func recordClose(_ direction: JournalEntry.Direction, atMicros now: Int64, code: Int?, reason: String) {
        record(
            JournalEntry(
                t: elapsed(atMicros: now), direction: direction, kind: .close, closeCode: code, closeReason: reason))
    }

    /// Journals `entry`. `wireText`: a text frame's bytes when `entry.json` is their parse (or
    /// they are its encoding): the journal then keeps the bytes, not the tree, and parses them
    /// again when read (see ``JournalStorage``).
    package func record(_ entry: JournalEntry, wireText: [UInt8]? = nil) {
        state.withLock { state in
            let isFrame = entry.kind == .text || entry.kind == .binary
            if isFrame && state.storedFrames >= frameLimit {
                state.framesNotJournaled += 1
            } else {
                state.retainedBytes += state.entries.append(entry, wireText: wireText)
                state.lastAppendMicros = entry.t
                if isFrame { state.storedFrames += 1 }
            }
            if isFrame {
                if entry.direction == .in {
                    state.framesIn += 1
                    state.bytesIn += entry.byteLength ?? 0
                } else if !entry.undelivered {
                    state.framesOut += 1
                    state.bytesOut += entry.byteLength ?? 0
                }
            } else if entry.kind == .violation {
                state.violations += 1
                if entry.violation?.level != .should { state.mustViolations += 1 }
            }
            // Under the lock, so the file gets entries in the journal's order.
            if let record { record.writer.append(entry.jsonLine, to: record.path) }
        }
        if let events, entry.kind == .violation || entry.kind == .fault {
            events.post(
                entry.kind.rawValue,
                [
                    "session": .string(id),
                    "label": .string(entry.violation?.obligation ?? entry.fault?.kind ?? ""),
                ])
        }
    }

    /// Estimated memory the kept entries hold: each entry's record, plus what it keeps beside
    /// it (a JSON frame's bytes, raw text, a binary frame's bytes, a whole entry); what
    /// `--keep-sessions-bytes` bounds.
    package var retainedBytes: Int { state.withLock { $0.retainedBytes } }

    /// Compresses the journal's last block when nothing was appended for `quietMicros` before
    /// `now` (see ``JournalCompactor``).
    package func compactIfQuiet(atMicros now: Int64, quietMicros: Int64) {
        let t = elapsed(atMicros: now)
        state.withLock { state in
            guard t - state.lastAppendMicros >= quietMicros else { return }
            state.retainedBytes += state.entries.seal()
        }
    }

    package func markClosed() {
        state.withLock { state in
            state.isOpen = false
            // It grows no more: its last block is compressed too.
            state.retainedBytes += state.entries.seal()
            if let record { record.writer.close(record.path) }
        }
    }

    package var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The service thread the session lives on (set when it opens).
    package var serviceThreadName: String? {
        get { state.withLock { $0.serviceThreadName } }
        set { state.withLock { $0.serviceThreadName = newValue } }
    }

    /// The entries so far.
    package var entries: [JournalEntry] { entriesSnapshot(from: 0) }

    /// The journal as JSON Lines.
    package var jsonLines: String { jsonLines(from: 0) }

    /// The journal as JSON Lines from its entry `from` on (0-based; past the end: empty).
    package func jsonLines(from: Int) -> String {
        JournalEntry.encodeLines(entriesSnapshot(from: from))
    }

    /// The last entry of `kind`, a kind that is not a frame, read without rebuilding the frames
    /// (the report route runs on a service thread).
    package func lastEntry(ofKind kind: JournalEntry.Kind) -> JournalEntry? {
        precondition(kind != .text && kind != .binary, "frames are not kept whole")
        return state.withLock { $0.entries.lastKept { $0.kind == kind } }
    }

    /// The entries from `from` on, rebuilt outside the lock from a snapshot of the storage.
    private func entriesSnapshot(from: Int) -> [JournalEntry] {
        state.withLock { $0.entries }.entries(from: from)
    }

    /// The summary the session list shows.
    package var summary: JSONValue {
        let state = self.state.withLock { $0 }  // the entries are shared, not copied
        var object: JSONObject = [
            "id": .string(id), "protocol": .string(protocolName), "path": .string(path),
            "open": .bool(state.isOpen), "framesIn": .int(Int64(state.framesIn)),
            "framesOut": .int(Int64(state.framesOut)),
            "bytesIn": .int(Int64(state.bytesIn)), "bytesOut": .int(Int64(state.bytesOut)),
            "violations": .int(Int64(state.violations)),
        ]
        if state.violations > 0 { object["mustViolations"] = .int(Int64(state.mustViolations)) }
        if let testID { object["testId"] = .string(testID) }
        if let caseID { object["caseId"] = .string(caseID) }
        if let thread = state.serviceThreadName { object["thread"] = .string(thread) }
        if let upstream { object["upstream"] = .string(upstream) }
        if let scenario { object["scenario"] = .string(scenario) }
        if state.framesNotJournaled > 0 { object["framesNotJournaled"] = .int(Int64(state.framesNotJournaled)) }
        return .object(object)
    }
}
