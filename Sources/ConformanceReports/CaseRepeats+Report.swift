package import ConformanceChecks
package import WireJSON

/// How the report files write a repeated case (`conformance run --repeat N`), in one place so
/// index.json, the case report and the readers agree.
extension CaseRepeats {
    /// index.json's `repeats` of a case: `{"runs", "verdicts", "passRate", "flaky",
    /// "representative", "latency": {metric: {"count", "min", "p50", "max"}}}`.
    package func indexJSON(strict: Bool) -> JSONValue {
        var latency = JSONObject()
        for (metric, spread) in latencySpread {
            latency[metric] = [
                "count": .int(Int64(spread.count)), "min": .milliseconds(spread.min), "p50": .milliseconds(spread.p50),
                "max": .milliseconds(spread.max),
            ]
        }
        return [
            "runs": .int(Int64(runs.count)), "verdicts": .array(verdicts.map { .string($0.rawValue) }),
            "passRate": .double(Self.rounded(passRate(strict: strict))), "flaky": .bool(isFlaky),
            "representative": .int(Int64(representative + 1)), "latency": .object(latency),
        ]
    }

    /// The case report's `repeats`: the index's figures and every run (`runs` is then the list).
    package func caseReportJSON(strict: Bool) -> JSONValue {
        guard case .object(var object) = indexJSON(strict: strict) else { return .null }
        object["runs"] = .array(
            runs.map { run in
                [
                    "verdict": .string(run.verdict.rawValue), "durationMs": .milliseconds(run.durationMs),
                    "failedChecks": .array(run.failedChecks.map(JSONValue.string)),
                    "latency": .array(
                        run.latency.map { ["metric": .string($0.metric), "value": .milliseconds($0.value)] }),
                ]
            })
        return .object(object)
    }

    /// The runs of a case report's `repeats` (``caseReportJSON(strict:)``); nil when it has none.
    package init?(caseReportJSON value: JSONValue?) {
        guard let value, let list = value["runs"]?.arrayValue else { return nil }
        let runs: [Run] = list.compactMap { element in
            guard let verdict = element["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:)) else { return nil }
            let latency = (element["latency"]?.arrayValue ?? []).compactMap { sample -> LatencySample? in
                guard let metric = sample["metric"]?.stringValue, let value = sample["value"]?.doubleValue else {
                    return nil
                }
                return LatencySample(metric: metric, value: value)
            }
            return Run(
                verdict: verdict, durationMs: element["durationMs"]?.doubleValue ?? 0,
                failedChecks: (element["failedChecks"]?.arrayValue ?? []).compactMap(\.stringValue), latency: latency)
        }
        guard runs.count == list.count, !runs.isEmpty else { return nil }
        let representative = Int(value["representative"]?.intValue ?? 1) - 1
        self.init(runs: runs, representative: runs.indices.contains(representative) ? representative : 0)
    }

    /// `passRate` to four decimals (0.8, 0.6667).
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    /// "4/5 runs passed" for reports a person reads.
    package func passText(strict: Bool) -> String {
        let passing = Int((passRate(strict: strict) * Double(runs.count)).rounded())
        return "\(passing)/\(runs.count) runs passed"
    }
}
