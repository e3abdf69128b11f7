package import ConformanceChecks
package import WireJSON

/// What every report format says about one case, computed in one place so junit.xml, ctrf.json,
/// report.html and the step summary agree.
extension CaseEvaluation {
    /// The case's findings: the root cause first, then the independent ones, consequences last.
    package var orderedFindings: [CheckResult] {
        let rank = { (check: CheckResult) in check.obligation == rootCause ? 0 : check.consequenceOf == nil ? 1 : 2 }
        // `enumerated` keeps check order within a rank (sort is not stable).
        return checks.filter(\.isFinding).enumerated().sorted { lhs, rhs in
            (rank(lhs.element), lhs.offset) < (rank(rhs.element), rhs.offset)
        }.map(\.element)
    }

    /// The one line a CI reporter shows: the worst finding first (`mmd.C13: <actual>`), else
    /// the reason the case was not judged; nil for a clean pass.
    package var headline: String? {
        let findings = orderedFindings
        if let worst = findings.first(where: { $0.verdict == verdict }) ?? findings.first {
            return "\(worst.obligation): \(worst.actual)"
        }
        return reason
    }

    /// Every finding as text, one per line, consequences marked (JUnit body, CTRF `trace`).
    package var findingDetails: String {
        orderedFindings.map { finding in
            let marker = finding.consequenceOf.map { " (consequence of \($0))" } ?? ""
            return
                "\(finding.obligation)\(marker) [\(finding.kind)] expected: \(finding.expected)\n  actual: \(finding.actual)"
        }.joined(separator: "\n")
    }

    /// How the client ended, when the case ran it: nil for a skipped case (never run) and for a
    /// harness error whose client did not end abnormally (its ``reason`` says what went wrong;
    /// the transcript's exit 0 is then only a default).
    package var clientEnd: ClientProcessResult? {
        switch verdict {
        case .skipped: nil
        case .error: transcript.client.endedAbnormally ? transcript.client : nil
        default: transcript.client
        }
    }

    /// Whether the reports' texts tell the client's end: for a fail or an error, and for any
    /// case whose client ended abnormally (a crash beside passing checks is news).
    package var mentionsClientEnd: Bool {
        guard let client = clientEnd else { return false }
        return verdict == .fail || verdict == .error || client.endedAbnormally
    }

    /// ``ClientProcessResult/reportLines(stderrTail:)`` as text when the reports tell the
    /// client's end (``mentionsClientEnd``), else empty (JUnit body, CTRF `trace`, summary.md).
    package var clientEndText: String {
        guard mentionsClientEnd, let client = clientEnd else { return "" }
        return client.reportLines().joined(separator: "\n")
    }

    /// The client's end in the report files (`client` of cases/<id>.json, `extra.client` of
    /// ctrf.json): the transcript's client object with `end` in words; nil without ``clientEnd``.
    package var clientEndJSON: JSONValue? {
        guard let client = clientEnd, case .object(var object) = client.jsonValue else { return nil }
        object["end"] = .string(client.endDescription)
        return .object(object)
    }

    /// The suite section's title (or token) the case belongs to; empty without a case.
    package func sectionTitle(in suite: SuiteDefinition?) -> String {
        conformanceCase.map { suite?.sectionTitle($0.section) ?? $0.section } ?? ""
    }
}

/// The order report.html lists cases in: what needs reading first first.
package enum VerdictOrder {
    /// fail, error, nonStrict, unimplemented, informational, pass, skipped.
    package static let reading: [Verdict] = [
        .fail, .error, .nonStrict, .unimplemented, .informational, .pass, .skipped,
    ]
}

/// The end of a long text (client stderr) for inline display.
package enum TextTail {
    /// The last `count` lines of `text` (a trailing newline does not count as a line).
    package static func lines(_ text: String, count: Int) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return Array(lines.suffix(count))
    }

    /// At most `maxBytes` UTF-8 bytes from the end of `text`, cut at a line start when one is
    /// near, marked `…` when cut.
    package static func bytes(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        // Drop continuation bytes so the cut starts on a whole character.
        let tail = Array(text.utf8.suffix(maxBytes)).drop { $0 & 0xC0 == 0x80 }
        if let newline = tail.firstIndex(of: 0x0A), newline - tail.startIndex < 200 {
            return "…\n" + String(decoding: tail[(newline + 1)...], as: UTF8.self)
        }
        return "…" + String(decoding: tail, as: UTF8.self)
    }
}

extension ClientProcessResult {
    /// Whether the client ended in a way a report tells whatever the verdict: a non-zero exit,
    /// a signal, no exit status, or killed at the case timeout.
    package var endedAbnormally: Bool { timedOut || signal != nil || exitCode != 0 }

    /// How the reports' texts tell the client's end: `client: exit 3`, then `client stderr
    /// (last N lines):` and each line as `  | line`. `stderrTail` replaces the transcript's
    /// ``stderrTail`` (the log line passes what the runner kept).
    package func reportLines(stderrTail tail: [String]? = nil) -> [String] {
        let tail = tail ?? stderrTail
        var lines = ["client: \(endDescription)"]
        if !tail.isEmpty {
            lines.append("client stderr (last \(tail.count) line\(tail.count == 1 ? "" : "s")):")
            lines += tail.map { "  | \($0)" }
        }
        return lines
    }
}

/// A text shown on one line (a log line, a table cell, an annotation).
package enum OneLine {
    /// `text` with its line breaks as spaces, cut to `limit` characters (`…` when cut).
    package static func text(_ text: String, limit: Int = 200) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }
}
