import ProtocolModel
import WireJSON

/// `clientExit`: the client process ended on its own with an allowed exit code (a crash, a
/// signal or a hang at the case timeout fails).
///
/// Parameters: `codes` (allowed exit codes, default `[0]`), `allowTimeout` (bool, default false).
/// ```json
/// { "kind": "clientExit", "codes": [0, 1] }
/// ```
package struct ClientExit: Check {
    package static let kind = "clientExit"
    package static let parameterNames: Set<String> = ["codes", "allowTimeout"]

    var codes: [Int32]
    var allowTimeout: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        if let list = parameters.value("codes") {
            guard let array = list.arrayValue, !array.isEmpty else {
                throw CheckParameterError(["codes"], "expected a non-empty array of exit codes")
            }
            codes = try array.enumerated().map { (offset, element) throws(CheckParameterError) -> Int32 in
                guard let code = element.intValue, (0...255).contains(code) else {
                    throw CheckParameterError(["codes", String(offset)], "expected 0–255")
                }
                return Int32(code)
            }
        } else {
            codes = [0]
        }
        allowTimeout = try parameters.bool("allowTimeout") ?? false
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected =
            "the client exits with \(codes.map(String.init).joined(separator: " or "))"
            + (allowTimeout ? " or runs until the timeout" : "")
        let client = transcript.client
        if client.timedOut {
            return allowTimeout
                ? context.pass(expected, "still running at the timeout")
                : context.fail(expected, "hung until the case timeout")
        }
        guard let code = client.exitCode else { return context.fail(expected, "killed by a signal") }
        return codes.contains(code) ? context.pass(expected, "exit \(code)") : context.fail(expected, "exit \(code)")
    }
}
