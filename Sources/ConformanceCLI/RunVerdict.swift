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
    /// A `--baseline` file: a previous run's index.json, and the path as the user gave it.
    struct Baseline {
        var document: JSONValue
        var file: String
    }

    /// The `--baseline` file (a previous run's index.json), or nil; a bad file exits 2 at once.
    static func baseline(_ path: String?) -> Baseline? {
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
        return Baseline(document: value, file: path)
    }

    static func finish(_ report: RunReport, directory: URL, baseline: Baseline?, strict: Bool, label: String) -> Never {
        ConformanceCommand.printLine("\(label): \(RunRecap.counts(report)); report in \(directory.path)")
        var report = report
        if let baseline {
            var comparison = BaselineComparison.compare(report, baseline: baseline.document)
            comparison.file = baseline.file
            report.baseline = comparison
            ConformanceCommand.printLine(comparison.text)
            // index.json and report.html show the comparison too (the folder was written before it).
            do {
                try ReportFolderWriter.writeBaselineFiles(report, to: directory)
            } catch {
                ConformanceCommand.printLine(
                    "conformance: cannot add the baseline comparison to \(directory.path): \(fileErrorText(error))",
                    to: 2)
            }
        }
        let comparison = report.baseline
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
