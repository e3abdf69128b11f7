import ProtocolModel

/// Tells a root cause from its cascade within one case: when the mock rejects a frame, the
/// client's flow often stalls and later checks fail too, under other ids.
///
/// Findings are taken in the order of their evidence (a violation the mock journaled counts
/// from the client frame that caused it, so another check judging that same frame does not
/// come first; on a tie the mock's record wins, then the earlier entry). The first MUST finding that points at an
/// entry is the root cause; every later MUST finding under another id, and every MUST finding
/// about something that never happened (``CheckResult/isAbsence``, or no evidence), is marked
/// as its consequence. A SHOULD or MAY finding before it can explain only *reactions* (MUST
/// findings whose evidence is the mock's own output or a state) and, when no MUST finding
/// points at an entry, the absences: a tolerated deviation can still derail the flow, but it
/// never explains a later offending client frame, so an earlier independent SHOULD breach
/// does not hide a MUST one. SHOULD and MAY findings are never marked.
package enum RootCause {
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
            // Two records of one frame (the mock journals C13 then C17 for one RequestToRespond):
            // the first entry first, then check order, so the root cause does not depend on the sort.
            if first[lhs]!.index != first[rhs]!.index { return first[lhs]!.index < first[rhs]!.index }
            return lhs < rhs
        }
        var root: Int?
        var tolerated: Int?
        for index in concrete {
            let isMust = checks[index].verdict == .fail
            if let root {
                if isMust, checks[index].obligation != checks[root].obligation {
                    checks[index].consequenceOf = checks[root].obligation
                }
            } else if !isMust {
                tolerated = tolerated ?? index
            } else if let tolerated, isReaction(journal[first[index]!.index]) {
                checks[index].consequenceOf = checks[tolerated].obligation
            } else {
                root = index
            }
        }
        guard let cause = root ?? tolerated else {
            let musts = findings.filter { checks[$0].verdict == .fail }
            return musts.first.map { checks[$0].obligation } ?? checks[firstFinding].obligation
        }
        for index in findings
        where first[index] == nil && checks[index].verdict == .fail
            && checks[index].obligation != checks[cause].obligation
        {
            checks[index].consequenceOf = checks[cause].obligation
        }
        // A tolerated deviation is the root cause only if it explains something.
        if root == nil, !checks.contains(where: { $0.consequenceOf != nil }) {
            return findings.first { checks[$0].verdict == .fail }.map { checks[$0].obligation }
                ?? checks[cause].obligation
        }
        return checks[cause].obligation
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
