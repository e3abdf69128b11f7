import ProtocolModel
import WireJSON

/// `clientExit`: the client process ended on its own with an allowed exit code (a crash, a
/// signal or a hang at the case timeout fails).
///
/// Every case judges the client's end: a case without a `clientExit` of its own gets
/// ``implicit`` (exit 0, MUST, under the obligations `clientExit` and `clientTimedOut`); a case
/// declares one to allow other codes, or the timeout (`allowTimeout`: the client may be stopped).
/// A pass is no evidence about the protocol (``countsAsEvidence``): a client that did nothing
/// and exited 0 showed nothing.
///
/// Parameters: `codes` (allowed exit codes, default `[0]`), `allowTimeout` (bool, default false).
/// ```json
/// { "kind": "clientExit", "codes": [0, 1] }
/// ```
package struct ClientExit: FlowIndependentCheck {
    package static let kind = "clientExit"
    package static let parameterNames: Set<String> = ["codes", "allowTimeout"]
    package static let countsAsEvidence = false
    /// The obligation of the implicit check when the client ended badly (exit code, signal).
    package static let exitObligation = "clientExit"
    /// The obligation of the implicit check when the client had to be killed at the timeout.
    package static let timeoutObligation = "clientTimedOut"

    /// The check every case without its own `clientExit` gets: exit 0, no timeout.
    package static let implicit = ClientExit(codes: [0], allowTimeout: false)

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

    private init(codes: [Int32], allowTimeout: Bool) {
        self.codes = codes
        self.allowTimeout = allowTimeout
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
        guard let code = client.exitCode else { return context.fail(expected, client.endDescription + tail(client)) }
        return codes.contains(code)
            ? context.pass(expected, "exit \(code)") : context.fail(expected, "exit \(code)" + tail(client))
    }

    /// The client's last stderr line, to show why it ended so.
    private func tail(_ client: ClientProcessResult) -> String {
        client.stderrTail.last.map { "; last stderr line: \($0)" } ?? ""
    }
}
