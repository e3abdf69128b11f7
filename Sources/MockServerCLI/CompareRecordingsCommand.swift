import CLISupport
import Glibc
import MockServer

/// `mock-server compare-recordings OLD NEW [--timing-tolerance-ms N]`: what the server sends
/// differently in a new recording of the same flow (drift).
enum CompareRecordingsCommand {
    /// The word after `mock-server` that runs this command.
    static let word = "compare-recordings"
    static let spec = CommandSpec(
        name: "mock-server compare-recordings",
        abstract: "Compare two recordings of the same flow: server frames added or removed, fields, timing.",
        options: [
            .value(
                "--timing-tolerance-ms", valueName: "N",
                help: "A frame's median delay may move this much before it is drift.", default: "50")
        ],
        positionals: [
            PositionalSpec("old", help: "The earlier recording (a --record journal)."),
            PositionalSpec("new", help: "The new recording of the same flow."),
        ],
        discussion: """
            Prints a JSON report (drifted, summary, order, fields, timing) on stdout. Exit 0 when
            nothing drifted, 1 when something did, 2 on a bad argument or journal.
            """
    )

    static func main(_ arguments: [String]) -> Never {
        let parsed = CommandLineRunner.parseOrExit(arguments, spec: spec)
        let tolerance = CommandLineRunner.valueOrExit(spec: spec) {
            try parsed.int("--timing-tolerance-ms", range: 0...3_600_000) ?? 50
        }
        var recordings: [(file: String, text: String)] = []
        for name in ["old", "new"] {
            let file = parsed.positional(name) ?? ""
            guard let bytes = MockServerCommand.readFile(file) else {
                MockServerCommand.printError("mock-server compare-recordings: cannot read '\(file)'")
                exit(2)
            }
            recordings.append((file, String(decoding: bytes, as: UTF8.self)))
        }
        do {
            let (report, drifted) = try MockServer.compareRecordings(
                old: recordings[0], new: recordings[1], toleranceMicros: Int64(tolerance) * 1000)
            MockServerCommand.printLine(String(report.dropLast()))
            exit(drifted ? 1 : 0)
        } catch {
            MockServerCommand.printError(error.description)
            exit(2)
        }
    }
}
