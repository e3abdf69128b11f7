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

    /// At most this many runs at once, whichever suites they come from. The suites that run
    /// clients through the whole harness are not `.serialized`: one run after another per suite
    /// left most of the 2 cores idle while cases waited in real time (139 s for 49 CPU-s; 8 at
    /// once: 55-58 s for 43 CPU-s); this bound keeps the load bounded instead. Whole-suite runs
    /// (no `cases`), the longest, go first, so that none of them is left for the end.
    static let slots = RunSlots(width: 8)

    static func run(
        protocolName: String, client: String, cases: [String] = [], jobs: Int = 2, timeoutMs: Int? = nil,
        budgets: [String] = []
    ) async throws -> Result {
        await slots.acquire(first: cases.isEmpty)
        do {
            let result = try await runNow(
                protocolName: protocolName, client: client, cases: cases, jobs: jobs, timeoutMs: timeoutMs,
                budgets: budgets)
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    private static func runNow(
        protocolName: String, client: String, cases: [String], jobs: Int, timeoutMs: Int?, budgets: [String]
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

/// A counting semaphore for async code: `acquire` waits while `width` holders are in, first
/// come, first served (`first`: ahead of those that are not).
actor RunSlots {
    private var free: Int
    private var waiting: [(first: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(width: Int) { free = width }

    func acquire(first: Bool = false) async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { continuation in
            let place = first ? (waiting.firstIndex { !$0.first } ?? waiting.endIndex) : waiting.endIndex
            waiting.insert((first, continuation), at: place)
        }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }
}
