import CLISupport
import ConformanceHarness
import ConformanceReports
import Foundation
import Glibc
import WireJSON

/// `conformance run`: runs the client against the selected cases and writes the reports.
enum RunCommand {
    static func run(_ arguments: ParsedArguments) async -> Never {
        let root = ConformanceCommand.repositoryRoot(arguments)
        var configuration = CommandLineRunner.valueOrExit(spec: ConformanceCommand.spec) { () throws -> RunConfiguration in
            guard let protocolName = try arguments.choice("--protocol", among: ConformanceCommand.protocols) else {
                throw CommandLineError("--protocol is required (multimodal-dialog or qwen-realtime)", commandPath: ["conformance", "run"])
            }
            guard let client = arguments.value("--client"), !client.isEmpty else {
                throw CommandLineError("--client is required: the command that runs your client", commandPath: ["conformance", "run"])
            }
            var configuration = RunConfiguration(protocolName: protocolName, clientCommand: client, repositoryRoot: root)
            configuration.includes = arguments.values("--case")
            configuration.excludes = arguments.values("--exclude")
            configuration.strict = arguments.flag("--strict")
            configuration.reportDirectory = arguments.value("--report").map { URL(fileURLWithPath: $0) }
            configuration.timeoutMs = try arguments.int("--timeout-ms", range: 1...3_600_000)
            configuration.jobs = try arguments.int("--jobs", range: 1...64) ?? 1
            configuration.timeScale = try arguments.double("--time-scale", range: 0.000_001...1000)
            configuration.model = arguments.value("--model") ?? configuration.model
            if let shard = arguments.value("--shard") {
                let parts = shard.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                    throw CommandLineError("--shard: expected K/N with 1 ≤ K ≤ N, got '\(shard)'", commandPath: ["conformance", "run"])
                }
                configuration.shard = (parts[0], parts[1])
            }
            return configuration
        }
        configuration.progress = { line in ConformanceCommand.printLine(line, to: 2) }
        // The baseline is read before the run: a bad file is a usage error, not a lost run.
        let baseline: JSONValue? = arguments.value("--baseline").map { path in
            do {
                return try JSONValue.decode(Array(Data(contentsOf: URL(fileURLWithPath: path))))
            } catch let error as JSONDecodeError {
                ConformanceCommand.fail("--baseline \(path):\(error.line):\(error.column): \(error.message)")
            } catch {
                ConformanceCommand.fail("--baseline \(path): cannot read it: \(error.localizedDescription)")
            }
        }
        if let baseline, baseline["cases"]?.arrayValue == nil {
            ConformanceCommand.fail("--baseline \(arguments.value("--baseline") ?? ""): not a run's index.json (no \"cases\" array)")
        }
        do {
            let outcome = try await ConformanceRunner(configuration: configuration).run()
            let summary = outcome.report.summary.sorted { $0.key < $1.key }.filter { $0.value > 0 }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            ConformanceCommand.printLine("conformance: \(summary); report in \(outcome.directory.path)")
            let comparison = baseline.map { BaselineComparison.compare(outcome.report, baseline: $0) }
            if let comparison {
                ConformanceCommand.printLine(comparison.text)
            }
            writeStepSummary(outcome, comparison)
            var code = outcome.report.exitCode(strict: configuration.strict)
            if let comparison, code == 1 {
                // Known findings do not fail a run compared with its baseline; regressions do.
                code = comparison.hasRegressions ? 1 : 0
            } else if let comparison, code == 0, comparison.hasRegressions {
                code = 1
            }
            exit(code)
        } catch {
            ConformanceCommand.fail(error.description)
        }
    }

    /// Appends the run's Markdown summary to `$GITHUB_STEP_SUMMARY` (GitHub Actions' job summary).
    private static func writeStepSummary(_ outcome: ConformanceRunner.Outcome, _ comparison: BaselineComparison?) {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let text = SummaryWriter.stepSummary(outcome.report, baseline: comparison, reportLocation: outcome.directory.path)
        guard let handle = FileHandle(forWritingAtPath: path) ?? (FileManager.default.createFile(atPath: path, contents: nil)
            ? FileHandle(forWritingAtPath: path) : nil) else {
            ConformanceCommand.printLine("conformance: cannot write GITHUB_STEP_SUMMARY \(path)", to: 2)
            return
        }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try? handle.close()
    }
}
