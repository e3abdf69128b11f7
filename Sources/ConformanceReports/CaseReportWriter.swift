package import ConformanceChecks
import ProtocolModel
package import WireJSON

/// `cases/<case-id>.json`: case metadata, check results with expected / actual / evidence,
/// each check with its obligation's `sources` (and `inferred` reason), the state-order report, latency samples, applied faults, how the client ended (`client`,
/// ``CaseEvaluation/clientEndJSON``) and the full transcript; under
/// `--repeat`, every run's verdict, duration, failed checks and latency (`repeats`), the rest
/// being the representative run's.
package enum CaseReportWriter {
    /// The document (sorted keys).
    /// - Parameter strict: whether the run was `--strict` (a repeated case's pass rate depends on it).
    package static func json(_ evaluation: CaseEvaluation, strict: Bool = false) -> JSONValue {
        var document: JSONObject = [
            "id": .string(evaluation.caseID), "verdict": .string(evaluation.verdict.rawValue),
            "durationMs": .milliseconds(evaluation.durationMs),
        ]
        document["reason"] = evaluation.reason.map(JSONValue.string)
        if let conformanceCase = evaluation.conformanceCase {
            document["title"] = .string(conformanceCase.title)
            document["obligations"] = .array(conformanceCase.obligations.map(JSONValue.string))
            document["spec"] = [
                "doc": .string(conformanceCase.spec.doc), "section": .string(conformanceCase.spec.section),
                "level": .string(conformanceCase.spec.level.rawValue), "quote": .string(conformanceCase.spec.quote),
            ]
            document["scenario"] = .string(conformanceCase.scenario)
        }
        document["checks"] = .array(
            evaluation.checks.map { check in
                var object: JSONObject = [
                    "kind": .string(check.kind), "obligation": .string(check.obligation),
                    "verdict": .string(check.verdict.rawValue),
                    "expected": .string(check.expected), "actual": .string(check.actual),
                    "evidence": .array(check.evidence.map { .int(Int64($0)) }),
                ]
                object["consequenceOf"] = check.consequenceOf.map(JSONValue.string)
                // Where the obligation comes from (issue 40): `sources` keys, `inferred` reason.
                for (key, value) in check.provenance?.jsonObject ?? [:] { object[key] = value }
                return .object(object)
            })
        document["failedChecks"] = .array(evaluation.failedChecks.map(JSONValue.string))
        document["rootCause"] = evaluation.rootCause.map(JSONValue.string) ?? .null
        document["consequences"] = .array(evaluation.consequences.map(JSONValue.string))
        document["stateOrder"] = .array(evaluation.timelines.map(timelineJSON))
        document["latency"] = .array(
            evaluation.latency.map { sample in
                [
                    "metric": .string(sample.metric), "value": .milliseconds(sample.value),
                    "evidence": .array(sample.evidence.map { .int(Int64($0)) }),
                ]
            })
        document["faults"] = .array(
            evaluation.appliedFaults.map { fault in
                var note: JSONObject = [
                    "index": .int(Int64(fault.index)), "t": .int(evaluation.transcript.journal[fault.index].t),
                    "kind": .string(fault.note.kind), "detail": .string(fault.note.detail),
                ]
                note["id"] = fault.note.faultId.map(JSONValue.string)
                return .object(note)
            })
        if let repeats = evaluation.repeats { document["repeats"] = repeats.caseReportJSON(strict: strict) }
        document["client"] = evaluation.clientEndJSON
        document["transcript"] = evaluation.transcript.jsonValue
        return JSONValue.object(document).sortedKeys
    }

    static func timelineJSON(_ timeline: StateTimeline) -> JSONValue {
        var object: JSONObject = ["machine": .string(timeline.machine), "valid": .bool(timeline.isValid)]
        object["firstViolation"] = timeline.firstViolation.map { .int(Int64($0)) } ?? .null
        object["points"] = .array(
            timeline.points.map { point in
                var entry: JSONObject = [
                    "index": .int(Int64(point.index)), "ms": .milliseconds(point.ms), "state": .string(point.state),
                    "legal": .bool(point.legal),
                ]
                entry["note"] = point.note.map(JSONValue.string)
                return .object(entry)
            })
        return .object(object)
    }

    /// The file text (pretty, trailing newline).
    package static func text(_ evaluation: CaseEvaluation, strict: Bool = false) -> String {
        json(evaluation, strict: strict).encodedString(pretty: true) + "\n"
    }
}
