import ConformanceChecks
import ConformanceReports
import Testing
import WireJSON

/// A run against a previous run's index.json, and the step summary that shows it.
@Suite struct BaselineComparisonTests {
    /// A baseline index.json: `cases` as (id, verdict, failedChecks).
    static func baseline(_ cases: [(String, String, [String])]) -> JSONValue {
        [
            "cases": .array(
                cases.map {
                    ["id": .string($0.0), "verdict": .string($0.1), "failedChecks": .array($0.2.map(JSONValue.string))]
                })
        ]
    }

    @Test func theSameRunHasNoChange() throws {
        let report = try ReportFixtures.run()
        let comparison = BaselineComparison.compare(report, baseline: IndexWriter.json(report))
        #expect(!comparison.hasRegressions)
        #expect(comparison.improvements.isEmpty && comparison.newCases.isEmpty && comparison.missingCases.isEmpty)
        #expect(comparison.text == "no change vs the baseline")
    }

    /// Compared with a baseline, only a regression to (or a new case with) a verdict that fails
    /// the run fails it: pass → nonStrict does not without --strict.
    @Test func theExitCodeFollowsFailingRegressionsOnly() throws {
        var report = try ReportFixtures.run()
        report.evaluations.removeAll { $0.verdict == .error }  // a harness error is exit 2 whatever the baseline
        let withError = try ReportFixtures.run()
        #expect(
            withError.exitCode(
                strict: false, baseline: BaselineComparison.compare(withError, baseline: IndexWriter.json(withError)))
                == 2)
        let nonStrictOnly = BaselineComparison.compare(
            report, baseline: IndexWriter.json(report).replacingVerdict(of: "qrt.session.002", with: "pass"))
        #expect(nonStrictOnly.hasRegressions)
        #expect(report.exitCode(strict: false, baseline: nonStrictOnly) == 0)
        #expect(report.exitCode(strict: true, baseline: nonStrictOnly) == 1)
        let failing = report.evaluations.filter { $0.verdict == .fail }.map(\.caseID)
        try #require(!failing.isEmpty)
        // The failing cases are new to a baseline that does not list them: the run fails.
        let withoutThem = BaselineComparison.compare(report, baseline: IndexWriter.json(report).removingCases(failing))
        #expect(report.exitCode(strict: false, baseline: withoutThem) == 1)
        // The same run against itself: known findings pass.
        #expect(
            report.exitCode(
                strict: false, baseline: BaselineComparison.compare(report, baseline: IndexWriter.json(report))) == 0)
    }

    @Test func worseVerdictsNewFailuresAndNewObligationsRegress() throws {
        let report = try ReportFixtures.run()
        let comparison = BaselineComparison.compare(
            report,
            baseline: Self.baseline([
                ("qrt.session.001", "fail", ["qrt.C2"]),  // fail → pass: improved
                ("qrt.tools.001", "fail", ["qrt.C11"]),  // still fail, now also qrt.C13: regression
                ("qrt.session.002", "pass", []),  // pass → nonStrict: regression
                ("qrt.session.003", "pass", []),  // pass → informational: no change
                ("qrt.audio.001", "nonStrict", ["qrt.C7"]),  // nonStrict → unimplemented: regression
                ("qrt.audio.002", "fail", ["qrt.C1"]),  // fail → error: neither
                ("qrt.gone.001", "pass", []),  // not in the run: missing
                ("qrt.skip.001", "skipped", []),  // not judged then: ignored
            ]))
        #expect(comparison.regressions.map(\.caseID) == ["qrt.tools.001", "qrt.session.002", "qrt.audio.001"])
        #expect(comparison.regressions[0].newFailedChecks == ["qrt.C13"])
        #expect(comparison.improvements.map(\.caseID) == ["qrt.session.001"])
        #expect(comparison.missingCases == ["qrt.gone.001"])
        #expect(comparison.newCases.isEmpty)
        #expect(comparison.hasRegressions)
        let lines = comparison.text.split(separator: "\n").map(String.init)
        #expect(
            lines[0]
                == "REGRESSION qrt.tools.001: fail → fail new findings qrt.C13 (qrt.C11: no function_call_output for call c1)"
        )
        #expect(
            lines[1]
                == "REGRESSION qrt.session.002: pass → nonStrict new findings qrt.C7 (qrt.C7: session.update resends voice: null)"
        )
        #expect(lines.contains("improved qrt.session.001: fail → pass"))
        #expect(lines.last == "missing vs the baseline: qrt.gone.001")
    }

    @Test func failingAfterAHarnessErrorRegressesAndNewCasesAreListed() throws {
        let report = try ReportFixtures.run()
        let comparison = BaselineComparison.compare(report, baseline: Self.baseline([("qrt.tools.001", "error", [])]))
        #expect(comparison.regressions.map(\.caseID) == ["qrt.tools.001"])
        #expect(
            comparison.newCases == [
                "qrt.session.001", "qrt.session.002", "qrt.session.003", "qrt.audio.001", "qrt.audio.002",
            ])
    }

    @Test func theStepSummaryListsFailuresAndRegressions() throws {
        let report = try ReportFixtures.run()
        let comparison = BaselineComparison.compare(report, baseline: Self.baseline([("qrt.session.002", "pass", [])]))
        let markdown = SummaryWriter.stepSummary(report, baseline: comparison, reportLocation: "reports/runs/x/1")
        #expect(markdown.hasPrefix("### ❌ Conformance: qwen-realtime\n"))
        #expect(
            markdown.contains("**1 fail** · **1 error** · 1 nonStrict · 1 unimplemented · 1 informational · 1 pass"))
        #expect(
            markdown.contains("| `qrt.tools.001` | fail | qrt.C11 | qrt.C11: no function_call_output for call c1 |"))
        #expect(markdown.contains("| `qrt.audio.002` | error | — | port in use |"))
        #expect(markdown.contains("| `qrt.session.002` | nonStrict | — | qrt.C7: session.update resends voice: null |"))
        #expect(
            markdown.contains("**1 regression vs the baseline**\n\n- `qrt.session.002`: pass → nonStrict (new: qrt.C7)")
        )
        #expect(markdown.contains("Full report: `reports/runs/x/1`"))
        let clean = SummaryWriter.stepSummary(
            RunReport(
                protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started,
                evaluations: [report.evaluations[0]]), baseline: nil)
        #expect(clean.hasPrefix("### ✅"))
        #expect(!clean.contains("| case |"))
    }
}

extension JSONValue {
    /// An index.json with one case's verdict replaced.
    fileprivate func replacingVerdict(of id: String, with verdict: String) -> JSONValue {
        guard case .object(var object) = self, let cases = object["cases"]?.arrayValue else { return self }
        object["cases"] = .array(
            cases.map { entry in
                guard entry["id"]?.stringValue == id, case .object(var fields) = entry else { return entry }
                fields["verdict"] = .string(verdict)
                fields["failedChecks"] = []
                return .object(fields)
            })
        return .object(object)
    }

    /// An index.json without these cases.
    fileprivate func removingCases(_ ids: [String]) -> JSONValue {
        guard case .object(var object) = self, let cases = object["cases"]?.arrayValue else { return self }
        object["cases"] = .array(cases.filter { !ids.contains($0["id"]?.stringValue ?? "") })
        return .object(object)
    }
}
