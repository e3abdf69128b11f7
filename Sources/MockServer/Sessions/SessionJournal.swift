import Glibc
import ScenarioEngine
import Synchronization
import WireJSON

/// Everything one session did, in order: frames both ways, states, faults, violations, close.
/// Written by the session's service thread, read by the control API from any thread (a mutex
/// guards it). With a record directory, every entry is also appended to
/// `<dir>/<session-id>.jsonl` as it happens (and flushed when the session closes).
final class SessionJournal: Sendable {
    let id: String
    let protocolName: String
    let path: String
    let testID: String?
    let caseID: String?
    let startedAtMicros: Int64

    private struct State {
        var entries: [JournalEntry] = []
        var isOpen = true
        var framesIn = 0
        var framesOut = 0
        var bytesIn = 0
        var bytesOut = 0
        var violations = 0
        var recordFile: RecordFile?
        var serviceThreadName: String?
        var storedFrames = 0
        var framesNotJournaled = 0
        /// Estimated memory the kept entries hold (see ``retainedBytes``).
        var retainedBytes = 0
    }

    /// The `FILE *` of `--record`, used only under the journal's lock.
    private struct RecordFile: @unchecked Sendable {
        let file: UnsafeMutablePointer<FILE>
    }

    private let state = Mutex(State())
    /// Frames kept in memory; later frames are only counted (states, violations, faults and
    /// closes are always kept, and `--record` files get every entry).
    let frameLimit: Int

    init(id: String, protocolName: String, path: String, testID: String?, caseID: String?,
         startedAtMicros: Int64, recordDirectory: String?, frameLimit: Int = .max, logger: Logger) {
        self.frameLimit = frameLimit
        self.id = id
        self.protocolName = protocolName
        self.path = path
        self.testID = testID
        self.caseID = caseID
        self.startedAtMicros = startedAtMicros
        if let recordDirectory {
            let file = "\(recordDirectory)/\(id).jsonl"
            if let handle = fopen(file, "w") {
                state.withLock { $0.recordFile = RecordFile(file: handle) }
            } else {
                logger(.error, "--record: cannot write \(file): \(String(cString: strerror(errno)))")
            }
        }
    }

    deinit { state.withLock { if let record = $0.recordFile { fclose(record.file) } } }

    /// Microseconds since the session started.
    func elapsed(atMicros now: Int64) -> Int64 { now - startedAtMicros }

    func record(_ entry: JournalEntry) {
        state.withLock { state in
            let isFrame = entry.kind == .text || entry.kind == .binary
            if isFrame && state.storedFrames >= frameLimit {
                state.framesNotJournaled += 1
            } else {
                state.entries.append(entry)
                state.retainedBytes += Self.estimatedBytes(of: entry)
                if isFrame { state.storedFrames += 1 }
            }
            if isFrame {
                if entry.direction == .in {
                    state.framesIn += 1
                    state.bytesIn += entry.byteLength ?? 0
                } else {
                    state.framesOut += 1
                    state.bytesOut += entry.byteLength ?? 0
                }
            } else if entry.kind == .violation {
                state.violations += 1
            }
            if let record = state.recordFile {
                var line = entry.jsonLine + "\n"
                line.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, record.file) }
            }
        }
    }

    /// Estimated memory the kept entries hold: each entry, plus the wire size of the frame it
    /// keeps (its JSON tree or raw text); what `--keep-sessions-bytes` bounds.
    var retainedBytes: Int { state.withLock { $0.retainedBytes } }

    private static func estimatedBytes(of entry: JournalEntry) -> Int {
        let kept = entry.json != nil ? entry.byteLength ?? 0 : entry.text?.utf8.count ?? 0
        return MemoryLayout<JournalEntry>.stride + kept
    }

    func markClosed() {
        state.withLock { state in
            state.isOpen = false
            if let record = state.recordFile {
                fflush(record.file)
                fclose(record.file)
                state.recordFile = nil
            }
        }
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The service thread the session lives on (set when it opens).
    var serviceThreadName: String? {
        get { state.withLock { $0.serviceThreadName } }
        set { state.withLock { $0.serviceThreadName = newValue } }
    }

    /// The entries so far.
    var entries: [JournalEntry] { state.withLock { $0.entries } }

    /// The journal as JSON Lines.
    var jsonLines: String {
        let entries = self.entries
        return entries.map(\.jsonLine).joined(separator: "\n") + (entries.isEmpty ? "" : "\n")
    }

    /// The summary the session list shows.
    var summary: JSONValue {
        let state = self.state.withLock { $0 }  // the entries are shared, not copied
        var object: JSONObject = [
            "id": .string(id), "protocol": .string(protocolName), "path": .string(path),
            "open": .bool(state.isOpen), "framesIn": .int(Int64(state.framesIn)), "framesOut": .int(Int64(state.framesOut)),
            "bytesIn": .int(Int64(state.bytesIn)), "bytesOut": .int(Int64(state.bytesOut)),
            "violations": .int(Int64(state.violations)),
        ]
        if let testID { object["testId"] = .string(testID) }
        if let caseID { object["caseId"] = .string(caseID) }
        if let thread = state.serviceThreadName { object["thread"] = .string(thread) }
        if state.framesNotJournaled > 0 { object["framesNotJournaled"] = .int(Int64(state.framesNotJournaled)) }
        return .object(object)
    }
}
