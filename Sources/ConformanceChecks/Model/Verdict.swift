import ProtocolModel
import WireJSON

/// The outcome of a check or a case, as reports/README.md names it.
///
/// Cases report the worst verdict of their checks; ``severity`` orders them.
package enum Verdict: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Every check held, and at least one of the case's own checks saw what it judges.
    case pass
    /// A MUST was broken.
    case fail
    /// A SHOULD was broken.
    case nonStrict
    /// A MAY was not taken (or a note worth reading).
    case informational
    /// The client lacks what the case needs (a passive client on a driven case, no hook events).
    case unimplemented
    /// The case was not selected (or is strict-only, or retired).
    case skipped
    /// The harness itself failed; never a judgement about the client.
    case error
    /// A check's outcome (never a case's): what it judges did not happen in the run (no client
    /// frame, no function call, the anchor never came), so it has no evidence either way.
    /// ``CaseEvaluator`` decides what a case of such checks gets; it never passes.
    case notExercised

    /// The verdicts a case can get (the report contract's list; ``notExercised`` is a check's).
    package static let caseVerdicts: [Verdict] = [
        .pass, .fail, .nonStrict, .informational, .unimplemented, .skipped, .error,
    ]

    /// How bad a verdict is; higher is worse. `error` dominates because a harness failure
    /// makes every other result of the case untrustworthy.
    package var severity: Int {
        switch self {
        case .pass: 0
        case .notExercised: 1
        case .skipped: 2
        case .unimplemented: 3
        case .informational: 4
        case .nonStrict: 5
        case .fail: 6
        case .error: 7
        }
    }

    /// Whether this verdict counts as a broken obligation (fail, nonStrict or informational).
    package var isFinding: Bool { self == .fail || self == .nonStrict || self == .informational }

    package static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.severity < rhs.severity }

    /// The worst of `verdicts`, or `pass` when there are none.
    package static func worst(_ verdicts: some Sequence<Verdict>) -> Verdict {
        verdicts.max() ?? .pass
    }
}

/// The requirement level of a spec sentence (RFC 2119 words as the specs use them).
package enum RequirementLevel: String, Sendable, Hashable, CaseIterable {
    case must = "MUST"
    case should = "SHOULD"
    case may = "MAY"

    /// The verdict a broken requirement of this level yields (layout §9.10).
    package var failureVerdict: Verdict {
        switch self {
        case .must: .fail
        case .should: .nonStrict
        case .may: .informational
        }
    }
}
