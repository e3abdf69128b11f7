import ProtocolModel
import WireJSON

/// `noMessage`: an entry does not occur inside a window of the journal.
///
/// Parameters: `message` (matcher, the forbidden entry), `after` (matcher; window opens after
/// it, default: session start), `before` (matcher; window closes at its first occurrence after
/// the opening, default: end), `windows` (`first`, default, or `each`: one window per `after`),
/// `graceMs` (entries within that many ms after the opening anchor are tolerated: frames the
/// client had sent before it could have seen the anchor; default 0).
/// When `after` never occurs, or the client sent no frame at all, there is nothing to judge
/// (`notExercised`).
/// ```json
/// { "kind": "noMessage", "message": { "client": "binary" }, "before": { "state": "Listening" } }
/// ```
package struct NoMessage: Check {
    package static let kind = "noMessage"
    package static let parameterNames: Set<String> = ["message", "after", "before", "windows", "graceMs"]

    /// The forbidden entry.
    package var message: EntryMatcher
    /// Window opening anchor.
    package var after: EntryMatcher?
    /// Window closing anchor.
    package var before: EntryMatcher?
    /// One window per `after` occurrence.
    package var eachWindow: Bool
    /// Frames in flight: matches this close after the opening anchor do not count.
    package var graceMs: Double

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        message = try parameters.requiredMatcher("message")
        after = try parameters.matcher("after")
        before = try parameters.matcher("before")
        let windows = try parameters.string("windows") ?? "first"
        guard windows == "first" || windows == "each" else {
            throw CheckParameterError(["windows"], "expected first or each")
        }
        eachWindow = windows == "each"
        graceMs = try parameters.double("graceMs", in: 0...10_000) ?? 0
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        var expected = "no \(message)"
        if let after { expected += " after \(after)" }
        if let before { expected += " before \(before)" }
        if eachWindow { expected += " (every window)" }
        if graceMs > 0 { expected += " (\(format(graceMs)) ms grace)" }
        var openings: [Int] = []
        if let after {
            openings =
                eachWindow
                ? after.indices(in: transcript).map { $0 + 1 } : after.first(in: transcript).map { [$0 + 1] } ?? []
        } else {
            openings = [0]
        }
        if openings.isEmpty, let after {
            return context.notExercised(expected, "\(after) never happened")
        }
        if transcript.clientFrameIndices.isEmpty {
            return context.notExercised(expected, "the client sent no frame")
        }
        for start in openings {
            let end = before?.first(in: transcript, from: start) ?? transcript.journal.count
            let graceEnd = start > 0 ? transcript.milliseconds(at: start - 1) + graceMs : -Double.infinity
            let offenders = message.indices(in: transcript, from: start, to: end)
            if let offending = offenders.first(where: { graceMs == 0 || transcript.milliseconds(at: $0) > graceEnd }) {
                let window = start > 0 ? [start - 1] : []
                return context.fail(
                    expected,
                    "\(describe(offending, in: transcript)) at #\(offending) (t=\(format(transcript.milliseconds(at: offending))) ms)",
                    evidence: [offending] + window)
            }
        }
        return context.pass(expected, "none in \(openings.count) window(s)")
    }

    private func describe(_ index: Int, in transcript: Transcript) -> String {
        let entry = transcript.journal[index]
        if entry.kind == .binary { return "binary frame (\(entry.byteLength ?? 0) bytes)" }
        return transcript.messageType(at: index) ?? entry.kind.rawValue
    }
}

/// Milliseconds with at most one decimal, for messages.
func format(_ milliseconds: Double) -> String {
    let rounded = (milliseconds * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
}
