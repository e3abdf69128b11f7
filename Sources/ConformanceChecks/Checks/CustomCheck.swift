import ProtocolModel
import WireJSON

/// `custom`: a Swift check for an obligation the declarative kinds cannot express, named by
/// `name` (lint lists every use so they stay rare).
///
/// Parameters: `name` (one of ``CustomCheck/rules``), `params` (object, rule-specific).
/// ```json
/// { "kind": "custom", "name": "qrt.functionCallRoundTrip" }
/// ```
package struct CustomCheck: Check {
    package static let kind = "custom"
    package static let parameterNames: Set<String> = ["name", "params"]

    /// The custom rules by name.
    package static let rules: [String: any CustomRule.Type] = [
        LocalRespondingPerRound.name: LocalRespondingPerRound.self,
        FunctionCallRoundTrip.name: FunctionCallRoundTrip.self,
        HeartbeatCadence.name: HeartbeatCadence.self,
    ]

    /// The rule's name.
    package var name: String
    private var rule: any CustomRule

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        name = try parameters.requiredString("name")
        guard let type = Self.rules[name] else {
            throw CheckParameterError(
                ["name"], "unknown custom check \"\(name)\"; known: \(Self.rules.keys.sorted().joined(separator: ", "))"
            )
        }
        let params = parameters.value("params")
        if let params, params.objectValue == nil { throw CheckParameterError(["params"], "expected an object") }
        do {
            rule = try type.init(parameters: CheckParameters(params?.objectValue ?? [:]))
        } catch {
            throw CheckParameterError(["params"] + error.tokens, error.message)
        }
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        var context = context
        context.kind = "custom:\(name)"
        return rule.evaluate(transcript, context: context)
    }
}

/// A named Swift rule behind a `custom` check.
package protocol CustomRule: Sendable {
    /// The name case files use.
    static var name: String { get }
    /// Decodes `params`.
    init(parameters: CheckParameters) throws(CheckParameterError)
    /// Judges `transcript`.
    func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult
}
