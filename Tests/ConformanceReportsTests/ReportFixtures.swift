import ConformanceChecks
import ConformanceReports
import Foundation
import ProtocolModel
import WireJSON

/// A synthetic Qwen realtime run with every verdict, evidence into the journal, a state
/// timeline, latency samples and client stderr: the input of the format, merge and baseline tests.
enum ReportFixtures {
    static let started = Date(timeIntervalSince1970: 1_700_000_000)

    static func conformanceCase(
        _ id: String, title: String, level: String = "MUST", obligations: [String]
    ) throws -> ConformanceCase {
        try ConformanceCase(jsonValue: [
            "id": .string(id), "title": .string(title), "obligations": .array(obligations.map(JSONValue.string)),
            "spec": ["doc": "qwen-realtime", "section": "12", "level": .string(level), "quote": "q"],
            "description": "d", "scenario": "default", "timeoutMs": 1000, "checks": [["kind": "clientExit"]],
        ])
    }

    /// session.update, a function call the client never answers, a state change.
    static let transcript = Transcript(journal: [
        .textFrame(t: 1000, .in, json: ["type": "session.update", "session": ["voice": nil]], byteLength: 60),
        .textFrame(
            t: 4000, .out,
            json: [
                "type": "response.function_call_arguments.done", "call_id": "c1",
                "arguments": .string(String(repeating: "x", count: 3000)),
            ], byteLength: 3100),
        JournalEntry(t: 5000, kind: .state, state: "responding"),
    ])

    static func evaluation(
        _ id: String, _ verdict: Verdict, title: String = "t", level: String = "MUST",
        obligations: [String] = ["qrt.C1"],
        checks: [CheckResult] = [], rootCause: String? = nil, latency: [LatencySample] = [],
        timelines: [StateTimeline] = [], reason: String? = nil, durationMs: Double = 100
    ) throws -> CaseEvaluation {
        var evaluation = CaseEvaluation(
            caseID: id, conformanceCase: try conformanceCase(id, title: title, level: level, obligations: obligations),
            verdict: verdict,
            reason: reason, checks: checks, timelines: timelines, latency: latency, transcript: transcript,
            durationMs: durationMs)
        evaluation.rootCause = rootCause
        return evaluation
    }

    static func finding(
        _ obligation: String, _ verdict: Verdict, actual: String, evidence: [Int], consequenceOf: String? = nil
    ) -> CheckResult {
        var check = CheckResult(
            kind: "sequence", obligation: obligation, verdict: verdict, expected: "the right thing", actual: actual,
            evidence: evidence)
        check.consequenceOf = consequenceOf
        return check
    }

    /// Six cases in suite order: pass, fail (root cause + consequence, stderr), nonStrict,
    /// informational, unimplemented, error (no case).
    static func run() throws -> RunReport {
        let timeline = StateTimeline(
            machine: "qrt.response",
            points: [
                .init(index: 2, ms: 5, state: "responding"),
                .init(index: 2, ms: 6, state: "done", legal: false, note: "no response.done"),
            ])
        let passed = try evaluation(
            "qrt.session.001", .pass, title: "Session update",
            checks: [
                CheckResult(
                    kind: "respondsWithin", obligation: "qrt.C2", verdict: .pass, expected: "e", actual: "a",
                    evidence: [0])
            ], latency: [LatencySample(metric: LatencyMetric.sessionCreatedToUpdate, value: 8, evidence: [0])])
        let failed = try evaluation(
            "qrt.tools.001", .fail, title: "Function call round trip", obligations: ["qrt.C11"],
            checks: [
                finding("qrt.C11", .fail, actual: "no function_call_output for call c1", evidence: [1]),
                finding("qrt.C13", .fail, actual: "no response.create", evidence: [], consequenceOf: "qrt.C11"),
            ], rootCause: "qrt.C11",
            latency: [LatencySample(metric: LatencyMetric.sessionCreatedToUpdate, value: 12.5, evidence: [0])],
            timelines: [timeline, StateTimeline(machine: "qrt.session", points: [])], durationMs: 250)
        let nonStrict = try evaluation(
            "qrt.session.002", .nonStrict, title: "Voice", level: "SHOULD", obligations: ["qrt.C7"],
            checks: [
                finding("qrt.C7", .nonStrict, actual: "session.update resends voice: null", evidence: [0])
            ], latency: [LatencySample(metric: LatencyMetric.sessionCreatedToUpdate, value: 30, evidence: [0])])
        let informational = try evaluation(
            "qrt.session.003", .informational, level: "MAY", obligations: ["qrt.C9"],
            checks: [
                finding("qrt.C9", .informational, actual: "no instructions", evidence: [0])
            ])
        let unimplemented = try evaluation(
            "qrt.audio.001", .unimplemented, reason: "a passive client: none of the checks could be exercised")
        let error = CaseEvaluation(
            caseID: "qrt.audio.002", conformanceCase: nil, verdict: .error, reason: "port in use")
        var report = RunReport(
            protocolName: "qwen-realtime", client: "./client --flag", started: started,
            evaluations: [passed, failed, nonStrict, informational, unimplemented, error])
        report.clientStderr = [
            "qrt.tools.001": (1...30).map { "log line \($0)" }.joined(separator: "\n") + "\n", "qrt.session.001": "",
        ]
        report.toolVersion = "1.2.3"
        report.caseFiles = ["qrt.tools.001": "conformance/suites/qwen-realtime/cases/tools/qrt.tools.001.json"]
        return report
    }
}
