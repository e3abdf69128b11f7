import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance run`: runs the client against the selected cases and writes the reports.
enum RunCommand {
    static func run(_ arguments: ParsedArguments) async -> Never {
        let root = ConformanceCommand.repositoryRoot(arguments)
        var configuration = CommandLineRunner.valueOrExit(spec: ConformanceCommand.spec) {
            () throws -> RunConfiguration in
            guard let protocolName = try arguments.choice("--protocol", among: ConformanceCommand.protocols) else {
                throw CommandLineError(
                    "--protocol is required (multimodal-dialog or qwen-realtime)", commandPath: ["conformance", "run"])
            }
            guard let client = arguments.value("--client"), !client.isEmpty else {
                throw CommandLineError(
                    "--client is required: the command that runs your client", commandPath: ["conformance", "run"])
            }
            var configuration = RunConfiguration(
                protocolName: protocolName, clientCommand: client, repositoryRoot: root)
            configuration.includes = arguments.values("--case")
            configuration.excludes = arguments.values("--exclude")
            configuration.strict = arguments.flag("--strict")
            configuration.strictReplay = arguments.flag("--strict-replay")
            configuration.reportDirectory = arguments.value("--report").map { URL(fileURLWithPath: $0) }
            if root.standardizedFileURL.path == ConformanceCommand.installedRoot.standardizedFileURL.path {
                // The installed suite (/usr/share/dialogmock) is not the user's folder: clients
                // start in the current folder, and the default report folder is below it.
                let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                configuration.reportsBase = here
                configuration.clientWorkingDirectory = here
            }
            configuration.timeoutMs = try arguments.int("--timeout-ms", range: 1...3_600_000)
            configuration.jobs = try arguments.int("--jobs", range: 1...64) ?? RunConfiguration.defaultJobs
            configuration.repeatCount = try arguments.int("--repeat", range: 1...100) ?? 1
            configuration.reuseAdapters = !arguments.flag("--fresh-client")
            configuration.timeScale = try arguments.double("--time-scale", range: 0.000_001...1000)
            configuration.model = arguments.value("--model") ?? configuration.model
            configuration.budgets = arguments.values("--budget")
            do throws(LatencyBudgetError) {
                var budgets = LatencyBudgets()
                try budgets.apply(commandLine: configuration.budgets)
            } catch {
                throw CommandLineError(error.description, commandPath: ["conformance", "run"])
            }
            if let shard = arguments.value("--shard") {
                let parts = shard.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                    throw CommandLineError(
                        "--shard: expected K/N with 1 ≤ K ≤ N, got '\(shard)'", commandPath: ["conformance", "run"])
                }
                configuration.shard = (parts[0], parts[1])
            }
            return configuration
        }
        configuration.progress = { line in ConformanceCommand.printLine(line, to: 2) }
        // The baseline is read before the run: a bad file is a usage error, not a lost run.
        let baseline = RunVerdict.baseline(arguments.value("--baseline"))
        do {
            let outcome = try await ConformanceRunner(configuration: configuration).run()
            RunVerdict.printRecap(outcome.report)
            RunVerdict.finish(
                outcome.report, directory: outcome.directory, baseline: baseline, strict: configuration.strict,
                label: "conformance")
        } catch {
            ConformanceCommand.fail(error.description)
        }
    }
}
