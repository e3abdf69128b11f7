import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import Testing
import WireJSON

/// Adapters that announce `"reusable": true` serve case after case in one process
/// (conformance/README.md, "Reusable adapters"), judged exactly as one process per case.
@Suite("Reusable adapters")
struct ReusableAdapterTests {
    /// A client command that logs one line per process start to `log`, then runs `command`.
    static func counting(_ command: String, log: URL) -> String {
        #"echo "$MOCK_CASE_ID" >> '\#(log.path)'; "# + command
    }

    static func starts(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func temporaryLog() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("starts-\(UUID().uuidString).log")
    }

    static func run(
        _ client: String, cases: [String], reuse: Bool = true, timeoutMs: Int? = nil
    ) async throws
        -> ConformanceRunner.Outcome
    {
        var configuration = RunConfiguration(
            protocolName: "qwen-realtime", clientCommand: client, repositoryRoot: SuiteRun.root)
        configuration.includes = cases
        configuration.jobs = 1
        configuration.reuseAdapters = reuse
        configuration.timeoutMs = timeoutMs
        configuration.reportDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reuse-\(UUID().uuidString)")
        configuration.progress = { _ in }
        return try await ConformanceRunner(configuration: configuration).run()
    }

    @Test func theReferenceAdapterServesEveryCaseInOneProcessWithTheSameVerdicts() async throws {
        // Driven cases, one with `quit` in its commands (qrt.ptt.001), one with tools, one passive flow.
        // In suite order.
        let cases = ["qrt.connect.001", "qrt.session.001", "qrt.ptt.001", "qrt.tools.001", "qrt.errors.003"]
        let reusedLog = Self.temporaryLog()
        let freshLog = Self.temporaryLog()
        defer { for log in [reusedLog, freshLog] { try? FileManager.default.removeItem(at: log) } }
        let reused = try await Self.run(Self.counting("exec " + SuiteRun.adapter, log: reusedLog), cases: cases)
        let fresh = try await Self.run(
            Self.counting("exec " + SuiteRun.adapter, log: freshLog), cases: cases, reuse: false)
        defer { for outcome in [reused, fresh] { try? FileManager.default.removeItem(at: outcome.directory) } }
        #expect(Self.starts(reusedLog) == ["qrt.connect.001"], "one process for every case (jobs 1)")
        #expect(Self.starts(freshLog) == cases)
        let verdicts = { (outcome: ConformanceRunner.Outcome) in
            outcome.report.evaluations.map { "\($0.caseID) \($0.verdict.rawValue)" }
        }
        #expect(verdicts(reused) == cases.map { "\($0) pass" }, "\(verdicts(reused))")
        #expect(verdicts(reused) == verdicts(fresh))
        // Each case's record is its own: adapter events start after its next_case, with no harness acks.
        for (evaluation, alone) in zip(reused.report.evaluations, fresh.report.evaluations) {
            let connections = { (evaluation: CaseEvaluation) in
                evaluation.transcript.adapterEvents.filter { $0.name == "connected" }.count
            }
            #expect(connections(evaluation) == connections(alone), "\(evaluation.caseID)")
            #expect(evaluation.transcript.adapterEvents.first?.name == "connected", "\(evaluation.caseID)")
            let acks = evaluation.transcript.adapterEvents.compactMap { $0.json["cmd"]?.stringValue }
            #expect(!acks.contains("end_case") && !acks.contains("next_case"), "\(evaluation.caseID)")
        }
    }

    @Test func theEndCaseAckCarriesTheExitStatusTheCaseIsJudgedOn() async throws {
        // A fake reusable adapter that does nothing and reports exit 3 for every case.
        let fake =
            #"printf '{"adapter":"fake","protocol":"qwen-realtime","reusable":true}\n'; "#
            + #"while read -r line; do case "$line" in *end_case*) printf '{"event":"ack","cmd":"end_case","ok":false,"exit":3}\n';; esac; done"#
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(at: log) }
        let outcome = try await Self.run(Self.counting(fake, log: log), cases: ["qrt.errors.003", "qrt.faults.001"])
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        #expect(Self.starts(log) == ["qrt.errors.003"])
        for evaluation in outcome.report.evaluations {
            #expect(evaluation.transcript.client.exitCode == 3, "\(evaluation.caseID)")
            let exit = evaluation.checks.first { $0.kind == "clientExit" }
            #expect(
                exit?.verdict == .fail && exit?.actual == "exit 3", "\(evaluation.caseID): \(String(describing: exit))")
        }
    }

    @Test func anAdapterThatNeverEndsItsCaseIsKilledAtTheTimeoutAndNotReused() async throws {
        let hanging = #"printf '{"adapter":"fake","protocol":"qwen-realtime","reusable":true}\n'; exec sleep 60"#
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(at: log) }
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try await Self.run(
            Self.counting(hanging, log: log), cases: ["qrt.errors.003", "qrt.faults.001"], timeoutMs: 800)
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        #expect(clock.now - started < .seconds(20))
        #expect(Self.starts(log) == ["qrt.errors.003", "qrt.faults.001"], "a killed adapter is not reused")
        for evaluation in outcome.report.evaluations {
            #expect(evaluation.transcript.client.timedOut == true, "\(evaluation.caseID)")
            #expect(evaluation.verdict != .pass)
        }
    }
}
