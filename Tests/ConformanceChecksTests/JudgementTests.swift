import ConformanceChecks
import ProtocolModel
import Testing
import WireJSON

/// What a case judges beyond its own checks: every violation the mock journaled (under its own
/// id), passive clients on driven cases, and the root cause of a cascade.
@Suite struct JudgementTests {
    static func makeCase(drive: Bool = false, level: String = "MUST", checks: String) throws -> ConformanceCase {
        try ConformanceCase(
            jsonValue: try JSONValue.decode(
                """
                {"id":"mmd.images.900","title":"t","spec":{"doc":"multimodal-dialog","section":"12","level":"\(level)","quote":"q"},
                 "obligations":["mmd.C14"],"description":"d","scenario":"default","timeoutMs":1000,
                 \(drive ? "\"drive\":[{\"cmd\":\"start\"}]," : "")"checks":\(checks)}
                """))
    }

    static let evaluator = CaseEvaluator(protocolName: "multimodal-dialog", schemas: RepositoryFiles.schemas)

    static func violation(_ ms: Double, _ obligation: String, _ level: Violation.Level) -> JournalEntry {
        var entry = JournalEntry(t: Int64(ms * 1000), kind: .violation)
        entry.violation = Violation(obligation: obligation, level: level, "seen")
        return entry
    }

    @Test func violationLevelsTravelInTheMessage() {
        #expect(Violation(obligation: "qrt.C9", level: .should, "commit in VAD").message == "SHOULD: commit in VAD")
        #expect(Violation(obligation: "qrt.C9", level: .should, "x").level == .should)
        #expect(Violation(obligation: "qrt.C2", level: .must, "x").level == .must)
        // Journals recorded before levels: a MUST.
        #expect(Violation(obligation: "qrt.C2", message: "binary frame").level == .must)
    }

    @Test func everyJournaledViolationIsJudgedUnderItsOwnID() throws {
        let conformanceCase = try Self.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("RequestToRespond"))
        builder.entries.append(Self.violation(11, "mmd.C13", .must))
        builder.entries.append(Self.violation(20, "mmd.C23", .should))
        builder.entries.append(Self.violation(30, "mmd.C23", .should))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(evaluation.verdict == .fail)
        let journaled = evaluation.checks.filter { $0.kind == JournaledViolations.kind }
        #expect(journaled.map(\.obligation) == ["mmd.C13", "mmd.C23"])
        #expect(journaled.map(\.verdict) == [.fail, .nonStrict])
        #expect(journaled[1].evidence == [2, 3])
        #expect(journaled[1].actual.hasSuffix("(+1 more)"))
        #expect(evaluation.failedChecks.first == "mmd.C13")
    }

    /// Issue 16: a replayed session's departures and unused recorded frames are SHOULD-level
    /// (nonStrict) unless the run has `--strict-replay`, which makes them fail the case.
    @Test func replayFindingsFailOnlyWithStrictReplay() throws {
        let conformanceCase = try Self.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("HeartBeat"))
        builder.entries.append(Self.violation(11, "replay.unused", .should))
        builder.entries.append(Self.violation(12, "mmd.C23", .should))
        let lenient = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(lenient.verdict == .nonStrict)
        var strict = Self.evaluator
        strict.strictReplay = true
        let judged = strict.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(judged.verdict == .fail)
        let journaled = judged.checks.filter { $0.kind == JournaledViolations.kind }
        #expect(journaled.map(\.obligation) == ["replay.unused", "mmd.C23"])
        #expect(journaled.map(\.verdict) == [.fail, .nonStrict])  // only the replay finding is upgraded
    }

    /// A case's own `serverViolations` check judges a journaled SHOULD at the SHOULD level: a
    /// MUST case that only sees SHOULD breaches of its obligation is nonStrict, never failed.
    @Test func aServerViolationsCheckNeverJudgesAboveTheViolationsLevel() throws {
        let conformanceCase = try Self.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("HeartBeat"))
        builder.entries.append(Self.violation(11, "mmd.C14", .should))
        let lenient = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(lenient.checks.first?.verdict == .nonStrict)
        #expect(lenient.verdict == .nonStrict)
        builder.entries.append(Self.violation(12, "mmd.C14", .must))
        let strict = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(strict.checks.first?.verdict == .fail)
        #expect(strict.checks.first?.evidence == [1, 2])
        #expect(strict.checks.first?.actual.hasPrefix("mmd.C14: MUST: seen") == true)
    }

    @Test func aViolationTheCaseAlreadyReportsIsNotRepeated() throws {
        let conformanceCase = try Self.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        var builder = TranscriptBuilder()
        builder.entries.append(Self.violation(11, "mmd.C14", .must))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(evaluation.checks.map(\.kind) == ["serverViolations", ClientExit.kind])
        #expect(evaluation.rootCause == "mmd.C14")
        #expect(evaluation.consequences.isEmpty)
    }

    @Test func aPassiveClientOnADrivenCaseIsJudgedOnWhatNeedsNoDrive() throws {
        let conformanceCase = try Self.makeCase(
            drive: true,
            checks: """
                [{"kind":"fieldEquals","message":{"client":"RequestToRespond"},"pointer":"/payload/parameters/images/0/type","oneOf":["url","base64"]},
                 {"kind":"serverViolations"}, {"kind":"matchesSchema"}]
                """)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("RequestToRespond"))
        builder.entries.append(Self.violation(11, "mmd.C14", .must))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.checks[0].verdict == .notExercised)
        #expect(evaluation.checks[0].actual.hasSuffix(CaseEvaluator.needsDrive))
        #expect(evaluation.checks[1].verdict == .fail)
        #expect(evaluation.failedChecks == ["mmd.C14"])
        #expect(evaluation.reason?.contains("1 of 3 checks not exercised") == true)
    }

    @Test func aPassiveClientLeavingNothingToJudgeIsUnimplemented() throws {
        let conformanceCase = try Self.makeCase(
            drive: true,
            checks: """
                [{"kind":"fieldEquals","message":{"client":"RequestToRespond"},"pointer":"/payload/parameters/images/0/type","oneOf":["url"]}]
                """)
        // No session at all is not "cannot apply": the client failed to connect.
        let nothing = Self.evaluator.evaluate(conformanceCase, transcript: Transcript(journal: []))
        #expect(nothing.verdict == .fail)
        #expect(nothing.checks.contains { $0.actual == "not exercised: the client opened no session" })
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("HeartBeat"))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(evaluation.verdict == .unimplemented)
        // A violation the mock journaled is still a finding.
        builder.entries.append(Self.violation(11, "mmd.C6", .must))
        #expect(Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript).verdict == .fail)
    }

    @Test func theMockRecordOfAFrameIsTheRootCauseOfOtherChecksOnIt() throws {
        // A check judging the same offending frame (#0) is not "earlier" than the mock's record (#1).
        let conformanceCase = try Self.makeCase(
            checks: """
                [{"kind":"fieldEquals","message":{"client":"RequestToRespond"},"pointer":"/payload/parameters/videos","exists":true},
                 {"kind":"sequence","steps":[{"client":"Stop"}]}]
                """)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("RequestToRespond"))
        builder.entries.append(Self.violation(10.2, "mmd.C13", .must))
        builder.server(12, TranscriptBuilder.output("Error"))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(evaluation.rootCause == "mmd.C13")
        #expect(evaluation.checks.filter(\.isFinding).map(\.consequenceOf) == ["mmd.C13", "mmd.C13", nil])
        #expect(evaluation.failedChecks == ["mmd.C13", "mmd.C14"])
    }

    /// Issue 39 point 5: consequences by cause, not by time. Two MUST breaches the mock let pass
    /// (no refusal between them) are both root causes; SHOULD ones are never marked.
    @Test func independentMustFindingsAreBothRootCauses() throws {
        let evaluation = Self.evaluator.evaluate(
            try Self.twoBreachesCase, transcript: Self.twoBreaches(refusingTheFirst: false).transcript)
        // The earlier SHOULD breach (C23) is not the root cause; the C14 frame (t=10) is. The
        // mock went on after it, so the later C6 frame is a bug of its own.
        #expect(evaluation.rootCause == "mmd.C14")
        #expect(evaluation.checks.filter(\.isFinding).map(\.consequenceOf) == [nil, nil, nil, nil])
        #expect(evaluation.failedChecks == ["mmd.C14", "mmd.C23", "mmd.C6", "mmd.C21"])
        #expect(evaluation.consequences.isEmpty)
    }

    /// The same breaches, but the mock refused the first frame (an `Error` right after it): the
    /// later MUST finding follows from it.
    @Test func aMustFindingAfterARefusedFrameIsItsConsequence() throws {
        let evaluation = Self.evaluator.evaluate(
            try Self.twoBreachesCase, transcript: Self.twoBreaches(refusingTheFirst: true).transcript)
        #expect(evaluation.rootCause == "mmd.C14")
        #expect(evaluation.checks.filter(\.isFinding).map(\.consequenceOf) == [nil, nil, "mmd.C14", nil])
        #expect(evaluation.failedChecks == ["mmd.C14", "mmd.C23", "mmd.C21", "mmd.C6"])
        #expect(evaluation.consequences == ["mmd.C6"])
    }

    /// A refusal long after the frame (beyond ``RootCause/refusalWindowMicros``) answers something else.
    @Test func aLateErrorIsNoRefusalOfTheEarlierFrame() throws {
        var builder = Self.twoBreaches(refusingTheFirst: false)
        builder.server(10 + Double(RootCause.refusalWindowMicros) / 1000 + 5, TranscriptBuilder.output("Error"))
        builder.entries.sort { $0.t < $1.t }
        let evaluation = Self.evaluator.evaluate(try Self.twoBreachesCase, transcript: builder.transcript)
        #expect(evaluation.consequences.isEmpty)
    }

    static var twoBreachesCase: ConformanceCase {
        get throws {
            try makeCase(
                checks: """
                    [{"kind":"fieldEquals","message":{"client":"RequestToRespond"},"pointer":"/payload/parameters/videos","exists":true}]
                    """)
        }
    }

    static func twoBreaches(refusingTheFirst: Bool) -> TranscriptBuilder {
        var builder = TranscriptBuilder()
        builder.entries.append(violation(1, "mmd.C23", .should))
        builder.client(10, TranscriptBuilder.directive("RequestToRespond"))
        if refusingTheFirst { builder.server(10.5, TranscriptBuilder.output("Error")) }
        builder.client(20, TranscriptBuilder.directive("HeartBeat", task: "other"))
        builder.entries.append(violation(20.1, "mmd.C6", .must))
        builder.entries.append(violation(30, "mmd.C21", .should))
        return builder
    }
}

extension JudgementTests {
    @Test func aViolationTheCaseExcusesIsListedAsAPassWithItsReason() throws {
        var conformanceCase = try Self.makeCase(checks: #"[{"kind":"serverViolations"}]"#)
        conformanceCase.excusedViolations = [
            ExcusedViolation(obligation: "mmd.C11", level: .should, why: "the stall holds SpeechEnded")
        ]
        var builder = TranscriptBuilder()
        builder.entries.append(Self.violation(11, "mmd.C11", .should))
        builder.entries.append(Self.violation(12, "mmd.C11", .must))
        let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        let journaled = evaluation.checks.filter { $0.kind == JournaledViolations.kind }
        #expect(journaled.map(\.verdict) == [.pass, .fail])
        #expect(journaled[0].actual.hasPrefix("excused by the case (the stall holds SpeechEnded)"))
        #expect(evaluation.failedChecks == ["mmd.C11"])
    }

    @Test func excusedViolationsAreDecodedWithTheirLevel() throws {
        let conformanceCase = try ConformanceCase(
            jsonValue: try JSONValue.decode(
                """
                {"id":"mmd.faults.900","title":"t","spec":{"doc":"multimodal-dialog","section":"12","level":"MUST","quote":"q"},
                 "obligations":["mmd.C21"],"description":"d","scenario":"default","timeoutMs":1000,
                 "excusedViolations":[{"obligation":"mmd.C11","level":"SHOULD","why":"stall"}],
                 "checks":[{"kind":"serverViolations"}]}
                """))
        #expect(
            conformanceCase.excusedViolations == [ExcusedViolation(obligation: "mmd.C11", level: .should, why: "stall")]
        )
        #expect(throws: CaseDecodingError.self) {
            try ConformanceCase(
                jsonValue: try JSONValue.decode(
                    """
                    {"id":"mmd.faults.900","title":"t","spec":{"doc":"multimodal-dialog","section":"12","level":"MUST","quote":"q"},
                     "obligations":["mmd.C21"],"description":"d","scenario":"default","timeoutMs":1000,
                     "excusedViolations":[{"obligation":"mmd.C11","level":"MAYBE","why":"stall"}],
                     "checks":[{"kind":"serverViolations"}]}
                    """))
        }
    }

    @Test func ofTwoRecordsOfOneFrameTheFirstIsTheRootCause() throws {
        // The mock journals C13 then C17 for one RequestToRespond (a command round): C13 is the
        // root, whichever check (the case's own C17 one first) judges it.
        let conformanceCase = try Self.makeCase(
            checks: """
                [{"kind":"serverViolations","obligations":["mmd.C17"]}]
                """)
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("RequestToRespond"))
        builder.entries.append(Self.violation(10.1, "mmd.C13", .must))
        builder.entries.append(Self.violation(10.1, "mmd.C17", .must))
        for _ in 0..<20 {
            let evaluation = Self.evaluator.evaluate(conformanceCase, transcript: builder.transcript)
            #expect(evaluation.rootCause == "mmd.C13")
            #expect(evaluation.consequences == ["mmd.C17"])
        }
    }
}
