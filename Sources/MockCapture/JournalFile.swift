package import MockSessions
package import ProtocolModel

/// A journal file's entries (JSON Lines), or ``ScenarioFileError`` `FILE:LINE: message` naming
/// the bad line: `--replay`, `record-to-scenario` and `compare-recordings` read journals this way.
package enum JournalFile {
    package static func entries(_ text: String, file: String) throws(ScenarioFileError) -> [JournalEntry] {
        do {
            return try JournalEntry.decodeLines(text)
        } catch {
            throw ScenarioFileError(description: "\(file):\(error.line ?? 0): \(error.message)")
        }
    }
}
