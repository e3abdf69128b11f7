import ScenarioEngine

/// Tells a root cause from its cascade within one case: when the mock rejects a frame, the
/// client's flow often stalls and later checks fail too, under other ids. The earliest MUST
/// finding with evidence is the root cause; every later MUST finding of another obligation, and
/// every MUST finding without evidence (something that never happened), is marked as its
/// consequence. SHOULD and MAY findings stay independent: they rarely stall a flow, and an
/// earlier independent SHOULD breach must not hide a MUST one.
package enum RootCause {
    /// Marks consequences in `checks` and returns the root cause's obligation id (the only
    /// finding's id when there is one obligation; nil without findings).
    package static func mark(_ checks: inout [CheckResult], transcript: Transcript) -> String? {
        let findings = checks.indices.filter { checks[$0].isFinding }
        guard let firstFinding = findings.first else { return nil }
        let times = checks.map { check in
            check.evidence.filter { transcript.journal.indices.contains($0) }.map { moment(of: $0, in: transcript) }.min() ?? .max
        }
        let time = { (index: Int) in times[index] }
        let kinds = checks.map(\.kind)
        let musts = findings.filter { checks[$0].verdict == .fail }
        // Earliest evidence first; on a tie the mock's own record of the violation wins.
        let ranked = musts.filter { time($0) != .max }.sorted { lhs, rhs in
            let (left, right) = (time(lhs), time(rhs))
            if left != right { return left < right }
            return isJournaled(kinds[lhs]) && !isJournaled(kinds[rhs])
        }
        guard let root = ranked.first else {
            return musts.first.map { checks[$0].obligation } ?? checks[firstFinding].obligation
        }
        let rootObligation = checks[root].obligation
        let rootTime = time(root)
        for index in musts where checks[index].obligation != rootObligation && time(index) >= rootTime {
            checks[index].consequenceOf = rootObligation
        }
        return rootObligation
    }

    /// When an evidence entry happened: a violation the mock journaled counts from the client
    /// frame that caused it (the last inbound frame before it), so that another check judging
    /// that same frame does not come "before" the mock's record of it.
    static func moment(of index: Int, in transcript: Transcript) -> Int64 {
        let journal = transcript.journal
        guard journal[index].kind == .violation else { return journal[index].t }
        var cursor = index - 1
        while cursor >= 0, journal[cursor].kind == .violation || journal[cursor].kind == .state || journal[cursor].direction == .out {
            cursor -= 1
        }
        return cursor >= 0 && journal[cursor].direction == .in ? journal[cursor].t : journal[index].t
    }

    private static func isJournaled(_ kind: String) -> Bool {
        kind == JournaledViolations.kind || kind == ServerViolations.kind
    }
}
