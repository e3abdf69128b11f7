import ProtocolModel

/// Tells root causes from their cascade within one case: when the mock refuses a frame, the
/// client's flow often stalls and later checks fail too, under other ids. A later finding is a
/// consequence only when an earlier one explains it; two independent bugs are both root causes.
///
/// Findings are taken in the order of their evidence (a violation the mock journaled counts
/// from the client frame that caused it, so another check judging that same frame does not
/// come first; on a tie the mock's record wins, then the earlier entry). The first MUST finding
/// that points at an entry is the root cause. A later MUST finding under another id is its
/// consequence when the root explains it:
/// - it judges the same frame (the mock journals C13 then C17 for one RequestToRespond), or
/// - the mock refused the root's frame (``MessageName/isRefusal(_:)``, or its close, within
///   ``refusalWindowMicros``) before the later finding's evidence: the flow has left the path the
///   later check needed, or
/// - the root is the mock's own record of the breach (its engine took the breaching frame's
///   path: a video connect sent as a transcript request starts an answer) and the later finding
///   is too, or is a reaction of the mock (its output, a state): a judgement the mock made in the
///   state the breach led it to (the next RequestToRespond is "outside Listening").
/// Otherwise the later finding is another root cause (the case's own checks found two breaches
/// in what the client sent), and explains what follows it the same way.
/// A MUST finding about something that never happened (``CheckResult/isAbsence``, or no
/// evidence) cannot be placed after an independent cause: it is a consequence of the first
/// root cause that was refused, else of the first root cause. A SHOULD or MAY finding before
/// any root can explain only *reactions* (MUST findings whose evidence is the mock's own output
/// or a state) and, when no MUST finding points at an entry, the absences: a tolerated deviation
/// can still derail the flow, but it never explains a later offending client frame. SHOULD and
/// MAY findings are never marked.
package enum RootCause {
    /// How long after a frame the mock's refusal of it may come (its answer is immediate; the
    /// window absorbs the engine's scheduling under load).
    package static let refusalWindowMicros: Int64 = 1_000_000

    /// Marks consequences in `checks` and returns the root cause's obligation id (the first
    /// finding's when nothing points at an entry; nil without findings).
    package static func mark(_ checks: inout [CheckResult], transcript: Transcript) -> String? {
        let findings = checks.indices.filter { checks[$0].isFinding }
        guard let firstFinding = findings.first else { return nil }
        let journal = transcript.journal
        /// The earliest evidence entry of each check and its moment (nil for absences and checks
        /// without evidence).
        let first: [(index: Int, moment: Int64)?] = checks.map { check in
            guard !check.isAbsence else { return nil }
            return check.evidence.filter { journal.indices.contains($0) }.map { ($0, moment(of: $0, in: transcript)) }
                .min { $0.1 < $1.1 }
        }
        let concrete = findings.filter { first[$0] != nil }.sorted { lhs, rhs in
            let (left, right) = (first[lhs]!.moment, first[rhs]!.moment)
            if left != right { return left < right }
            let (leftJournaled, rightJournaled) = (isJournaled(checks[lhs].kind), isJournaled(checks[rhs].kind))
            if leftJournaled != rightJournaled { return leftJournaled }
            // Two records of one frame: the first entry first, then check order, so the root
            // cause does not depend on the sort.
            if first[lhs]!.index != first[rhs]!.index { return first[lhs]!.index < first[rhs]!.index }
            return lhs < rhs
        }
        var roots: [(check: Int, refusedAt: Int64?)] = []
        var tolerated: Int?
        for index in concrete {
            let isMust = checks[index].verdict == .fail
            guard isMust else {
                if roots.isEmpty { tolerated = tolerated ?? index }
                continue
            }
            let evidence = first[index]!
            let judgedByTheMock = isJournaled(checks[index].kind) || isReaction(journal[evidence.index])
            let explaining = roots.first { root in
                let rootEvidence = first[root.check]!
                return rootEvidence.index == evidence.index || rootEvidence.moment == evidence.moment
                    || root.refusedAt.map { $0 <= evidence.moment } ?? false
                    || (isJournaled(checks[root.check].kind) && judgedByTheMock)
            }
            if let explaining {
                if checks[index].obligation != checks[explaining.check].obligation {
                    checks[index].consequenceOf = checks[explaining.check].obligation
                }
            } else if roots.isEmpty, let tolerated, isReaction(journal[evidence.index]) {
                checks[index].consequenceOf = checks[tolerated].obligation
            } else {
                roots.append((index, refusal(after: evidence, in: transcript)))
            }
        }
        guard let cause = (roots.first { $0.refusedAt != nil } ?? roots.first)?.check ?? tolerated else {
            let musts = findings.filter { checks[$0].verdict == .fail }
            return musts.first.map { checks[$0].obligation } ?? checks[firstFinding].obligation
        }
        for index in findings
        where first[index] == nil && checks[index].verdict == .fail
            && checks[index].obligation != checks[cause].obligation
        {
            checks[index].consequenceOf = checks[cause].obligation
        }
        if let root = roots.first { return checks[root.check].obligation }
        // A tolerated deviation is the root cause only if it explains something.
        if !checks.contains(where: { $0.consequenceOf != nil }) {
            return findings.first { checks[$0].verdict == .fail }.map { checks[$0].obligation }
                ?? checks[cause].obligation
        }
        return checks[cause].obligation
    }

    /// When the mock refused the frame behind `evidence`: its first refusal (an error event, a
    /// `task-failed`, its close) after the entry and within ``refusalWindowMicros`` of it; nil
    /// when the mock went on.
    static func refusal(after evidence: (index: Int, moment: Int64), in transcript: Transcript) -> Int64? {
        let journal = transcript.journal
        var cursor = evidence.index + 1
        while cursor < journal.count, journal[cursor].t - evidence.moment <= refusalWindowMicros {
            let entry = journal[cursor]
            if entry.direction == .out,
                entry.kind == .close
                    || (entry.kind == .text && transcript.messageType(at: cursor).map(MessageName.isRefusal) == true)
            {
                return entry.t
            }
            cursor += 1
        }
        return nil
    }

    /// Whether an evidence entry is the mock's doing (its output or a state), not a client frame.
    private static func isReaction(_ entry: JournalEntry) -> Bool {
        entry.direction == .out || entry.kind == .state
    }

    /// When an evidence entry happened: a violation the mock journaled counts from the client
    /// frame that caused it (the last inbound frame before it, past states and outbound frames).
    static func moment(of index: Int, in transcript: Transcript) -> Int64 {
        let journal = transcript.journal
        guard journal[index].kind == .violation else { return journal[index].t }
        var cursor = index - 1
        while cursor >= 0,
            journal[cursor].kind == .violation || journal[cursor].kind == .state || journal[cursor].direction == .out
        {
            cursor -= 1
        }
        return cursor >= 0 && journal[cursor].direction == .in ? journal[cursor].t : journal[index].t
    }

    private static func isJournaled(_ kind: String) -> Bool {
        kind == JournaledViolations.kind || kind == ServerViolations.kind
    }
}
