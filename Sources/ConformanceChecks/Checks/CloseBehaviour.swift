import ProtocolModel
import WireJSON

/// `closeBehaviour`: how the client ends the connection.
///
/// Parameters: `after` (matcher: the ending message, e.g. `{"client": "Stop"}`; no client frame
/// may follow it), `waitFor` (matcher: the client must not close before it, e.g.
/// `{"server": "Stopped"}`), `codes` (allowed client close codes), `required` (bool: the
/// `after` message must be sent, default true), `clientCloses` (bool: the client must close
/// the socket itself).
/// ```json
/// { "kind": "closeBehaviour", "after": { "client": "Stop" }, "waitFor": { "server": "Stopped" }, "codes": [1000] }
/// ```
package struct CloseBehaviour: Check {
    package static let kind = "closeBehaviour"
    package static let parameterNames: Set<String> = ["after", "waitFor", "codes", "required", "clientCloses"]

    var after: EntryMatcher?
    var waitFor: EntryMatcher?
    var codes: [Int]?
    var required: Bool
    var clientCloses: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        after = try parameters.matcher("after")
        waitFor = try parameters.matcher("waitFor")
        if let list = parameters.value("codes") {
            guard let array = list.arrayValue, !array.isEmpty else {
                throw CheckParameterError(["codes"], "expected a non-empty array of close codes")
            }
            codes = try array.enumerated().map { (offset, element) throws(CheckParameterError) -> Int in
                guard let code = element.intValue, (1000...4999).contains(code) else {
                    throw CheckParameterError(["codes", String(offset)], "expected a close code 1000–4999")
                }
                return Int(code)
            }
        }
        required = try parameters.bool("required") ?? true
        clientCloses = try parameters.bool("clientCloses") ?? false
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        var parts: [String] = []
        if let after { parts.append("no client frame after \(after)") }
        if let waitFor { parts.append("the client closes only after \(waitFor)") }
        if let codes { parts.append("close code ∈ \(codes)") }
        if clientCloses { parts.append("the client closes the socket") }
        let expected = parts.joined(separator: "; ")
        let clientClose = transcript.firstIndex { $0.kind == .close && $0.direction == .in }
        if let after {
            guard let ending = after.first(in: transcript) else {
                return required
                    ? context.missing(expected, "the client never sent \(after)")
                    : context.notExercised(expected, "the client never sent \(after)")
            }
            if let late = transcript.clientFrameIndices.first(where: { $0 > ending }) {
                return context.fail(
                    expected, "\(transcript.messageType(at: late) ?? "binary frame") at #\(late) after #\(ending)",
                    evidence: [late, ending])
            }
        }
        if let waitFor, let clientClose {
            if let reply = waitFor.first(in: transcript), reply < clientClose {
                // waited
            } else {
                return context.fail(
                    expected, "the client closed at #\(clientClose) before \(waitFor)", evidence: [clientClose])
            }
        }
        if clientCloses, clientClose == nil {
            return context.missing(expected, "the client never sent a close frame")
        }
        if let codes, let clientClose, let code = transcript.journal[clientClose].closeCode, !codes.contains(code) {
            return context.fail(
                expected, "closed with \(code) \(transcript.journal[clientClose].closeReason ?? "")",
                evidence: [clientClose])
        }
        guard after != nil || clientClose != nil else {
            return context.notExercised(expected, "the client never closed the socket")
        }
        return context.pass(
            expected, clientClose.map { "closed at #\($0)" } ?? "no client close needed",
            evidence: clientClose.map { [$0] } ?? [])
    }
}
