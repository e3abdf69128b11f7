import ProtocolModel
package import WireJSON

/// `fieldConsistent`: a field has the same value across frames (or, with `distinct`, never
/// repeats), optionally equal to a reference value taken from another entry.
///
/// Parameters: `message` (matcher, default every client frame), `pointer`, `reference`
/// (matcher whose first occurrence supplies the value), `referencePointer` (default `pointer`),
/// `allowMissing` (bool, default false), `distinct` (bool, default false).
/// ```json
/// { "kind": "fieldConsistent", "pointer": "/header/task_id" }
/// ```
package struct FieldConsistent: Check {
    package static let kind = "fieldConsistent"
    package static let parameterNames: Set<String> = [
        "message", "pointer", "reference", "referencePointer", "allowMissing", "distinct",
    ]

    /// Which frames.
    package var message: EntryMatcher
    /// The field.
    package var pointer: JSONPointer
    /// Where the expected value comes from.
    package var reference: EntryMatcher?
    /// The reference's field.
    package var referencePointer: JSONPointer?
    /// Frames without the field are skipped.
    package var allowMissing: Bool
    /// Values must all differ instead.
    package var distinct: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        message = try parameters.matcher("message") ?? .client("*")
        guard let pointer = try parameters.pointer("pointer") else {
            throw CheckParameterError(["pointer"], "required")
        }
        self.pointer = pointer
        reference = try parameters.matcher("reference")
        referencePointer = try parameters.pointer("referencePointer")
        allowMissing = try parameters.bool("allowMissing") ?? false
        distinct = try parameters.bool("distinct") ?? false
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected =
            distinct
            ? "\(pointer) distinct across \(message)"
            : "\(pointer) identical across \(message)"
                + (reference.map { " and equal to \(referencePointer ?? pointer) of \($0)" } ?? "")
        var expectedValue: JSONValue?
        var evidence: [Int] = []
        if let reference, let index = reference.first(in: transcript) {
            expectedValue = transcript.journal[index].json.flatMap { (referencePointer ?? pointer).resolve(in: $0) }
            evidence.append(index)
        }
        var seen: [JSONValue: Int] = [:]
        /// Values compared (with the reference or each other): one frame alone shows nothing.
        var compared = expectedValue == nil ? -1 : 0
        for index in message.indices(in: transcript) where transcript.journal[index].kind == .text {
            guard let value = transcript.journal[index].json.flatMap({ pointer.resolve(in: $0) }) else {
                if allowMissing { continue }
                return context.fail(
                    expected, "#\(index) \(transcript.messageType(at: index) ?? "frame") has no \(pointer)",
                    evidence: [index])
            }
            compared += 1
            if distinct {
                if let earlier = seen[value] {
                    return context.fail(
                        expected, "#\(index) repeats \(ValueCondition.short(value)) of #\(earlier)",
                        evidence: [index, earlier])
                }
                seen[value] = index
                continue
            }
            guard let wanted = expectedValue else {
                expectedValue = value
                evidence.append(index)
                continue
            }
            if value != wanted {
                return context.fail(
                    expected, "#\(index) has \(ValueCondition.short(value)), expected \(ValueCondition.short(wanted))",
                    evidence: [index] + evidence.prefix(1))
            }
        }
        guard compared > 0 else {
            return context.notExercised(
                expected,
                "fewer than two values of \(pointer) to compare (\(message) with the field: \(max(compared + 1, 0)))")
        }
        return context.pass(
            expected, distinct ? "\(seen.count) distinct value(s)" : "consistent across \(compared + 1) value(s)",
            evidence: evidence)
    }
}
