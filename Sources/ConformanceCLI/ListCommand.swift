import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc
import ProtocolModel

/// `conformance list`: id, level, obligations and title of every selected case, then the
/// obligations' sources (`[sources mmd.C3: DOC-MMWS, PY-MMP]`).
enum ListCommand: AsyncCommand {
    static let protocolOption = ValueOption(
        "--protocol", valueName: "P", help: "\(DialogProtocol.namesText) (default: all).",
        reader: ValueReader<DialogProtocol>.choice)
    static let cases = RepeatedOption("--case", valueName: "GLOB", help: "Select case ids matching GLOB.")
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List the cases (a dry run of the selection).",
        options: [protocolOption, cases, ConformanceCommand.root])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let root = try ConformanceCommand.repositoryRoot(arguments)
        let protocols =
            try arguments.value(of: protocolOption).map { [$0.rawValue] }
            ?? DialogProtocol.allCases.map(\.rawValue)
        let includes = try arguments.value(of: cases)
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
                suite.cases.flatMap { $0.expanded() }, includes: includes,
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
