import CLISupport
import ConformanceHarness
import FoundationEssentials
import Glibc
import ProtocolModel

/// `conformance`: the conformance harness (reports/README.md).
@main
enum ConformanceCommand {
    static let rootOption = OptionSpec.value(
        "--root", valueName: "DIR",
        help: "Repository root holding conformance/ (default: found upwards from the current folder).")
    static let list = CommandSpec(
        name: "list", abstract: "List the cases (a dry run of the selection).",
        options: [
            .value("--protocol", valueName: "P", help: "multimodal-dialog or qwen-realtime (default: both)."),
            .repeated("--case", valueName: "GLOB", help: "Select case ids matching GLOB."), rootOption,
        ])
    static let lint = CommandSpec(
        name: "lint",
        abstract: "Check every suite, case, example and scenario reference; print FILE:LINE:COLUMN: message.",
        options: [rootOption])
    static let run = CommandSpec(
        name: "run", abstract: "Run a client command against every selected case and write the reports.",
        options: [
            .value("--protocol", valueName: "P", help: "multimodal-dialog or qwen-realtime."),
            .value("--client", valueName: "COMMAND", help: "The client, run through /bin/sh -c once per case."),
            .repeated("--case", valueName: "GLOB", help: "Select case ids matching GLOB (default: all)."),
            .repeated("--exclude", valueName: "GLOB", help: "Leave out case ids matching GLOB."),
            .flag("--strict", help: "Run strict-only cases; nonStrict verdicts fail the run."),
            .flag(
                "--strict-replay",
                help:
                    "Cases on a recorded scenario fail when the client departs from the recording or leaves recorded frames unused."
            ),
            .value("--report", valueName: "DIR", help: "Report folder (default reports/runs/<client>/<timestamp>/)."),
            .value("--timeout-ms", valueName: "N", help: "Per-case timeout, overriding each case's own."),
            .value(
                "--jobs", valueName: "N",
                help: "Cases run at once (default: 2 per core, at most 8; here \(RunConfiguration.defaultJobs))."),
            .value(
                "--repeat", valueName: "N",
                help:
                    "Run each case N times: reports give pass rates and latency spreads, and mark cases whose verdict changes flaky.",
                default: "1"),
            .flag(
                "--fresh-client",
                help:
                    "Start the client anew for every case, even when its announce line offers reuse (\"reusable\": true)."
            ),
            .value(
                "--time-scale", valueName: "X",
                help: "Multiply the mock's policy timeouts (20 s audio gap, 60 s idle, session caps) by X, e.g. 0.01."),
            .repeated(
                "--budget", valueName: "METRIC=VALUE",
                help:
                    "Fail a case whose reaction takes longer, e.g. bargeIn.speechStarted.cancel=250ms (none drops the suite's)."
            ),
            .value("--shard", valueName: "K/N", help: "Run the K-th of N slices of the selection (CI matrices)."),
            .value(
                "--model", valueName: "MODEL", help: "Qwen realtime model in MOCK_URL and MOCK_MODEL.",
                default: "qwen3-omni-flash-realtime"),
            .value(
                "--baseline", valueName: "FILE",
                help:
                    "A previous run's index.json: the run fails only on regressions against it (exit 1), not on known findings."
            ),
            rootOption,
        ],
        discussion: """
            Exit 0 when no case failed (with --baseline: no case regressed), 1 when one did, 2 on usage
            or harness error, or when no case is selected. Stderr ends with a recap: the verdict
            counts and each broken obligation with its cases and first evidence; with
            GITHUB_ACTIONS=true an ::error / ::warning annotation per obligation follows. With
            $GITHUB_STEP_SUMMARY set, a Markdown summary is appended to that file.
            """)
    static let merge = CommandSpec(
        name: "merge", abstract: "Join the report folders of --shard runs into one report folder.",
        options: [
            .value("--report", valueName: "DIR", help: "The merged report folder (created; its files are replaced)."),
            .flag("--strict", help: "nonStrict verdicts fail the merged run, as with run --strict."),
            .value(
                "--baseline", valueName: "FILE",
                help: "A previous run's index.json: fail only on regressions against it."),
            rootOption,
        ],
        positionals: [
            PositionalSpec("report-dir", help: "A shard's report folder (index.json and cases/).", variadic: true)
        ],
        discussion:
            "Exit 0 when no case failed (with --baseline: none regressed), 1 when one did, 2 on usage or harness error."
    )
    static let matrix = CommandSpec(
        name: "matrix",
        abstract: "Put several runs side by side: clients × cases, a verdict per cell, latency p50 per metric.",
        options: [
            .value("--out", valueName: "DIR", help: "Where matrix.html and matrix.json go.", default: "reports/matrix")
        ],
        positionals: [
            PositionalSpec(
                "run-dir", help: "A run's report folder (index.json), as LABEL=DIR to name its column.",
                variadic: true)
        ],
        discussion: "Exit 0 when the files are written, 2 when a folder has no readable index.json.")
    static let schemaSuite = CommandSpec(
        name: "schema-suite",
        abstract: "Run the official JSON-Schema-Test-Suite (draft 2020-12) against the validator.",
        options: [.flag("--optional", help: "Also run tests/draft2020-12/optional (reported, never required).")],
        positionals: [
            PositionalSpec(
                "suite-dir",
                help:
                    "The suite's folder (with tests/ and remotes/); default: the copy vendored in Tests/JSONSchemaTests.",
                optional: true)
        ])

    static let spec = CommandSpec(
        name: "conformance",
        abstract: "Conformance harness for the multimodal-dialog and Qwen realtime protocols.",
        options: [.flag("--version", help: "Print the version and exit.")],
        subcommands: [list, lint, run, merge, matrix, schemaSuite])

    static let protocols = DialogProtocol.allCases.map(\.rawValue)

    static func main() async {
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        if arguments.subcommand == nil, arguments.flag("--version") {
            printLine("conformance \(HarnessVersion.string)")
            exit(0)
        }
        switch arguments.subcommand {
        case "list": ListCommand.run(arguments)
        case "lint": LintCommand.run(arguments)
        case "run": await RunCommand.run(arguments)
        case "merge": MergeCommand.run(arguments)
        case "matrix": MatrixCommand.run(arguments)
        case "schema-suite": SchemaSuiteCommand.run(arguments)
        default:
            CommandLineRunner.exit(
                with: CommandLineError("missing subcommand", commandPath: ["conformance"]), spec: spec)
        }
    }

    /// Where the suite data (`conformance/`) is: `--root`, `$DIALOGMOCK_ROOT`, the nearest folder
    /// upwards from the current one that holds conformance/suites, or the installed copy beside
    /// the executable (`<prefix>/share/dialogmock`, as `.ci/package` lays it out).
    static func repositoryRoot(_ arguments: ParsedArguments) -> URL {
        if let root = arguments.value("--root") { return URL(fileURLWithPath: root) }
        if let root = ProcessInfo.processInfo.environment["DIALOGMOCK_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        let holdsSuites = { (folder: URL) in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("conformance/suites").path)
        }
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        while folder.path != "/" {
            if holdsSuites(folder) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        let installed = installedRoot
        if holdsSuites(installed) { return installed }
        fail(
            "no conformance/suites folder here or above, nor in \(installed.path); run from the repository or pass --root"
        )
    }

    /// Where an installed package keeps the suite: `<prefix>/share/dialogmock` beside `<prefix>/bin`.
    static var installedRoot: URL {
        URL(fileURLWithPath: ExecutablePath.current ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/dialogmock")
    }

    static func printLine(_ line: String, to descriptor: Int32 = 1) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// A harness error: one line on stderr, exit 2.
    static func fail(_ message: String) -> Never {
        printLine("conformance: \(message)", to: 2)
        exit(2)
    }
}
