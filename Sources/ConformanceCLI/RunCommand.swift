import CLISupport
import ConformanceHarness
import ConformanceReports
import Foundation
import Glibc

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
        do {
            let outcome = try await ConformanceRunner(configuration: configuration).run()
            let summary = outcome.report.summary.sorted { $0.key < $1.key }.filter { $0.value > 0 }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            ConformanceCommand.printLine("conformance: \(summary); report in \(outcome.directory.path)")
            exit(outcome.report.exitCode(strict: configuration.strict))
        } catch {
            ConformanceCommand.fail(error.description)
        }
    }
}
