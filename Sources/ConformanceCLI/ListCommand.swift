import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance list`: id, level, obligations and title of every selected case, then the
/// obligations' sources (`[sources mmd.C3: DOC-MMWS, PY-MMP]`).
enum ListCommand {
    static func run(_ arguments: ParsedArguments) -> Never {
        let root = ConformanceCommand.repositoryRoot(arguments)
        let protocols = CommandLineRunner.valueOrExit(spec: ConformanceCommand.spec) {
            try arguments.choice("--protocol", among: ConformanceCommand.protocols).map { [$0] }
                ?? ConformanceCommand.protocols
        }
        let loader: SuiteLoader
        do {
            loader = SuiteLoader(files: try SuiteDirectoryReader.read(root: root))
        } catch {
            ConformanceCommand.fail("cannot read \(root.path)/conformance: \(error)")
        }
        var count = 0
        for name in protocols {
            guard let suite = loader.load(protocolName: name).suite else {
                ConformanceCommand.fail("suite \(name) does not load; run conformance lint")
            }
            let (selected, _) = CaseSelector.select(
                suite.cases.flatMap { $0.expanded() }, includes: arguments.values("--case"),
                excludes: [], shard: nil)
            for conformanceCase in selected {
                let sources = suite.definition.sourcesText(of: conformanceCase.obligations)
                let flags =
                    (conformanceCase.needsDriving ? " [driven]" : "") + (conformanceCase.strict ? " [strict]" : "")
                    + (conformanceCase.status == .retired ? " [retired]" : "")
                ConformanceCommand.printLine(
                    "\(conformanceCase.id)\t\(conformanceCase.spec.level.rawValue)\t"
                        + "\(conformanceCase.obligations.joined(separator: ","))\t\(conformanceCase.title)\(flags)"
                        + (sources.isEmpty ? "" : "\t[sources \(sources)]"))
                count += 1
            }
        }
        ConformanceCommand.printLine("\(count) cases")
        exit(0)
    }
}
