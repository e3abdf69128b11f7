import CLISupport
import Glibc
import MockCapture
import MockSessions

/// `mock-server compare-recordings OLD NEW [--timing-tolerance-ms N]`: what the server sends
/// differently in a new recording of the same flow (drift).
enum CompareRecordingsCommand: Command {
    static let timingTolerance = DefaultedOption(
        "--timing-tolerance-ms", valueName: "N", help: "A frame's median delay may move this much before it is drift.",
        default: 50, reader: .integer(in: 0...3_600_000))
    static let configuration = CommandConfiguration(
        name: "compare-recordings",
        abstract: "Compare two recordings of the same flow: server frames added or removed, fields, timing.",
        options: [timingTolerance],
        positionals: [
            PositionalSpec("old", help: "The earlier recording (a --record journal)."),
            PositionalSpec("new", help: "The new recording of the same flow."),
        ],
        discussion: """
            Prints a JSON report (drifted, summary, order, fields, timing) on stdout. Exit 0 when
            nothing drifted, 1 when something did, 2 on a bad argument or journal.
            """
    )

    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let tolerance = try parsed.value(of: timingTolerance)
        var recordings: [(file: String, text: String)] = []
        for name in ["old", "new"] {
            let file = parsed.positional(name) ?? ""
            guard let bytes = MockServerCommand.readFile(file) else {
                MockServerCommand.printError("mock-server compare-recordings: cannot read '\(file)'")
                return 2
            }
            recordings.append((file, String(decoding: bytes, as: UTF8.self)))
        }
        do {
            let (report, drifted) = try Recordings.compareRecordings(
                old: recordings[0], new: recordings[1], toleranceMicros: Int64(tolerance) * 1000)
            MockServerCommand.printLine(String(report.dropLast()))
            return drifted ? 1 : 0
        } catch {
            MockServerCommand.printError(error.description)
            return 2
        }
    }
}
