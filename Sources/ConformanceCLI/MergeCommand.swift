import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance merge --report OUT DIR...`: joins the report folders of `conformance run
/// --shard K/N` runs into one, as an unsharded run would have written it (``ReportMerger``);
/// the suite under the repository root gives the case order, titles and sections.
enum MergeCommand: AsyncCommand {
    static let report = ValueOption(
        "--report", valueName: "DIR", help: "The merged report folder (created; its files are replaced).")
    static let strict = FlagOption("--strict", help: "nonStrict verdicts fail the merged run, as with run --strict.")
    static let baseline = ValueOption(
        "--baseline", valueName: "FILE", help: "A previous run's index.json: fail only on regressions against it.")
    static let configuration = CommandConfiguration(
        name: "merge", abstract: "Join the report folders of --shard runs into one report folder.",
        options: [report, strict, baseline, ConformanceCommand.root],
        positionals: [
            PositionalSpec("report-dir", help: "A shard's report folder (index.json and cases/).", variadic: true)
        ],
        discussion:
            "Exit 0 when no case failed (with --baseline: none regressed), 1 when one did, 2 on usage or harness error."
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let folders = arguments.positionals("report-dir").map { URL(fileURLWithPath: $0) }
        guard let output = try arguments.value(of: report), !output.isEmpty else {
            throw CommandLineError(
                "--report is required: the folder to write the merged report to", commandPath: ["conformance", "merge"])
        }
        guard let first = folders.first else {
            throw CommandLineError("expected at least one report folder", commandPath: ["conformance", "merge"])
        }
        let root = try ConformanceCommand.repositoryRoot(arguments)
        let baselineFile = try arguments.value(of: baseline)
        do {
            let protocolName = try ReportMerger.protocolName(of: first)
            let loader = SuiteLoader(files: try SuiteDirectoryReader.read(root: root))
            guard let suite = loader.load(protocolName: protocolName).suite else {
                ConformanceCommand.fail("suite \(protocolName) does not load from \(root.path); run conformance lint")
            }
            let directory = URL(fileURLWithPath: output)
            let baseline = RunVerdict.baseline(baselineFile)
            let report = try ReportMerger.write(
                folders, to: directory, suite: suite, strict: arguments.value(of: strict) ? true : nil)
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
