import CLISupport
import ConformanceHarness
import FoundationEssentials
import Glibc
import ProtocolModel

/// `conformance`: the conformance harness (reports/README.md).
@main
enum ConformanceCommand: AsyncCommand {
    /// `--root`, shared by the subcommands that read the suite.
    static let root = ValueOption(
        "--root", valueName: "DIR",
        help: "Repository root holding conformance/ (default: found upwards from the current folder).")
    static let version = FlagOption("--version", help: "Print the version and exit.")
    static let configuration = CommandConfiguration(
        name: "conformance",
        abstract: "Conformance harness for the multimodal-dialog, Qwen realtime and Qwen-Audio-Live protocols.",
        options: [version])
    static var subcommands: [any AsyncCommand.Type] {
        [
            ListCommand.self, LintCommand.self, RunCommand.self, MergeCommand.self, MatrixCommand.self,
            SchemaSuiteCommand.self,
        ]
    }

    /// `conformance --version` (the parser asks for a subcommand otherwise).
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        printLine("conformance \(HarnessVersion.string)")
        return 0
    }

    /// Where the suite data (`conformance/`) is: `--root`, `$DIALOGMOCK_ROOT`, the nearest folder
    /// upwards from the current one that holds conformance/suites, or the installed copy beside
    /// the executable (`<prefix>/share/dialogmock`, as `.ci/package` lays it out).
    static func repositoryRoot(_ arguments: ParsedArguments) throws(CommandLineError) -> URL {
        if let root = try arguments.value(of: root) { return URL(fileURLWithPath: root) }
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
