import ProtocolModel
package import WireJSON

/// `fieldEquals`: a field of selected frames satisfies a condition.
///
/// Parameters: `message` (matcher), `pointer`, a condition (`equals`, `notEquals`, `oneOf`,
/// `exists`, `jsonType`, `minLength`, `maxLength`, `minimum`, `maximum`), `which` (`all`,
/// default, `first` or `last`), `required` (bool, default true: no selected frame fails).
/// ```json
/// { "kind": "fieldEquals", "message": { "client": "Stop" }, "pointer": "/header/action", "equals": "finish-task" }
/// ```
package struct FieldEquals: Check {
    package static let kind = "fieldEquals"
    package static let parameterNames: Set<String> = ValueCondition.names.union([
        "message", "pointer", "which", "required",
    ])

    /// Which frames.
    package var message: EntryMatcher
    /// The field.
    package var pointer: JSONPointer
    /// The condition.
    package var condition: ValueCondition
    /// `all`, `first` or `last`.
    package var which: String
    /// Whether a missing frame fails.
    package var required: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        message = try parameters.requiredMatcher("message")
        guard let pointer = try parameters.pointer("pointer") else {
            throw CheckParameterError(["pointer"], "required")
        }
        self.pointer = pointer
        condition = try ValueCondition(parameters)
        guard !condition.isEmpty else {
            throw CheckParameterError([], "give a condition: equals, oneOf, exists, jsonType, …")
        }
        which = try parameters.string("which") ?? "all"
        guard ["all", "first", "last"].contains(which) else {
            throw CheckParameterError(["which"], "expected all, first or last")
        }
        required = try parameters.bool("required") ?? true
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected = "\(message): \(pointer) \(condition.summary ?? "satisfies the condition") (\(which))"
        var selected = message.indices(in: transcript)
        if which == "first" { selected = Array(selected.prefix(1)) }
        if which == "last" { selected = Array(selected.suffix(1)) }
        guard !selected.isEmpty else {
            return required
                ? context.missing(expected, "no \(message) was sent")
                : context.notExercised(expected, "no \(message) was sent")
        }
        for index in selected {
            let value = transcript.journal[index].json.flatMap { pointer.resolve(in: $0) }
            if let problem = condition.failure(for: value) {
                return context.fail(expected, "#\(index) \(pointer) \(problem)", evidence: [index])
            }
        }
        return context.pass(expected, "\(selected.count) frame(s) satisfy it", evidence: selected)
    }
}
