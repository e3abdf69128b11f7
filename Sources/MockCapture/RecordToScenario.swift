package import MockSessions
import ScenarioEngine
import WireJSON

extension Recordings {
    /// A recorded session as a replayable scenario (`mock-server record-to-scenario`).
    package struct RecordedScenarioFiles: Sendable {
        /// The scenario file's text (pretty JSON).
        package let scenario: String
        /// Audio files to write beside it: path relative to the scenario's folder, bytes.
        package let audioFiles: [(path: String, bytes: [UInt8])]
        /// Server frames the scenario replays.
        package let steps: Int
    }

    /// Turns a journal (JSON Lines, e.g. a `--record` file of a proxied session) into a scenario
    /// whose sessions replay it frame for frame (``RecordedScenario``).
    /// - Throws: ``ScenarioFileError`` `FILE:LINE: message` for a bad journal line.
    package static func recordedScenario(
        journal text: String, file: String, name: String
    ) throws(ScenarioFileError) -> RecordedScenarioFiles {
        let recorded = RecordedScenario(journal: try JournalFile.entries(text, file: file), name: name)
        return RecordedScenarioFiles(
            scenario: recorded.document.encodedString(pretty: true) + "\n", audioFiles: recorded.audioFiles,
            steps: recorded.stepCount)
    }
}
