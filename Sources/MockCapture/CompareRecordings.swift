package import MockSessions
import ScenarioEngine
import WireJSON

extension Recordings {
    /// Two recordings of the same flow compared (`mock-server compare-recordings`,
    /// ``RecordingDrift``): the report (pretty JSON) and whether the server drifted.
    /// - Throws: ``ScenarioFileError`` `FILE:LINE: message` for a bad journal line.
    package static func compareRecordings(
        old: (file: String, text: String), new: (file: String, text: String), toleranceMicros: Int64
    ) throws(ScenarioFileError) -> (report: String, drifted: Bool) {
        let drift = RecordingDrift(
            old: try JournalFile.entries(old.text, file: old.file),
            new: try JournalFile.entries(new.text, file: new.file),
            toleranceMicros: toleranceMicros)
        return (drift.report.encodedString(pretty: true) + "\n", drift.drifted)
    }
}
