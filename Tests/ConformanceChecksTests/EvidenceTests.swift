import ConformanceChecks
import ProtocolModel
import Testing
import WireJSON

/// Issue 39, without sockets: no check passes on what did not happen, no case passes for a
/// client that showed nothing, and a rate mislabel is told from pacing.
@Suite struct EvidenceTests {
    static let subjects = CaseExampleTests.subjects

    static func evaluate(_ subject: CaseExampleTests.Subject, _ transcript: Transcript) -> CaseEvaluation {
        CaseEvaluator(
            protocolName: subject.suite.definition.protocolName, schemas: RepositoryFiles.schemas, strict: true
        )
        .evaluate(subject.conformanceCase, transcript: transcript)
    }

    /// A session the client opened and left: the server's greeting, the client's close.
    static func connectedAndLeft(_ subject: CaseExampleTests.Subject) -> Transcript {
        var builder = TranscriptBuilder()
        if subject.suite.definition.protocolName == DialogProtocol.qwenRealtime.rawValue {
            builder.server(5, TranscriptBuilder.event(QwenServerEvent.sessionCreated.rawValue))
        }
        builder.entries.append(JournalEntry(t: 10_000, direction: .in, kind: .close))
        return builder.transcript
    }

    @Test(arguments: subjects) func aClientThatOpenedNoSessionFailsEveryCase(_ subject: CaseExampleTests.Subject) {
        let evaluation = Self.evaluate(subject, Transcript(journal: []))
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.checks.contains { $0.actual == "not exercised: the client opened no session" })
        #expect(!evaluation.checks.contains { $0.verdict == .pass && $0.kind != ClientExit.kind })
    }

    @Test(arguments: subjects) func aClientThatSentNothingPassesNothing(_ subject: CaseExampleTests.Subject) {
        let evaluation = Self.evaluate(subject, Self.connectedAndLeft(subject))
        let allowed: [Verdict] = subject.conformanceCase.needsDriving ? [.fail, .unimplemented] : [.fail]
        #expect(allowed.contains(evaluation.verdict), "\(evaluation.checks.map { "\($0.kind) \($0.actual)" })")
        let passes = evaluation.checks.filter { $0.verdict == .pass && $0.kind != ClientExit.kind }
        #expect(passes.isEmpty, "\(passes.map { "\($0.kind): \($0.actual)" })")
    }

    /// A client whose own flow never uses what a case judges (here: no tools, so no function
    /// call) cannot be judged on it: unimplemented, with the reason — not pass, and not fail.
    @Test func aFlowThatNeverUsesTheFeatureIsUnimplemented() throws {
        let subject = try #require(Self.subjects.first { $0.conformanceCase.id == "qrt.tools.001" })
        var builder = TranscriptBuilder()
        builder.server(5, TranscriptBuilder.event(QwenServerEvent.sessionCreated.rawValue))
        builder.client(10, TranscriptBuilder.event(QwenClientEvent.sessionUpdate.rawValue, ["session": [:]]))
        builder.server(15, TranscriptBuilder.event(QwenServerEvent.sessionUpdated.rawValue))
        let evaluation = Self.evaluate(subject, builder.transcript)
        #expect(evaluation.verdict == .unimplemented)
        #expect(
            evaluation.reason?.hasPrefix("the client's own flow does not use what this case judges (no function call")
                == true)
        // The same flow ending on a crash fails.
        var crashed = builder.transcript
        crashed.client = ClientProcessResult(exitCode: 3)
        #expect(Self.evaluate(subject, crashed).verdict == .fail)
    }

    @Test func everyCaseJudgesTheClientsEnd() throws {
        let subject = try #require(Self.subjects.first { $0.conformanceCase.id == "qrt.framing.001" })
        let pass = try SuiteLoader(files: RepositoryFiles.files).example(
            subject.suite, caseID: subject.conformanceCase.id, kind: "pass")
        var crashed = pass
        crashed.client = ClientProcessResult(exitCode: nil, signal: 11, stderrTail: ["Segmentation fault"])
        let evaluation = Self.evaluate(subject, crashed)
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.failedChecks == [ClientExit.exitObligation])
        #expect(evaluation.checks.last?.actual == "ended by signal 11; last stderr line: Segmentation fault")
        var hung = pass
        hung.client = ClientProcessResult(exitCode: nil, timedOut: true)
        #expect(Self.evaluate(subject, hung).failedChecks == [ClientExit.timeoutObligation])
        var exited = pass
        exited.client = ClientProcessResult(exitCode: 139)
        #expect(Self.evaluate(subject, exited).checks.last?.actual == "exit 139")
    }

    @Test func exercisedByMakesAConditionalObligationWaitForItsTrigger() throws {
        let conformanceCase = try ConformanceCase(
            jsonValue: try JSONValue.decode(
                """
                {"id":"qrt.tools.900","title":"t","spec":{"doc":"qwen-realtime","section":"12","level":"MUST","quote":"q"},
                 "obligations":["qrt.C13"],"description":"d","scenario":"function-call","timeoutMs":1000,
                 "checks":[{"kind":"serverViolations","exercisedBy":{"server":"response.function_call_arguments.done"}}]}
                """))
        var builder = TranscriptBuilder()
        builder.client(1, TranscriptBuilder.event("session.update"))
        let evaluator = CaseEvaluator(protocolName: "qwen-realtime", schemas: RepositoryFiles.schemas)
        let idle = evaluator.evaluate(conformanceCase, transcript: builder.transcript)
        #expect(idle.checks[0].verdict == .notExercised)
        #expect(idle.checks[0].actual == "not exercised: server response.function_call_arguments.done never happened")
        // The client's flow sent frames but made no function call: the case cannot apply to it.
        #expect(idle.verdict == .unimplemented)
        builder.server(2, TranscriptBuilder.event("response.function_call_arguments.done", ["call_id": "c1"]))
        #expect(evaluator.evaluate(conformanceCase, transcript: builder.transcript).verdict == .pass)
    }

    @Test func aMatcherCanSelectTheNthOccurrence() throws {
        var builder = TranscriptBuilder()
        builder.server(1, TranscriptBuilder.event("input_audio_buffer.speech_started"))
        builder.server(2, TranscriptBuilder.event("response.created"))
        builder.server(3, TranscriptBuilder.event("input_audio_buffer.speech_started"))
        let second = try EntryMatcher(["server": "input_audio_buffer.speech_started", "occurrence": 2])
        #expect(second.first(in: builder.transcript) == 2)
        #expect(second.indices(in: builder.transcript) == [2])
        #expect(second.first(in: builder.transcript, from: 3) == nil)
        #expect(try EntryMatcher(["server": "x", "occurrence": 3]).first(in: builder.transcript) == nil)
        #expect(throws: CheckParameterError.self) { try EntryMatcher(["server": "x", "occurrence": 0]) }
    }
}

/// ``AudioRateMislabel`` over a whole stream: a steady stream at a mislabel's ratio, and what must not look like one.
@Suite struct AudioRateMislabelTests {
    /// Chunks of `chunkMs` of declared audio every `everyMs`, for `seconds`, with ±`jitterMs`.
    static func stream(
        chunkMs: Double, everyMs: Double, seconds: Double, jitterMs: Double = 0, startMs: Double = 0
    ) -> [UplinkAudio.Chunk] {
        var chunks: [UplinkAudio.Chunk] = []
        var time = startMs
        var index = 0
        while time < startMs + seconds * 1000 {
            let jitter = jitterMs * (index % 2 == 0 ? 1 : -1)
            chunks.append(UplinkAudio.Chunk(index: index, ms: time + jitter, bytes: 640, durationMs: chunkMs))
            time += everyMs
            index += 1
        }
        return chunks
    }

    @Test func twentyFourKilohertzLabelledSixteenIsCaughtJustUnderThePacingLine() throws {
        // 30 ms of "16 kHz" audio (20 ms at 24 kHz) every 20.4 ms: 1.47× real time, as clients seen send it.
        let mislabel = try #require(
            UplinkAudio.rateMislabel(
                Self.stream(chunkMs: 30, everyMs: 20.4, seconds: 3, jitterMs: 1), declaredRate: 16_000)
        )
        #expect(mislabel.likelyRate == 24_000)
        #expect(mislabel.likelyChannels == 1)
        #expect(mislabel.summary.hasPrefix("audio looks like 24 kHz sent as 16 kHz"))
    }

    @Test(arguments: [
        (60.0, 48_000, 1, 16_000), (40.0, 32_000, 1, 16_000), (10.0, 8_000, 1, 16_000),
        (20.0 * 2 / 3, 16_000, 1, 24_000),
    ])
    func commonMislabels(chunkMs: Double, rate: Int, channels: Int, declared: Int) throws {
        let mislabel = try #require(
            UplinkAudio.rateMislabel(Self.stream(chunkMs: chunkMs, everyMs: 20, seconds: 2), declaredRate: declared))
        #expect(mislabel.likelyRate == rate)
        #expect(mislabel.likelyChannels == channels)
    }

    @Test func stereoSentAsMonoIsNamedWhenNoMonoRateFits() throws {
        // 16 kHz mono declared at 22.05 kHz: no; 24 kHz declared, 24 kHz stereo sent: 2×, i.e. 48 kHz mono
        // also fits; a 44.1 kHz declared stream carrying 44.1 kHz stereo (2×, no 88.2 kHz rate) is stereo.
        let mislabel = try #require(
            UplinkAudio.rateMislabel(Self.stream(chunkMs: 40, everyMs: 20, seconds: 2), declaredRate: 44_100))
        #expect(mislabel.likelyRate == 44_100)
        #expect(mislabel.likelyChannels == 2)
        #expect(mislabel.summary.contains("stereo"))
    }

    @Test func correctPacingABurstUploadAndAPreBufferedStartAreNoMislabel() {
        #expect(
            UplinkAudio.rateMislabel(
                Self.stream(chunkMs: 20, everyMs: 20, seconds: 4, jitterMs: 3), declaredRate: 16_000)
                == nil)
        // A file sent as fast as the socket takes it.
        #expect(
            UplinkAudio.rateMislabel(Self.stream(chunkMs: 100, everyMs: 2, seconds: 1), declaredRate: 16_000) == nil)
        // One second pre-buffered at once, then real time.
        let preBuffered =
            Self.stream(chunkMs: 20, everyMs: 0.5, seconds: 0.025)
            + Self.stream(chunkMs: 20, everyMs: 20, seconds: 3, startMs: 30)
        #expect(UplinkAudio.rateMislabel(preBuffered, declaredRate: 16_000) == nil)
        // Too short to call sustained.
        #expect(
            UplinkAudio.rateMislabel(Self.stream(chunkMs: 30, everyMs: 20, seconds: 0.5), declaredRate: 16_000) == nil)
    }
}
