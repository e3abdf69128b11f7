import CLISupport
import Glibc
import MockCapture
import MockSessions

/// `mock-server record-to-scenario JOURNAL [--out FILE]`: a recorded session as a scenario that
/// replays it (`mock-server --scenario FILE`).
enum RecordToScenarioCommand: Command {
    static let output = ValueOption(
        "--out", valueName: "FILE",
        help: "The scenario to write (default: JOURNAL without .jsonl, plus .scenario.json).")
    static let configuration = CommandConfiguration(
        name: "record-to-scenario",
        abstract: "Turn a recorded session (a --record journal) into a scenario that replays it frame for frame.",
        options: [output],
        positionals: [
            PositionalSpec("journal", help: "A session journal (JSON Lines), e.g. DIR/s1.jsonl from --record.")
        ],
        discussion: """
            Audio goes to NAME.audio/ beside the scenario (Qwen deltas as NNNN.pcm, binary frames
            the journal kept as NNNN.bin); ids are rewritten deterministically. Prints the scenario's path and the number of replayed frames.
            """
    )

    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let journal = parsed.positional("journal") ?? ""
        guard let bytes = MockServerCommand.readFile(journal) else {
            MockServerCommand.printError("mock-server record-to-scenario: cannot read '\(journal)'")
            return 2
        }
        let base = journal.hasSuffix(".jsonl") ? String(journal.dropLast(6)) : journal
        let out = try parsed.value(of: output) ?? base + ".scenario.json"
        let folder = out.lastIndex(of: "/").map { String(out[..<$0]) } ?? "."
        let fileName = out.split(separator: "/").last.map(String.init) ?? out
        let name = fileName.hasSuffix(".json") ? String(fileName.dropLast(5)) : fileName
        let recorded: Recordings.RecordedScenarioFiles
        do {
            recorded = try Recordings.recordedScenario(
                journal: String(decoding: bytes, as: UTF8.self), file: journal, name: name)
        } catch {
            MockServerCommand.printError(error.description)
            return 2
        }
        if !recorded.audioFiles.isEmpty, let problem = MockServerCommand.makeDirectory(folder + "/" + name + ".audio") {
            MockServerCommand.printError("mock-server record-to-scenario: cannot create '\(name).audio': \(problem)")
            return 1
        }
        for file in recorded.audioFiles where !write(file.bytes, to: folder + "/" + file.path) {
            MockServerCommand.printError("mock-server record-to-scenario: cannot write '\(folder)/\(file.path)'")
            return 1
        }
        guard write(Array(recorded.scenario.utf8), to: out) else {
            MockServerCommand.printError("mock-server record-to-scenario: cannot write '\(out)'")
            return 1
        }
        MockServerCommand.printLine("\(out): \(recorded.steps) server frames, \(recorded.audioFiles.count) audio files")
        return 0
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let handle = fopen(path, "wb") else { return false }
        let written = fwrite(bytes, 1, bytes.count, handle)
        return fclose(handle) == 0 && written == bytes.count
    }
}
