import ConformanceChecks
import ProtocolModel
import Testing
import WireJSON

/// Each check kind on a transcript that satisfies it and on one that does not.
@Suite struct CheckKindTests {
    static var dialog: TranscriptBuilder {
        var builder = TranscriptBuilder()
        builder.client(10, TranscriptBuilder.directive("Start", action: "run-task"))
        builder.server(30, TranscriptBuilder.output("Started"))
        builder.server(35, TranscriptBuilder.output("DialogStateChanged", ["state": "Listening"]))
        builder.state(35, "Listening")
        for index in 0..<5 { builder.clientAudio(100 + Double(index) * 100, bytes: 3200) }
        builder.client(700, TranscriptBuilder.directive("Stop", action: "finish-task"))
        builder.server(720, TranscriptBuilder.output("Stopped"))
        return builder
    }

    @Test func firstMessageAndFieldEquals() throws {
        let good = Self.dialog.transcript
        #expect(try judge(#"{"kind":"firstMessage","type":"Start"}"#, good).verdict == .pass)
        #expect(
            try judge(
                #"{"kind":"fieldEquals","message":{"client":"Stop"},"pointer":"/header/action","equals":"finish-task"}"#,
                good
            ).verdict == .pass)
        var bad = Self.dialog
        bad.entries.insert(.binaryFrame(t: 1, .in, byteLength: 3200), at: 0)
        let result = try judge(#"{"kind":"firstMessage","type":"Start"}"#, bad.transcript)
        #expect(result.verdict == .fail)
        #expect(result.evidence == [0])
        let should = try judge(
            #"{"kind":"fieldEquals","message":{"client":"Stop"},"pointer":"/header/action","equals":"stop","level":"SHOULD"}"#,
            good)
        #expect(should.verdict == .nonStrict)
    }

    @Test func noMessageAndSequence() throws {
        let check = #"{"kind":"noMessage","message":{"client":"binary"},"before":{"state":"Listening"}}"#
        #expect(try judge(check, Self.dialog.transcript).verdict == .pass)
        var bad = Self.dialog
        bad.clientAudio(20, bytes: 3200)
        bad.entries.sort { $0.t < $1.t }
        #expect(try judge(check, bad.transcript).verdict == .fail)
        let sequence = #"{"kind":"sequence","steps":[{"client":"Start"},{"client":"binary"},{"client":"Stop"}]}"#
        #expect(try judge(sequence, Self.dialog.transcript).verdict == .pass)
        let reversed = #"{"kind":"sequence","steps":[{"client":"Stop"},{"client":"Start"}]}"#
        #expect(try judge(reversed, Self.dialog.transcript).actual.contains("step 2"))
    }

    @Test func respondsWithinMeasuresTheDelay() throws {
        let quick =
            #"{"kind":"respondsWithin","trigger":{"server":"Started"},"reaction":{"client":"binary"},"withinMs":100}"#
        #expect(try judge(quick, Self.dialog.transcript).verdict == .pass)
        let strict =
            #"{"kind":"respondsWithin","trigger":{"server":"Started"},"reaction":{"client":"binary"},"withinMs":50}"#
        let result = try judge(strict, Self.dialog.transcript)
        #expect(result.verdict == .fail)
        #expect(result.actual == "reacted after 70 ms (#1 → #4)")
    }

    @Test func fieldConsistentAndServerViolations() throws {
        let consistent = #"{"kind":"fieldConsistent","pointer":"/header/task_id"}"#
        #expect(try judge(consistent, Self.dialog.transcript).verdict == .pass)
        var bad = Self.dialog
        bad.client(800, TranscriptBuilder.directive("HeartBeat", task: "t2"))
        #expect(try judge(consistent, bad.transcript).verdict == .fail)
        bad.violation(810, "mmd.C8")
        let violations = try judge(#"{"kind":"serverViolations","obligations":["mmd.C8"]}"#, bad.transcript)
        #expect(violations.verdict == .fail)
        #expect(violations.obligation == "mmd.C8")
    }

    @Test func audioFormatAndPacing() throws {
        #expect(try judge(#"{"kind":"audioFormat"}"#, Self.dialog.transcript).verdict == .pass)
        let pacing = #"{"kind":"audioPacing","minChunkMs":50,"maxChunkMs":150,"maxRealTimeFactor":1.5,"maxGapMs":200}"#
        #expect(try judge(pacing, Self.dialog.transcript).verdict == .pass)
        var burst = TranscriptBuilder()
        for _ in 0..<5 { burst.clientAudio(100, bytes: 3201) }
        #expect(try judge(#"{"kind":"audioFormat"}"#, burst.transcript).actual.contains("odd PCM byte length 3201"))
        #expect(try judge(pacing, burst.transcript).verdict == .fail)
    }

    /// Opus frames the server could not summarise (Ogg pages) have an unknown length: their bytes
    /// are not 16-bit samples (issue 11), so a real-time Opus stream is not "8× too slow".
    @Test func unsummarisedOpusIsNotTimedAsPCM() throws {
        var opus = TranscriptBuilder()
        opus.client(
            0,
            DashScopeEnvelope.clientFrame(
                .runTask, taskID: "t1",
                payload: [
                    "input": ["directive": "Start"], "parameters": ["upstream": ["audio_format": "opus"]],
                ]))
        for index in 0..<10 { opus.clientAudio(100 + Double(index) * 100, bytes: 400) }
        let transcript = opus.transcript
        #expect(transcript.declaredUplinkFormat == "opus")
        #expect(transcript.audioMilliseconds(at: 1, sampleRate: 16000) == nil)
        let pacing = #"{"kind":"audioPacing","minChunkMs":50,"maxChunkMs":150}"#
        #expect(try judge(pacing, transcript).verdict == .pass)
        // The same bytes declared as PCM are 12.5 ms chunks: too short.
        var pcm = TranscriptBuilder()
        pcm.client(0, TranscriptBuilder.directive("Start", action: "run-task"))
        for index in 0..<10 { pcm.clientAudio(100 + Double(index) * 100, bytes: 400) }
        #expect(pcm.transcript.audioMilliseconds(at: 1, sampleRate: 16000) == 12.5)
        #expect(try judge(pacing, pcm.transcript).verdict == .fail)
    }

    @Test func stateSequenceAndCloseBehaviour() throws {
        var builder = Self.dialog
        builder.state(750, "Thinking")
        builder.state(760, "Thinking")
        let result = try judge(#"{"kind":"stateSequence","machine":"mmd.dialog"}"#, builder.transcript)
        #expect(result.verdict == .fail)
        #expect(result.actual.hasPrefix("Thinking announced again without a change"))
        let close = #"{"kind":"closeBehaviour","after":{"client":"Stop"}}"#
        #expect(try judge(close, Self.dialog.transcript).verdict == .pass)
        builder.client(900, TranscriptBuilder.directive("HeartBeat"))
        #expect(try judge(close, builder.transcript).verdict == .fail)
    }

    @Test func adapterEventsAndPassiveClients() throws {
        let check = #"{"kind":"adapterEvent","event":"playback_ended","after":{"server":"Stopped"},"withinMs":100}"#
        #expect(try judge(check, Self.dialog.transcript).verdict == .unimplemented)
        var builder = Self.dialog
        builder.adapter(760, "playback_ended")
        #expect(try judge(check, builder.transcript).verdict == .pass)
        var late = Self.dialog
        late.adapter(900, "playback_ended")
        #expect(try judge(check, late.transcript).verdict == .fail)
    }

    /// `during`: a barge-in before any playback began has no playback to stop, so the check
    /// did not see what it judges (not exercised); inside a playback span it is judged.
    @Test func adapterEventDuringASpanJudgesOnlyAnchorsInsideIt() throws {
        let check = #"""
            {"kind":"adapterEvent","event":"playback_ended","after":{"server":"Stopped"},"withinMs":100,
             "during":["playback_started","playback_ended"]}
            """#
        var early = Self.dialog
        early.adapter(900, "playback_started")
        early.adapter(2_000, "playback_ended")
        #expect(try judge(check, early.transcript).verdict == .notExercised)
        var closed = Self.dialog
        closed.adapter(100, "playback_started")
        closed.adapter(200, "playback_ended")
        #expect(try judge(check, closed.transcript).verdict == .notExercised)
        var open = Self.dialog
        open.adapter(100, "playback_started")
        open.adapter(2_000, "playback_ended")
        #expect(try judge(check, open.transcript).verdict == .fail)
        var prompt = Self.dialog
        prompt.adapter(100, "playback_started")
        prompt.adapter(760, "playback_ended")
        #expect(try judge(check, prompt.transcript).verdict == .pass)
        #expect(throws: CheckParameterError.self) {
            try CheckRegistry.decode(
                try JSONValue.decode(#"{"kind":"adapterEvent","event":"x","during":["a"],"after":{"server":"y"}}"#))
        }
    }

    @Test func badParametersAreRejected() {
        #expect(throws: CheckParameterError.self) {
            try CheckRegistry.decode(try JSONValue.decode(#"{"kind":"noMessage"}"#))
        }
        #expect(throws: CheckParameterError.self) {
            try CheckRegistry.decode(try JSONValue.decode(#"{"kind":"sequence","steps":[],"x":1}"#))
        }
        #expect(throws: CheckParameterError.self) {
            try CheckRegistry.decode(try JSONValue.decode(#"{"kind":"custom","name":"nope"}"#))
        }
    }
}
