import ProtocolModel
import WireJSON

/// `adapterEvent`: a *(hook)* obligation judged on the adapter's events (driven clients).
/// A passive client has no events, so the check is `unimplemented` for it.
///
/// Parameters: `event` (name), `expect` (`present`, default, or `absent`), `after` (journal
/// matcher: the window opens at its first occurrence), `before` (journal matcher: the window
/// closes there), `withinMs` (present: the event comes within this long of the opening),
/// `graceMs` (absent: events this soon after the opening are tolerated), `during` (two adapter
/// event names, `[opens, closes]`: the `after` anchor is judged only inside such a span — e.g.
/// playback in progress at a barge-in — and otherwise the check is not exercised), `pointer`
/// plus a condition on the event's JSON (only matching events count).
/// ```json
/// { "kind": "adapterEvent", "event": "playback_ended", "after": { "server": "RequestAccepted" }, "withinMs": 500 }
/// ```
package struct AdapterEventCheck: Check {
    package static let kind = "adapterEvent"
    package static let parameterNames: Set<String> = ValueCondition.names.union([
        "event", "expect", "after", "before", "withinMs", "graceMs", "during", "pointer",
    ])

    var event: String
    var present: Bool
    var after: EntryMatcher?
    var before: EntryMatcher?
    var withinMs: Double?
    var graceMs: Double
    var during: (opens: String, closes: String)?
    var pointer: JSONPointer?
    var condition: ValueCondition

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        event = try parameters.requiredString("event")
        let expect = try parameters.string("expect") ?? "present"
        guard expect == "present" || expect == "absent" else {
            throw CheckParameterError(["expect"], "expected present or absent")
        }
        present = expect == "present"
        after = try parameters.matcher("after")
        before = try parameters.matcher("before")
        withinMs = try parameters.double("withinMs")
        graceMs = try parameters.double("graceMs") ?? 0
        if let names = try parameters.strings("during") {
            guard names.count == 2, after != nil else {
                throw CheckParameterError(
                    ["during"], "expected [opening event, closing event] with an \"after\" anchor")
            }
            during = (names[0], names[1])
        }
        pointer = try parameters.pointer("pointer")
        condition = try ValueCondition(parameters)
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        var expected = "adapter event \(event) \(present ? "occurs" : "does not occur")"
        if let after { expected += " after \(after)" + (withinMs.map { " within \(format($0)) ms" } ?? "") }
        if let before { expected += " before \(before)" }
        if let pointer { expected += " with \(pointer) \(condition.summary ?? "")" }
        guard transcript.client.driven else {
            return context.unimplemented(expected, "passive client: no adapter events")
        }
        var startMs = 0.0
        var anchor: [Int] = []
        if let after {
            guard let index = after.first(in: transcript) else {
                return context.notExercised(expected, "\(after) never happened")
            }
            startMs = transcript.milliseconds(at: index)
            anchor = [index]
            if let during, !isOpen(during, atMs: startMs, in: transcript.adapterEvents) {
                return context.notExercised(expected, "no \(during.opens) span was open at \(after)")
            }
        }
        let endMs = before.flatMap { $0.first(in: transcript) }.map { transcript.milliseconds(at: $0) } ?? .infinity
        let candidates = transcript.adapterEvents.filter { event in
            let ms = Double(event.t) / 1000
            return event.name == self.event && ms >= startMs && ms <= endMs
        }
        if present {
            guard let first = candidates.first else {
                return context.missing(expected, "no \(event) event", context: anchor)
            }
            if let pointer, let problem = condition.failure(for: pointer.resolve(in: first.json)) {
                return context.fail(
                    expected, "\(event) at \(format(Double(first.t) / 1000)) ms: \(pointer) \(problem)",
                    evidence: anchor)
            }
            let delay = Double(first.t) / 1000 - startMs
            if let withinMs, delay > withinMs {
                return context.fail(expected, "\(event) came \(format(delay)) ms later", evidence: anchor)
            }
            return context.pass(expected, "\(event) after \(format(delay)) ms", evidence: anchor)
        }
        let offending = candidates.first { Double($0.t) / 1000 - startMs > graceMs }
        if let offending {
            return context.fail(
                expected,
                "\(event) at \(format(Double(offending.t) / 1000)) ms (\(format(Double(offending.t) / 1000 - startMs)) ms after the anchor)",
                evidence: anchor)
        }
        return context.pass(expected, "none", evidence: anchor)
    }

    /// Whether the last `opens` event at or before `ms` has no `closes` event after it (by `ms`).
    private func isOpen(_ span: (opens: String, closes: String), atMs ms: Double, in events: [AdapterEvent]) -> Bool {
        guard let opened = events.last(where: { $0.name == span.opens && Double($0.t) / 1000 <= ms }) else {
            return false
        }
        return !events.contains { $0.name == span.closes && $0.t >= opened.t && Double($0.t) / 1000 <= ms }
    }
}
