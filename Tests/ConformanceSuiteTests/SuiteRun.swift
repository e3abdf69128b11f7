import CLISupport
import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation

/// Runs `conformance run` in-process for a client command and returns the verdicts.
enum SuiteRun {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The built adapter next to the test bundle (`.build/<config>/dialogmock-adapter`).
    static var adapter: String { ExecutablePath.sibling("dialogmock-adapter") ?? "dialogmock-adapter" }

    struct Result {
        let outcome: ConformanceRunner.Outcome
        /// Case id → verdict (`pass`, `fail`, …).
        let verdicts: [String: String]
        /// Case id → obligation ids of the failed checks, without those marked as consequences.
        let failed: [String: [String]]
        /// Case id → kinds of the checks behind `failed` (`audioFormat`, `audioPacing`, …).
        let failedKinds: [String: Set<String>]

        /// "id: verdict (failed: …) — first failing actual" lines for cases not passing, for messages.
        var problems: [String] {
            outcome.report.evaluations.filter { !["pass", "skipped"].contains($0.verdict.rawValue) }.map { evaluation in
                let first = evaluation.checks.first { $0.verdict != .pass }
                return
                    "\(evaluation.caseID): \(evaluation.verdict.rawValue) \(first.map { "[\($0.obligation)] \($0.actual)" } ?? evaluation.reason ?? "")"
            }
        }
    }

    static func run(
        protocolName: String, client: String, cases: [String] = [], jobs: Int = 2, timeoutMs: Int? = nil,
        budgets: [String] = []
    ) async throws -> Result {
        var configuration = RunConfiguration(protocolName: protocolName, clientCommand: client, repositoryRoot: root)
        configuration.includes = cases
        configuration.budgets = budgets
        configuration.jobs = jobs
        configuration.timeoutMs = timeoutMs
        configuration.reportDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "suite-\(UUID().uuidString)")
        configuration.progress = { _ in }
        let outcome = try await ConformanceRunner(configuration: configuration).run()
        try? FileManager.default.removeItem(at: outcome.directory)
        var verdicts: [String: String] = [:]
        var failed: [String: [String]] = [:]
        var failedKinds: [String: Set<String>] = [:]
        for evaluation in outcome.report.evaluations {
            verdicts[evaluation.caseID] = evaluation.verdict.rawValue
            let findings = evaluation.checks.filter {
                ($0.verdict == .fail || $0.verdict == .nonStrict) && $0.consequenceOf == nil
            }
            failed[evaluation.caseID] = findings.map(\.obligation)
            failedKinds[evaluation.caseID] = Set(findings.map(\.kind))
        }
        return Result(outcome: outcome, verdicts: verdicts, failed: failed, failedKinds: failedKinds)
    }
}
