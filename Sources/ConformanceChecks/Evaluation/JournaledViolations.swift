import ProtocolModel

/// Every violation the mock journaled during a case, judged under the violated obligation's own
/// id whatever the case checks: MUST ones fail, SHOULD ones are nonStrict, the frame's
/// violation entry is the evidence. A case's own check that already found the same obligation
/// at the same level is not repeated; one the case excuses (its own faults cause it) is listed
/// as a pass with the reason.
package enum JournaledViolations {
    /// The check kind of these results in reports.
    package static let kind = "journaledViolation"

    /// The obligations a replayed (`recorded:`) session reports: a client frame that departs
    /// from the recording, recorded server frames left unused.
    package static let replayObligations: Set<String> = ["replay.departure", "replay.unused"]

    /// Results for the violations in `transcript` that `reported` does not already name.
    /// - Parameter strictReplay: `--strict-replay`: replay departures and unused frames are
    ///   judged as MUST (they fail the run) instead of SHOULD.
    package static func results(
        _ transcript: Transcript, reported: [CheckResult], excused: [ExcusedViolation] = [],
        strictReplay: Bool = false
    ) -> [CheckResult] {
        var groups: [(obligation: String, level: Violation.Level, indices: [Int])] = []
        for (index, entry) in transcript.journal.enumerated() {
            guard var violation = entry.violation, !violation.obligation.isEmpty else { continue }
            if strictReplay, replayObligations.contains(violation.obligation), violation.level == .should {
                violation.message =
                    Violation.Level.must.prefix
                    + violation.message.dropFirst(
                        Violation.Level.should.prefix.count)
            }
            if let group = groups.firstIndex(where: {
                $0.obligation == violation.obligation && $0.level == violation.level
            }) {
                groups[group].indices.append(index)
            } else {
                groups.append((violation.obligation, violation.level, [index]))
            }
        }
        return groups.compactMap { group in
            let verdict = requirementLevel(group.level).failureVerdict
            guard !reported.contains(where: { $0.obligation == group.obligation && $0.verdict == verdict }) else {
                return nil
            }
            let first = transcript.journal[group.indices[0]].violation?.message ?? ""
            let more = group.indices.count > 1 ? " (+\(group.indices.count - 1) more)" : ""
            let expected = "no \(group.level.rawValue) violation of \(group.obligation) recorded by the mock"
            if let excuse = excused.first(where: { $0.obligation == group.obligation && $0.level == group.level }) {
                return CheckResult(
                    kind: kind, obligation: group.obligation, verdict: .pass, expected: expected,
                    actual: "excused by the case (\(excuse.why)): \(first)\(more)", evidence: group.indices)
            }
            return CheckResult(
                kind: kind, obligation: group.obligation, verdict: verdict, expected: expected,
                actual: "\(group.obligation): \(first)\(more)", evidence: group.indices)
        }
    }

    static func requirementLevel(_ level: Violation.Level) -> RequirementLevel {
        switch level {
        case .must: .must
        case .should: .should
        }
    }
}
