import ProtocolModel
import WireJSON

/// The result of one check over one transcript (h2spec's expected / actual, plus evidence).
package struct CheckResult: Sendable, Hashable {
    /// The check kind that produced it (`noMessage`, `custom:qrt.functionCallRoundTrip`, …).
    package var kind: String
    /// The obligation the check enforces (`mmd.C8`, `qrt.C11`, `schema`).
    package var obligation: String
    /// `pass`, or the level's failure verdict, or `unimplemented` / `error`.
    package var verdict: Verdict
    /// What the spec requires, in words.
    package var expected: String
    /// What the client did.
    package var actual: String
    /// Indices into the journal that show it (first offending entry first).
    package var evidence: [Int]
    /// For a finding that follows from an earlier one (the mock rejected a frame, the flow
    /// stalled, a later check failed): the obligation id of that root cause.
    package var consequenceOf: String? = nil
    /// Whether the finding is about something that never happened: `evidence` then shows
    /// where it was due (an anchor), not an offending entry.
    package var isAbsence = false
    /// The sources of the obligation (from the suite's obligation table; nil for `schema` and
    /// harness ids, or when the suite gives none).
    package var provenance: Provenance? = nil

    /// Creates a result.
    package init(
        kind: String, obligation: String, verdict: Verdict, expected: String, actual: String, evidence: [Int] = []
    ) {
        self.kind = kind
        self.obligation = obligation
        self.verdict = verdict
        self.expected = expected
        self.actual = actual
        self.evidence = evidence
    }

    /// Whether the check found the client at fault (fail, nonStrict or informational).
    package var isFinding: Bool { verdict.isFinding }

    /// Whether the check was judged (neither `skipped` nor `notExercised`).
    package var isJudged: Bool { verdict != .skipped && verdict != .notExercised }

    /// How a `notExercised` result's `actual` starts.
    package static let notExercisedPrefix = "not exercised: "
}
