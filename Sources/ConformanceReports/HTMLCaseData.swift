import ConformanceChecks
import ProtocolModel
import WireJSON

/// The data report.html's script works from, once per case: `{"journal", "marks", "title"}`
/// in a `<script type="application/json" class="case-data">` block, the input of the timeline
/// component (`DialogTimeline.render(element, data)`) and of the audio players and the base64
/// expanders. The journal is written compactly, exactly as the case's JSON has it (sorted keys,
/// so a merged run's page equals the unsharded one's).
package enum HTMLCaseData {
    /// Characters of a finding's `actual` a mark's label keeps.
    static let labelLimit = 200
    /// Base64 characters of audio payloads one page carries (about 12 MB of audio, six minutes
    /// of 16 kHz PCM): cases are filled in reading order (worst first); a case whose payloads
    /// no longer fit gets its journal without them (`"audioLeftOut"`: their size), so its audio
    /// shows as durations and its case JSON keeps them.
    package static let pageAudioBudget = 16_000_000

    /// The data block of `evaluation`, spending its audio payloads from `budget` when they fit.
    static func script(_ evaluation: CaseEvaluation, budget: inout Int) -> String {
        let title = evaluation.conformanceCase.map { "\(evaluation.caseID) — \($0.title)" } ?? evaluation.caseID
        var journal = evaluation.transcript.journal.map(\.jsonValue.sortedKeys)
        let payloads = evaluation.transcript.journal.indices.compactMap { index in
            HTMLAudio.payloadKey(evaluation.transcript.journal[index]).map { (index, $0) }
        }
        let size = payloads.reduce(0) { $0 + (journal[$1.0].at(pointer: $1.1)?.stringValue?.utf8.count ?? 0) }
        var data: JSONObject = ["marks": .array(marks(evaluation)), "title": .string(title)]
        if size <= budget {
            budget -= size
        } else {
            for (index, pointer) in payloads { journal[index] = journal[index].replacing(pointer: pointer, with: "") }
            data["audioLeftOut"] = .int(Int64(size))
        }
        data["journal"] = .array(journal)
        return "<script type=\"application/json\" class=\"case-data\">\(scriptText(.object(data)))</script>\n"
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

extension JSONValue {
    /// The member at a JSON pointer of object keys (`/json/audio`), if any.
    fileprivate func at(pointer: String) -> JSONValue? {
        pointer.split(separator: "/").reduce(self as JSONValue?) { value, key in value?[String(key)] }
    }

    /// This value with the member at a pointer of object keys replaced (unchanged when absent).
    fileprivate func replacing(pointer: String, with replacement: JSONValue) -> JSONValue {
        var keys = pointer.split(separator: "/").map(String.init)
        guard !keys.isEmpty, case .object(var object) = self else { return self }
        let key = keys.removeFirst()
        guard let member = object[key] else { return self }
        object[key] =
            keys.isEmpty ? replacement : member.replacing(pointer: "/" + keys.joined(separator: "/"), with: replacement)
        return .object(object)
    }
}
