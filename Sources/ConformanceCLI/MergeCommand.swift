import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance merge --report OUT DIR...`: joins the report folders of `conformance run
/// --shard K/N` runs into one, as an unsharded run would have written it (``ReportMerger``);
/// the suite under the repository root gives the case order, titles and sections.
enum MergeCommand {
    static func run(_ arguments: ParsedArguments) -> Never {
        let folders = arguments.positionals("report-dir").map { URL(fileURLWithPath: $0) }
        guard let output = arguments.value("--report"), !output.isEmpty else {
            CommandLineRunner.exit(
                with: CommandLineError(
                    "--report is required: the folder to write the merged report to",
                    commandPath: ["conformance", "merge"]), spec: ConformanceCommand.spec)
        }
        guard let first = folders.first else {
            CommandLineRunner.exit(
                with: CommandLineError("expected at least one report folder", commandPath: ["conformance", "merge"]),
                spec: ConformanceCommand.spec)
        }
        let root = ConformanceCommand.repositoryRoot(arguments)
        do {
            let protocolName = try ReportMerger.protocolName(of: first)
            let loader = SuiteLoader(files: try SuiteDirectoryReader.read(root: root))
            guard let suite = loader.load(protocolName: protocolName).suite else {
                ConformanceCommand.fail("suite \(protocolName) does not load from \(root.path); run conformance lint")
            }
            let directory = URL(fileURLWithPath: output)
            let baseline = RunVerdict.baseline(arguments.value("--baseline"))
            let report = try ReportMerger.write(
                folders, to: directory, suite: suite, strict: arguments.flag("--strict") ? true : nil)
            RunVerdict.finish(
                report, directory: directory, baseline: baseline, strict: report.strict,
                label: "conformance merge: \(folders.count) folders")
        } catch let failure as ReportMerger.Failure {
            ConformanceCommand.fail("merge: \(failure.description)")
        } catch {
            ConformanceCommand.fail("merge: cannot read \(root.path)/conformance: \(error)")
        }
    }
}
