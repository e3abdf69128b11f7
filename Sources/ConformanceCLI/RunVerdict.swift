import ConformanceChecks
import ConformanceReports
import FoundationEssentials
import Glibc
import WireJSON

/// How `run` and `merge` end: the recap on stderr (`run` only: a merge's shards had theirs), the
/// one-line summary, the comparison with a `--baseline`, the `$GITHUB_STEP_SUMMARY` Markdown,
/// and the exit code (0 no case failed — with a baseline: none regressed —, 1 one did, 2 a
/// harness error).
enum RunVerdict {
    /// The `--baseline` file (a previous run's index.json), or nil; a bad file exits 2 at once.
    static func baseline(_ path: String?) -> JSONValue? {
        guard let path else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue.decode(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        } catch let error as JSONDecodeError {
            ConformanceCommand.fail("--baseline \(path):\(error.line):\(error.column): \(error.message)")
        } catch {
            ConformanceCommand.fail("--baseline \(path): cannot read it: \(fileErrorText(error))")
        }
        guard value["cases"]?.arrayValue != nil else {
            ConformanceCommand.fail("--baseline \(path): not a run's index.json (no \"cases\" array)")
        }
        return value
    }

    static func finish(_ report: RunReport, directory: URL, baseline: JSONValue?, strict: Bool, label: String) -> Never
    {
        ConformanceCommand.printLine("\(label): \(RunRecap.counts(report)); report in \(directory.path)")
        let comparison = baseline.map { BaselineComparison.compare(report, baseline: $0) }
        if let comparison { ConformanceCommand.printLine(comparison.text) }
        writeStepSummary(report, directory: directory, comparison)
        // Compared with a baseline, known findings do not fail the run; failing regressions do.
        exit(report.exitCode(strict: strict, baseline: comparison))
    }

    /// The recap block on stderr after the per-case lines (``RunRecap``), then, in GitHub
    /// Actions (`GITHUB_ACTIONS=true`), its obligations as annotations.
    static func printRecap(_ report: RunReport) {
        ConformanceCommand.printLine(RunRecap.text(report), to: 2)
        guard ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" else { return }
        let annotations = RunRecap.githubAnnotations(report)
        if !annotations.isEmpty { ConformanceCommand.printLine(annotations.joined(separator: "\n"), to: 2) }
    }

    /// Appends the run's Markdown summary to `$GITHUB_STEP_SUMMARY` (GitHub Actions' job summary).
    private static func writeStepSummary(_ report: RunReport, directory: URL, _ comparison: BaselineComparison?) {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let text = SummaryWriter.stepSummary(report, baseline: comparison, reportLocation: directory.path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            ConformanceCommand.printLine("conformance: cannot write GITHUB_STEP_SUMMARY \(path)", to: 2)
            return
        }
        var summary = text
        summary.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
        close(descriptor)
    }
}
