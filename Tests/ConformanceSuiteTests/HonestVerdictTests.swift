import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Testing

/// Issue 39, through `conformance run` on real client processes: a client that does nothing,
/// hangs or crashes gets no `pass` on either suite, and each case says why; audio whose format
/// lies about its rate is a MUST finding.
@Suite("Honest verdicts")
struct HonestVerdictTests {
    static let protocols = ["qwen-realtime", "multimodal-dialog"]

    /// A client that is not a client, what every case must show for it, and how long a case may take.
    struct Idle: Sendable, CustomTestStringConvertible {
        let name: String
        let command: String
        /// A text one of each failing case's findings must contain (nil: any finding will do).
        let evidence: String?
        var timeoutMs: Int? = nil
        /// Cases to run (empty: the whole suite).
        var cases: [String] = []
        var testDescription: String { name }
    }

    static let idleClients: [Idle] = [
        Idle(name: "true (never connects)", command: "true", evidence: "the client opened no session"),
        Idle(
            name: "sleep 100 (hangs, killed at the timeout)", command: "sleep 100",
            evidence: "the client opened no session",
            timeoutMs: 1_500),
        Idle(name: "connects and leaves at once", command: "\(SuiteRun.adapter) --connect-only", evidence: nil),
        // A correct flow that crashes on exit: the flow is long, so a sample of both kinds of case.
        Idle(
            name: "a correct flow, then exit 139", command: "\(SuiteRun.adapter) --passive; exit 139",
            evidence: "exit 139",
            cases: ["qrt.framing.*", "qrt.tools.001", "qrt.ptt.001", "mmd.start.00[12]", "mmd.respond.001"]),
    ]

    @Test(.timeLimit(.minutes(5)), arguments: idleClients, protocols)
    func aClientThatShowsNothingPassesNothing(_ client: Idle, protocolName: String) async throws {
        let cases = client.cases.filter { $0.hasPrefix(protocolName == "qwen-realtime" ? "qrt." : "mmd.") }
        guard client.cases.isEmpty || !cases.isEmpty else { return }
        let result = try await SuiteRun.run(
            protocolName: protocolName, client: client.command, cases: cases, jobs: 4, timeoutMs: client.timeoutMs)
        let evaluations = result.outcome.report.evaluations.filter { $0.verdict != .skipped }
        #expect(evaluations.count >= (cases.isEmpty ? 25 : 3))
        #expect(result.outcome.report.exitCode(strict: false) == 1)
        for evaluation in evaluations {
            // No pass; unimplemented only for a connected passive client on a driven case.
            #expect(
                evaluation.verdict == .fail
                    || (evaluation.verdict == .unimplemented && client.command.hasSuffix("--connect-only")
                        && evaluation.conformanceCase?.needsDriving == true),
                "\(evaluation.caseID): \(evaluation.verdict) \(evaluation.reason ?? "")")
            if evaluation.verdict == .fail {
                #expect(
                    evaluation.checks.contains { $0.verdict == .fail && $0.actual.contains(client.evidence ?? "") },
                    "\(evaluation.caseID): \(evaluation.checks.map { "\($0.obligation) \($0.actual)" })")
            } else {
                #expect(evaluation.reason?.contains("passive client on a driven case") == true)
            }
        }
    }

    /// A hung client is killed at the case timeout, and every case that does not allow it says so.
    @Test func aHungClientFailsTheTimeoutObligation() async throws {
        let result = try await SuiteRun.run(
            protocolName: "multimodal-dialog", client: "sleep 100", cases: ["mmd.start.001", "mmd.faults.001"],
            timeoutMs: 1_000)
        let judged = Dictionary(uniqueKeysWithValues: result.outcome.report.evaluations.map { ($0.caseID, $0) })
        #expect(judged["mmd.start.001"]?.failedChecks.contains(ClientExit.timeoutObligation) == true)
        #expect(judged["mmd.start.001"]?.transcript.client.timedOut == true)
        // mmd.faults.001 declares that the client may be stopped (a stalled server): no timeout finding.
        #expect(judged["mmd.faults.001"]?.failedChecks.contains(ClientExit.timeoutObligation) == false)
        #expect(judged["mmd.faults.001"]?.verdict == .fail)
    }

    /// The issue's own example: a `--case` subset a team runs in CI is red for a client that did nothing.
    @Test func aSubsetOfCasesIsRedForAClientThatDidNothing() async throws {
        let result = try await SuiteRun.run(
            protocolName: "qwen-realtime", client: "true",
            cases: ["qrt.tools.001", "qrt.response.001", "qrt.framing.001"])
        #expect(result.verdicts == ["qrt.tools.001": "fail", "qrt.response.001": "fail", "qrt.framing.001": "fail"])
        #expect(result.outcome.report.exitCode(strict: false) == 1)
    }

    /// A client whose flow makes no function call is not judged on the function-call round trip.
    @Test func aFunctionCallRoundTripNeedsAFunctionCall() async throws {
        let result = try await SuiteRun.run(
            protocolName: "qwen-realtime", client: "\(SuiteRun.adapter) --connect-only", cases: ["qrt.tools.001"])
        let evaluation = try #require(result.outcome.report.evaluations.first)
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.checks.first?.verdict == .notExercised)
        #expect(evaluation.checks.first?.actual == "not exercised: no function call was made")
    }

    /// 48 kHz and 24 kHz speech labelled 16 kHz: a MUST audio-format finding naming the likely rate,
    /// and (48 kHz, well over 1.5×) the SHOULD pacing finding too.
    @Test(
        .timeLimit(.minutes(5)),
        arguments: [
            ("qwen-realtime", "wrong-rate", "48 kHz"), ("qwen-realtime", "wrong-rate-24k", "24 kHz"),
            ("multimodal-dialog", "wrong-rate", "48 kHz"), ("multimodal-dialog", "wrong-rate-24k", "24 kHz"),
        ])
    func audioThatLiesAboutItsRateFailsTheFormatObligation(
        protocolName: String, fault: String, likely: String
    ) async throws {
        let qwen = protocolName == "qwen-realtime"
        let (format, pacing) = qwen ? ("qrt.audio.001", "qrt.audio.002") : ("mmd.audio.002", "mmd.audio.003")
        let result = try await SuiteRun.run(
            protocolName: protocolName, client: "\(SuiteRun.adapter) --fault \(fault)", cases: [format, pacing])
        let judged = Dictionary(uniqueKeysWithValues: result.outcome.report.evaluations.map { ($0.caseID, $0) })
        let formatFinding = try #require(judged[format]?.checks.first { $0.kind == AudioFormat.kind && $0.isFinding })
        #expect(formatFinding.verdict == .fail)
        #expect(formatFinding.obligation == (qwen ? "qrt.C8" : "mmd.C9"))
        #expect(formatFinding.actual.hasPrefix("audio looks like \(likely) sent as 16 kHz"), "\(formatFinding.actual)")
        if fault == "wrong-rate" {
            #expect(judged[pacing]?.checks.contains { $0.kind == AudioPacing.kind && $0.verdict == .nonStrict } == true)
        }
    }
}
