import WireJSON
import ScenarioEngine
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
