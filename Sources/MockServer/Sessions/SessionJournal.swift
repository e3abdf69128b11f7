import Glibc
import ScenarioEngine
import WireJSON

/// Everything one session did, in order: frames both ways, states, faults, violations, close.
/// Service-thread confined. With a record directory, every entry is also appended to
/// `<dir>/<session-id>.jsonl` as it happens (and flushed when the session closes).
final class SessionJournal {
    let id: String
    let protocolName: String
    let path: String
    let testID: String?
    let caseID: String?
    let startedAtMicros: Int64
    private(set) var entries: [JournalEntry] = []
    private(set) var isOpen = true
    private(set) var framesIn = 0
    private(set) var framesOut = 0
    private(set) var bytesIn = 0
    private(set) var bytesOut = 0
    private var recordFile: UnsafeMutablePointer<FILE>?

    init(id: String, protocolName: String, path: String, testID: String?, caseID: String?,
         startedAtMicros: Int64, recordDirectory: String?, logger: Logger) {
        self.id = id
        self.protocolName = protocolName
        self.path = path
        self.testID = testID
        self.caseID = caseID
        self.startedAtMicros = startedAtMicros
        if let recordDirectory {
            let file = "\(recordDirectory)/\(id).jsonl"
            recordFile = fopen(file, "w")
            if recordFile == nil { logger(.error, "--record: cannot write \(file): \(String(cString: strerror(errno)))") }
        }
    }

    deinit { if let recordFile { fclose(recordFile) } }

    /// Microseconds since the session started.
    func elapsed(atMicros now: Int64) -> Int64 { now - startedAtMicros }

    func record(_ entry: JournalEntry) {
        entries.append(entry)
        if entry.kind == .text || entry.kind == .binary {
            if entry.direction == .in {
                framesIn += 1
                bytesIn += entry.byteLength ?? 0
            } else {
                framesOut += 1
                bytesOut += entry.byteLength ?? 0
            }
        }
        if let recordFile {
            var line = entry.jsonLine + "\n"
            line.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, recordFile) }
        }
    }

    func markClosed() {
        isOpen = false
        if let recordFile {
            fflush(recordFile)
            fclose(recordFile)
            self.recordFile = nil
        }
    }

    /// The journal as JSON Lines.
    var jsonLines: String { entries.map(\.jsonLine).joined(separator: "\n") + (entries.isEmpty ? "" : "\n") }

    /// The summary the session list shows.
    var summary: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "protocol": .string(protocolName), "path": .string(path),
            "open": .bool(isOpen), "framesIn": .int(Int64(framesIn)), "framesOut": .int(Int64(framesOut)),
            "bytesIn": .int(Int64(bytesIn)), "bytesOut": .int(Int64(bytesOut)),
            "violations": .int(Int64(entries.filter { $0.kind == .violation }.count)),
        ]
        if let testID { object["testId"] = .string(testID) }
        if let caseID { object["caseId"] = .string(caseID) }
        return .object(object)
    }
}
