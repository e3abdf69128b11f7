package import ConformanceChecks
import ProtocolModel
package import WireJSON

/// Reads a `cases/<case-id>.json` written by ``CaseReportWriter`` back into the
/// ``CaseEvaluation`` the report writers need (``ReportMerger``). Everything the writers use
/// round-trips; figures come back rounded to 0.1 ms as they were written.
package enum CaseReportReader {
    /// A case report that cannot be read, and why.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The evaluation in `document`. `conformanceCase` replaces the case rebuilt from the
    /// report's `title`, `spec`, `obligations` and `scenario` (pass the suite's when known).
    /// - Throws: ``Failure`` naming the member that is missing or malformed.
    package static func evaluation(
        _ document: JSONValue, conformanceCase: ConformanceCase? = nil
    ) throws(Failure) -> CaseEvaluation {
        guard let id = document["id"]?.stringValue else { throw Failure(description: "no \"id\"") }
        guard let verdictName = document["verdict"]?.stringValue, let verdict = Verdict(rawValue: verdictName) else {
            throw Failure(description: "\(id): no valid \"verdict\"")
        }
        let transcript: Transcript
        do {
            transcript = try Transcript(jsonValue: document["transcript"] ?? ["journal": []])
        } catch {
            throw Failure(description: "\(id): transcript: \(error.message)")
        }
        var evaluation = CaseEvaluation(
            caseID: id, conformanceCase: conformanceCase ?? rebuiltCase(document), verdict: verdict,
            reason: document["reason"]?.stringValue, transcript: transcript,
            durationMs: document["durationMs"]?.doubleValue ?? 0)
        evaluation.checks = try (document["checks"]?.arrayValue ?? []).enumerated().map {
            (offset, element) throws(Failure) in
            try check(element, at: "\(id): checks[\(offset)]")
        }
        evaluation.timelines = (document["stateOrder"]?.arrayValue ?? []).map(timeline)
        evaluation.latency = (document["latency"]?.arrayValue ?? []).compactMap { element in
            guard let metric = element["metric"]?.stringValue, let value = element["value"]?.doubleValue else {
                return nil
            }
            return LatencySample(metric: metric, value: value, evidence: indices(element["evidence"]))
        }
        evaluation.rootCause = document["rootCause"]?.stringValue
        evaluation.repeats = CaseRepeats(caseReportJSON: document["repeats"])
        return evaluation
    }

    private static func check(_ element: JSONValue, at location: String) throws(Failure) -> CheckResult {
        guard let kind = element["kind"]?.stringValue, let obligation = element["obligation"]?.stringValue,
            let verdict = element["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:))
        else {
            throw Failure(description: "\(location): needs \"kind\", \"obligation\" and a valid \"verdict\"")
        }
        var result = CheckResult(
            kind: kind, obligation: obligation, verdict: verdict, expected: element["expected"]?.stringValue ?? "",
            actual: element["actual"]?.stringValue ?? "", evidence: indices(element["evidence"]))
        result.consequenceOf = element["consequenceOf"]?.stringValue
        result.provenance = element.objectValue.flatMap(Provenance.init(jsonObject:))
        return result
    }

    private static func timeline(_ element: JSONValue) -> StateTimeline {
        let points = (element["points"]?.arrayValue ?? []).map { point in
            StateTimeline.Point(
                index: Int(point["index"]?.intValue ?? 0), ms: point["ms"]?.doubleValue ?? 0,
                state: point["state"]?.stringValue ?? "", legal: point["legal"]?.boolValue ?? true,
                note: point["note"]?.stringValue)
        }
        return StateTimeline(machine: element["machine"]?.stringValue ?? "", points: points)
    }

    private static func indices(_ value: JSONValue?) -> [Int] {
        (value?.arrayValue ?? []).compactMap { $0.intValue.map { Int($0) } }
    }

    /// The case as far as the report tells it (title, spec, obligations, scenario: what the
    /// writers show); its checks are a placeholder the writers never read. Nil when the report
    /// has no case (a harness error before the case loaded).
    private static func rebuiltCase(_ document: JSONValue) -> ConformanceCase? {
        guard let id = document["id"], let title = document["title"], let spec = document["spec"],
            let obligations = document["obligations"]
        else { return nil }
        let source: JSONValue = [
            "id": id, "title": title, "spec": spec, "obligations": obligations, "description": title,
            "scenario": document["scenario"] ?? "default", "timeoutMs": 1, "checks": [["kind": "clientExit"]],
        ]
        return try? ConformanceCase(jsonValue: source)
    }
}
