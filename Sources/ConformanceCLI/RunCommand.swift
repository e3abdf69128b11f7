import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc
import ProtocolModel

/// `conformance run`: runs the client against the selected cases and writes the reports.
enum RunCommand: AsyncCommand {
    static let protocolOption = ValueOption(
        "--protocol", valueName: "P", help: "\(DialogProtocol.namesText).",
        reader: ValueReader<DialogProtocol>.choice)
    static let client = ValueOption(
        "--client", valueName: "COMMAND", help: "The client, run through /bin/sh -c once per case.")
    static let cases = RepeatedOption(
        "--case", valueName: "GLOB", help: "Select case ids matching GLOB (default: all).")
    static let exclude = RepeatedOption("--exclude", valueName: "GLOB", help: "Leave out case ids matching GLOB.")
    static let strict = FlagOption("--strict", help: "Run strict-only cases; nonStrict verdicts fail the run.")
    static let strictReplay = FlagOption(
        "--strict-replay",
        help:
            "Cases on a recorded scenario fail when the client departs from the recording or leaves recorded frames unused."
    )
    static let report = ValueOption(
        "--report", valueName: "DIR", help: "Report folder (default reports/runs/<client>/<timestamp>/).")
    static let timeout = ValueOption(
        "--timeout-ms", valueName: "N", help: "Per-case timeout, overriding each case's own.",
        reader: .integer(in: 1...3_600_000))
    static let jobs = ValueOption(
        "--jobs", valueName: "N",
        help: "Cases run at once (default: 2 per core, at most 8; here \(RunConfiguration.defaultJobs)).",
        reader: .integer(in: 1...64))
    static let repeatCount = DefaultedOption(
        "--repeat", valueName: "N",
        help:
            "Run each case N times: reports give pass rates and latency spreads, and mark cases whose verdict changes flaky.",
        default: 1, reader: .integer(in: 1...100))
    static let freshClient = FlagOption(
        "--fresh-client",
        help: "Start the client anew for every case, even when its announce line offers reuse (\"reusable\": true).")
    static let timeScale = ValueOption(
        "--time-scale", valueName: "X",
        help: "Multiply the mock's policy timeouts (20 s audio gap, 60 s idle, session caps) by X, e.g. 0.01.",
        reader: .number(in: 0.000_001...1000))
    static let budget = RepeatedOption(
        "--budget", valueName: "METRIC=VALUE",
        help:
            "Fail a case whose reaction takes longer, e.g. bargeIn.speechStarted.cancel=250ms (none drops the suite's)."
    )
    static let shard = ValueOption(
        "--shard", valueName: "K/N", help: "Run the K-th of N slices of the selection (CI matrices).",
        reader: ValueReader<(index: Int, count: Int)>(
            expected: "K/N with 1 ≤ K ≤ N", describe: { "\($0.index)/\($0.count)" }
        ) { text in
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { return nil }
            return (index: parts[0], count: parts[1])
        })
    static let model = DefaultedOption(
        "--model", valueName: "MODEL",
        help:
            "Qwen realtime model in MOCK_URL and MOCK_MODEL (Qwen-Audio-Live: used when it is a live model, else qwen-audio-3.1-live).",
        default: RunConfiguration(protocolName: "", clientCommand: "", repositoryRoot: URL(fileURLWithPath: "/")).model,
        reader: .text)
    static let baseline = ValueOption(
        "--baseline", valueName: "FILE",
        help:
            "A previous run's index.json: the run fails only on regressions against it (exit 1), not on known findings."
    )
    static let configuration = CommandConfiguration(
        name: "run", abstract: "Run a client command against every selected case and write the reports.",
        options: [
            protocolOption, client, cases, exclude, strict, strictReplay, report, timeout, jobs, repeatCount,
            freshClient, timeScale, budget, shard, model, baseline, ConformanceCommand.root,
        ],
        discussion: """
            Exit 0 when no case failed (with --baseline: no case regressed), 1 when one did, 2 on usage
            or harness error, or when no case is selected. Stderr ends with a recap: the verdict
            counts and each broken obligation with its cases and first evidence; with
            GITHUB_ACTIONS=true an ::error / ::warning annotation per obligation follows. With
            $GITHUB_STEP_SUMMARY set, a Markdown summary is appended to that file.
            """)

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let root = try ConformanceCommand.repositoryRoot(arguments)
        var configuration = try runConfiguration(arguments, root: root)
        configuration.progress = { line in ConformanceCommand.printLine(line, to: 2) }
        // The baseline is read before the run: a bad file is a usage error, not a lost run.
        let baselineReport = RunVerdict.baseline(try arguments.value(of: baseline))
        do {
            let outcome = try await ConformanceRunner(configuration: configuration).run()
            RunVerdict.printRecap(outcome.report)
            RunVerdict.finish(
                outcome.report, directory: outcome.directory, baseline: baselineReport, strict: configuration.strict,
                label: "conformance")
        } catch {
            ConformanceCommand.fail(error.description)
        }
    }

    /// The run the options describe, checked.
    static func runConfiguration(_ arguments: ParsedArguments, root: URL) throws(CommandLineError) -> RunConfiguration {
        guard let protocolName = try arguments.value(of: protocolOption) else {
            throw CommandLineError(
                "--protocol is required (\(DialogProtocol.namesText))", commandPath: ["conformance", "run"])
        }
        guard let clientCommand = try arguments.value(of: client), !clientCommand.isEmpty else {
            throw CommandLineError(
                "--client is required: the command that runs your client", commandPath: ["conformance", "run"])
        }
        var configuration = RunConfiguration(
            protocolName: protocolName.rawValue, clientCommand: clientCommand, repositoryRoot: root)
        configuration.includes = try arguments.value(of: cases)
        configuration.excludes = try arguments.value(of: exclude)
        configuration.strict = arguments.value(of: strict)
        configuration.strictReplay = arguments.value(of: strictReplay)
        configuration.reportDirectory = try arguments.value(of: report).map { URL(fileURLWithPath: $0) }
        if root.standardizedFileURL.path == ConformanceCommand.installedRoot.standardizedFileURL.path {
            // The installed suite (/usr/share/dialogmock) is not the user's folder: clients
            // start in the current folder, and the default report folder is below it.
            let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            configuration.reportsBase = here
            configuration.clientWorkingDirectory = here
        }
        configuration.timeoutMs = try arguments.value(of: timeout)
        configuration.jobs = try arguments.value(of: jobs) ?? RunConfiguration.defaultJobs
        configuration.repeatCount = try arguments.value(of: repeatCount)
        configuration.reuseAdapters = !arguments.value(of: freshClient)
        configuration.timeScale = try arguments.value(of: timeScale)
        configuration.model = try arguments.value(of: model)
        configuration.budgets = try arguments.value(of: budget)
        do throws(LatencyBudgetError) {
            var budgets = LatencyBudgets()
            try budgets.apply(commandLine: configuration.budgets)
        } catch {
            throw CommandLineError(error.description, commandPath: ["conformance", "run"])
        }
        configuration.shard = try arguments.value(of: shard)
        return configuration
    }
}
