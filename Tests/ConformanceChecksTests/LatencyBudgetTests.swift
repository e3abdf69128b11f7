import ProtocolModel
import Testing

@testable import ConformanceChecks

/// `--budget METRIC=VALUE` and the suite's latency budgets: parsing, overriding, judging.
@Suite struct LatencyBudgetTests {
    @Test(arguments: [
        ("bargeIn.speechStarted.cancel=250ms", 250.0), ("bargeIn.speechStarted.cancel=1.5s", 1500),
        ("bargeIn.speechStarted.cancel=80", 80), ("bargeIn.speechStarted.cancel= 0.5 s", 500),
        ("uplink.realTimeFactor=1.5", 1.5),
        ("uplink.realTimeFactor=2x", 2),
    ])
    func valuesParseInTheMetricsUnit(text: String, limit: Double) throws {
        var budgets = LatencyBudgets()
        try budgets.apply(commandLine: [text])
        #expect(budgets.limits.values.first == limit)
        #expect(budgets.fromCommandLine.count == 1)
    }

    @Test(arguments: [
        ("bargeIn.cancel=250ms", "unknown latency metric 'bargeIn.cancel'"),
        ("bargeIn.speechStarted.cancel", "expected METRIC=VALUE"),
        ("bargeIn.speechStarted.cancel=fast", "'fast' is not a duration"),
        ("bargeIn.speechStarted.cancel=-5ms", "is not a duration"),
        ("bargeIn.speechStarted.cancel=0", "is not a duration"),
        ("uplink.realTimeFactor=1.5s", "is not a real-time factor"),
    ])
    func badValuesAreRejectedWithTheValue(text: String, problem: String) {
        var budgets = LatencyBudgets()
        #expect {
            try budgets.apply(commandLine: [text])
        } throws: { error in
            let message = (error as? LatencyBudgetError)?.description ?? ""
            return message.hasPrefix("--budget '\(text)': ") && message.contains(problem)
        }
    }

    @Test func commandLineOverridesAddsAndDropsSuiteBudgets() throws {
        var budgets = LatencyBudgets([
            LatencyMetric.requestAcceptedToPlaybackStop: 500, LatencyMetric.respondingStartedToLocalStarted: 2000,
        ])
        try budgets.apply(commandLine: [
            "requestAccepted.downlinkStop=200ms", "respondingStarted.localRespondingStarted=none",
            "listening.firstAudio=1s",
        ])
        #expect(
            budgets.limits == [
                LatencyMetric.requestAcceptedToPlaybackStop: 200, LatencyMetric.listeningToFirstAudio: 1000,
            ])
    }

    @Test func onlyOverrunsAreFindingsUnderTheReactionsObligation() {
        let budgets = LatencyBudgets([
            LatencyMetric.requestAcceptedToPlaybackStop: 500, LatencyMetric.connectToFirstFrame: 100,
        ])
        let samples = [
            LatencySample(metric: LatencyMetric.requestAcceptedToPlaybackStop, value: 480, evidence: [3]),
            LatencySample(metric: LatencyMetric.requestAcceptedToPlaybackStop, value: 612.34, evidence: [9]),
            LatencySample(metric: LatencyMetric.connectToFirstFrame, value: 150, evidence: [1]),
            LatencySample(metric: LatencyMetric.listeningToFirstAudio, value: 9999),
        ]
        let results = budgets.overruns(samples, protocolName: "multimodal-dialog")
        #expect(results.map(\.obligation) == ["mmd.C20", "budget"])
        #expect(results.allSatisfy { $0.verdict == .fail && $0.kind == "latencyBudget" })
        #expect(results[0].evidence == [9])
        #expect(results[0].expected == "requestAccepted.downlinkStop ≤ 500 ms (the suite's budget)")
        #expect(results[0].actual == "requestAccepted.downlinkStop took 612.3 ms, 112.3 ms over its budget of 500 ms")
    }

    @Test func everyMetricHasAnObligationOrIsTheUsersOwnGate() {
        let qwen = Set(LatencyMetric.all.map { LatencyMetric.obligation(of: $0, protocolName: "qwen-realtime") })
        let dialog = Set(LatencyMetric.all.map { LatencyMetric.obligation(of: $0, protocolName: "multimodal-dialog") })
        #expect(qwen.isSuperset(of: ["qrt.C8", "qrt.C13", "qrt.C20", "budget"]))
        #expect(dialog.isSuperset(of: ["mmd.C9", "mmd.C19", "mmd.C20", "budget"]))
    }
}

/// Budgets inside a case evaluation: an overrun fails the case; a run in which the mock applied
/// a fault (a stall is inside the measured time) is not judged against them.
@Suite struct LatencyBudgetJudgementTests {
    static func transcript(stalled: Bool) -> Transcript {
        var builder = TranscriptBuilder()
        builder.server(100, TranscriptBuilder.output("RespondingStarted"))
        if stalled {
            builder.entries.append(
                JournalEntry(t: 150_000, kind: .fault, fault: FaultNote(faultId: "f1", kind: "stall", detail: "3 s")))
        }
        builder.client(2700, TranscriptBuilder.directive("LocalRespondingStarted"))
        return builder.transcript
    }

    @Test(arguments: [false, true])
    func overrunFailsTheCaseUnlessTheMockAppliedAFault(stalled: Bool) throws {
        let conformanceCase = try JudgementTests.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        var evaluator = JudgementTests.evaluator
        evaluator.budgets = LatencyBudgets([LatencyMetric.respondingStartedToLocalStarted: 2000])
        let evaluation = evaluator.evaluate(conformanceCase, transcript: Self.transcript(stalled: stalled))
        #expect(
            evaluation.latency.contains {
                $0.metric == LatencyMetric.respondingStartedToLocalStarted && $0.value == 2600
            })
        let overruns = evaluation.checks.filter { $0.kind == "latencyBudget" }
        #expect(overruns.map(\.obligation) == (stalled ? [] : ["mmd.C19"]))
        #expect(evaluation.verdict == (stalled ? .pass : .fail))
    }
}
