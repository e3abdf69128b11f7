package import ProtocolModel
package import WireJSON

/// One conformance case (one JSON file, layout §9.10): what is required, how the mock is set
/// up, optionally how a driven client is steered, and the checks that judge the transcript.
package struct ConformanceCase: Sendable {
    /// Whether the case is run.
    package enum Status: String, Sendable, Hashable {
        case active, retired
    }

    /// One member of a family (`matrix`): id `<case-id>/<name>`.
    package struct Variant: Sendable {
        /// The variant name (suffix of the id).
        package var name: String
        /// Faults used instead of the case's, when given.
        package var faults: [JSONValue]?
        /// Scenario used instead of the case's, when given.
        package var scenario: String?
        /// Model used instead of the case's, when given.
        package var model: String? = nil
    }

    /// `<suite>.<section>.<nnn>` (or `…/<variant>` once expanded).
    package var id: String
    /// One-line title.
    package var title: String
    /// Where the requirement comes from.
    package var spec: SpecReference
    /// Obligation ids the case enforces (`mmd.C8`); the first is the default for checks.
    package var obligations: [String]
    /// What the case does, in prose.
    package var description: String
    /// A shipped scenario name or a suite-local scenario file name.
    package var scenario: String
    /// The model the client is told to use (`MOCK_MODEL`, and the `model` query of Qwen
    /// realtime URLs), for cases that need a profile other than the run's default
    /// (`qwen-audio-3.0-realtime-flash` for the audio profile); nil = the run's model.
    package var model: String?
    /// Inline fault specs for the mock (mock-server/README.md "faults").
    package var faults: [JSONValue]
    /// Adapter commands for driven clients (the adapter protocol, conformance/README.md); nil for passive cases.
    package var drive: [JSONValue]?
    /// The checks.
    package var checks: [ConfiguredCheck]
    /// Per-case timeout.
    package var timeoutMs: Int
    /// Active or retired.
    package var status: Status
    /// Runs only with `--strict`.
    package var strict: Bool
    /// Family members, if any.
    package var matrix: [Variant]
    /// Violations the case's own faults make inevitable (a write stall delays SpeechEnded, so
    /// the client streams on): not held against the client by ``JournaledViolations``.
    package var excusedViolations: [ExcusedViolation] = []

    /// The section token of the id (`start` in `mmd.start.001`).
    package var section: String {
        let parts = id.split(separator: "/")[0].split(separator: ".")
        return parts.count >= 3 ? String(parts[1]) : ""
    }

    /// Whether the case needs a driven client.
    package var needsDriving: Bool { drive != nil }

    /// The case itself, or one case per matrix variant.
    package func expanded() -> [ConformanceCase] {
        guard !matrix.isEmpty else { return [self] }
        return matrix.map { variant in
            var copy = self
            copy.id = "\(id)/\(variant.name)"
            copy.faults = variant.faults ?? faults
            copy.scenario = variant.scenario ?? scenario
            copy.model = variant.model ?? model
            copy.matrix = []
            return copy
        }
    }
}

/// A journaled violation a case does not hold against the client, and why.
package struct ExcusedViolation: Sendable, Hashable {
    package var obligation: String
    package var level: Violation.Level
    package var why: String

    package init(obligation: String, level: Violation.Level, why: String) {
        self.obligation = obligation
        self.level = level
        self.why = why
    }
}

/// A problem in a case or suite file, located by JSON pointer tokens.
package struct CaseDecodingError: Error, Sendable, Hashable {
    /// Pointer tokens from the document root.
    package var tokens: [String]
    /// What is wrong.
    package var message: String
    /// Whether the location is the member's key rather than its value.
    package var atKey: Bool

    /// Creates an error.
    package init(_ tokens: [String], _ message: String, atKey: Bool = false) {
        self.tokens = tokens
        self.message = message
        self.atKey = atKey
    }
}
