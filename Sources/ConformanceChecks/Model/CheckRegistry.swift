import ProtocolModel
package import WireJSON

/// The closed vocabulary of check kinds: `kind` name → type.
package enum CheckRegistry {
    /// Every registered kind.
    package static let kinds: [String: any Check.Type] = {
        let all: [any Check.Type] = [
            FirstMessage.self, MatchesSchema.self, SequenceCheck.self, NoMessage.self, RespondsWithin.self,
            FieldEquals.self, FieldConsistent.self, AudioFormat.self, AudioPacing.self, StateSequence.self,
            CloseBehaviour.self, ServerViolations.self, AdapterEventCheck.self, ClientExit.self, CustomCheck.self,
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.kind, $0) })
    }()

    /// Members every check object may carry.
    package static let commonNames: Set<String> = ["kind", "obligation", "level", "note", "exercisedBy"]

    /// Decodes one check object of a case file.
    /// - Throws: ``CheckParameterError`` with tokens relative to the check object.
    package static func decode(_ value: JSONValue) throws(CheckParameterError) -> ConfiguredCheck {
        guard let object = value.objectValue else { throw CheckParameterError([], "a check must be an object") }
        let parameters = CheckParameters(object)
        let kind = try parameters.requiredString("kind")
        guard let type = kinds[kind] else {
            throw CheckParameterError(
                ["kind"], "unknown check kind \"\(kind)\"; known: \(kinds.keys.sorted().joined(separator: ", "))")
        }
        for key in object.keys where !commonNames.contains(key) && !type.parameterNames.contains(key) {
            throw CheckParameterError(
                [key],
                "unknown parameter \"\(key)\" for \(kind); allowed: \(type.parameterNames.sorted().joined(separator: ", "))"
            )
        }
        let obligation = try parameters.string("obligation")
        var level: RequirementLevel?
        if let name = try parameters.string("level") {
            guard let parsed = RequirementLevel(rawValue: name) else {
                throw CheckParameterError(["level"], "expected MUST, SHOULD or MAY")
            }
            level = parsed
        }
        let exercisedBy = try parameters.matcher("exercisedBy")
        let check = try type.init(parameters: parameters)
        return ConfiguredCheck(
            kind: kind, check: check, obligation: obligation, level: level, exercisedBy: exercisedBy, source: value)
    }
}

/// A decoded check of a case, with its optional obligation and level overrides.
package struct ConfiguredCheck: Sendable {
    /// The kind name.
    package var kind: String
    /// The check.
    package var check: any Check
    /// Overrides the case's first obligation.
    package var obligation: String?
    /// Overrides the case's level.
    package var level: RequirementLevel?
    /// What must happen for the check to have anything to judge (e.g. a function call for the
    /// function-call obligation): without it the check is `notExercised`, whatever it says.
    package var exercisedBy: EntryMatcher? = nil
    /// The check object as written (for reports).
    package var source: JSONValue
}
