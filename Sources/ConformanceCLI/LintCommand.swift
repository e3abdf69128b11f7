import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance lint`: every rule of `SuiteLinter`; `FILE:LINE:COLUMN: message` per problem.
enum LintCommand: AsyncCommand {
    static let configuration = CommandConfiguration(
        name: "lint",
        abstract: "Check every suite, case, example and scenario reference; print FILE:LINE:COLUMN: message.",
        options: [ConformanceCommand.root])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let root = try ConformanceCommand.repositoryRoot(arguments)
        let files: SuiteFiles
        do {
            files = try SuiteDirectoryReader.read(root: root)
        } catch {
            ConformanceCommand.fail("cannot read \(root.path)/conformance: \(error)")
        }
        let diagnostics = SuiteLinter(files: files).lint()
        for diagnostic in diagnostics { ConformanceCommand.printLine(diagnostic.description, to: 2) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        ConformanceCommand.printLine(
            "lint: \(errors) error\(errors == 1 ? "" : "s"), \(diagnostics.count - errors) note\(diagnostics.count - errors == 1 ? "" : "s")"
        )
        exit(errors == 0 ? 0 : 1)
    }
}
