import ProtocolModel
import WireJSON

/// One kind of check from the closed vocabulary a case composes (layout §9.10).
///
/// A conforming type decodes its parameters once (``init(parameters:)``) and judges
/// transcripts as a pure function. Client nonconformance is a ``CheckResult``, never a throw.
package protocol Check: Sendable {
    /// The `kind` name used in case files.
    static var kind: String { get }
    /// Parameter names the kind accepts (besides the common `kind`, `obligation`, `level`, `note`).
    static var parameterNames: Set<String> { get }
    /// Decodes the check's parameters.
    /// - Throws: ``CheckParameterError`` naming the bad parameter.
    init(parameters: CheckParameters) throws(CheckParameterError)
    /// Judges `transcript`.
    func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult
    /// Judges a passive client that ran its own flow on a driven case's scenario: what the
    /// check can say without the adapter drive, or nil when it needs the drive (the default).
    func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult?
    /// Whether a pass of this check is evidence that the client met the case's obligation
    /// (default true). A case passes only with at least one such pass; `clientExit` is not one:
    /// a client that did nothing and exited 0 showed nothing.
    static var countsAsEvidence: Bool { get }
}

extension Check {
    package func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult? { nil }
    package static var countsAsEvidence: Bool { true }
}

/// Checks that constrain whatever the client sends, so any flow can break them: a passive
/// client on a driven case is judged by them as a driven one is. Checks that select frames by
/// what the drive makes the client send (fieldEquals, noMessage in a mode the drive chose,
/// sequence) are not: a passive client's frames would be judged by another flow's rules.
package protocol FlowIndependentCheck: Check {}

/// Checks that judge the frames they select: a passive client on a driven case is judged on the
/// frames it sent, and an absence (``CheckResult/isAbsence``) is not exercised.
package protocol PresenceJudgedCheck: Check {}

extension FlowIndependentCheck {
    package func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult? {
        evaluate(transcript, context: context)
    }
}

extension PresenceJudgedCheck {
    package func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult? {
        let result = evaluate(transcript, context: context)
        return result.isFinding && (result.isAbsence || result.evidence.isEmpty) ? nil : result
    }
}

/// A bad check parameter in a case file.
package struct CheckParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// JSON pointer tokens relative to the check object.
    package var tokens: [String]
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(_ tokens: [String], _ message: String) {
        self.tokens = tokens
        self.message = message
    }

    package var description: String { tokens.isEmpty ? message : "\(tokens.joined(separator: ".")): \(message)" }
}
