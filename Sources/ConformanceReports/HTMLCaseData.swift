import ConformanceChecks
import ProtocolModel
import WireJSON

/// The data report.html's script works from, once per case: `{"journal", "marks", "title"}`
/// in a `<script type="application/json" class="case-data">` block, the input of the timeline
/// component (`DialogTimeline.render(element, data)`) and of the audio players and the base64
/// expanders. The journal is written compactly, exactly as the case's JSON has it (sorted keys,
/// so a merged run's page equals the unsharded one's).
enum HTMLCaseData {
    /// Characters of a finding's `actual` a mark's label keeps.
    static let labelLimit = 200

    /// The data block of `evaluation`.
    static func script(_ evaluation: CaseEvaluation) -> String {
        let title = evaluation.conformanceCase.map { "\(evaluation.caseID) — \($0.title)" } ?? evaluation.caseID
        let data: JSONValue = [
            "journal": .array(evaluation.transcript.journal.map(\.jsonValue.sortedKeys)),
            "marks": .array(marks(evaluation)), "title": .string(title),
        ]
        return "<script type=\"application/json\" class=\"case-data\">\(scriptText(data))</script>\n"
    }

    /// Compact JSON safe inside a script element: every `<` is written `\u003c` (only strings
    /// can hold one, and the escape means the same there), so no `</script>` or `<!--` occurs.
    static func scriptText(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        for byte in value.encoded() {
            if byte == UInt8(ascii: "<") { bytes += Array("\\u003c".utf8) } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The timeline's pins: every evidence entry of a failed or nonStrict check (labelled with
    /// its obligation and verdict) and every fault the mock applied.
    static func marks(_ evaluation: CaseEvaluation) -> [JSONValue] {
        var marks: [JSONValue] = []
        for check in evaluation.checks where check.verdict == .fail || check.verdict == .nonStrict {
            let label = "\(check.obligation) \(check.verdict.rawValue): \(check.actual)"
            for index in check.evidence where evaluation.transcript.journal.indices.contains(index) {
                marks.append([
                    "index": .int(Int64(index)), "kind": "finding", "label": .string(String(label.prefix(labelLimit))),
                    "obligation": .string(check.obligation), "verdict": .string(check.verdict.rawValue),
                ])
            }
        }
        for fault in evaluation.appliedFaults {
            let label = "fault \(fault.note.faultId.map { "\($0) " } ?? "")\(fault.note.kind): \(fault.note.detail)"
            marks.append(["index": .int(Int64(fault.index)), "kind": "fault", "label": .string(label)])
        }
        return marks
    }

    /// Where the case's timeline goes: the script renders the shared timeline component
    /// (`DialogTimeline.render`) into it from the case's data block when the page has it.
    static func timelineHTML(_ evaluation: CaseEvaluation) -> String {
        guard !evaluation.transcript.journal.isEmpty else { return "" }
        return "<div class=\"dialog-timeline\" data-entries=\"\(evaluation.transcript.journal.count)\"></div>\n"
    }
}
