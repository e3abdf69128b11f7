import ConformanceChecks
import Testing
import WireJSON

/// Latency extraction and the state-order report on hand-made transcripts with known numbers.
@Suite struct AnalysisTests {
    @Test func dialogLatencies() {
        var builder = TranscriptBuilder()
        builder.client(25, TranscriptBuilder.directive("Start", action: "run-task"))
        builder.server(60, TranscriptBuilder.output("Started"))
        builder.server(70, TranscriptBuilder.output("DialogStateChanged", ["state": "Listening"]))
        builder.clientAudio(110, bytes: 3200)
        builder.clientAudio(210, bytes: 3200)
        builder.server(1000, TranscriptBuilder.output("RespondingStarted"))
        builder.client(1045, TranscriptBuilder.directive("LocalRespondingStarted"))
        builder.serverAudio(1050, bytes: 48000, durationMs: 1000)
        builder.adapter(1060, "playback_started")
        builder.serverAudio(1100, bytes: 48000, durationMs: 1000)
        builder.client(3150, TranscriptBuilder.directive("LocalRespondingEnded"))
        builder.server(3200, TranscriptBuilder.output("RequestAccepted"))
        builder.adapter(3280, "playback_ended")
        // An interrupt in Listening has no playback to stop: the next round's end is no sample.
        builder.server(5000, TranscriptBuilder.output("RequestAccepted"))
        builder.adapter(7000, "playback_started")
        builder.adapter(9000, "playback_ended")
        let samples = Dictionary(
            grouping: LatencyExtractor(protocolName: "multimodal-dialog").extract(builder.transcript), by: \.metric)
        #expect(samples[LatencyMetric.connectToFirstFrame]?.map(\.value) == [25])
        #expect(samples[LatencyMetric.listeningToFirstAudio]?.map(\.value) == [40])
        #expect(samples[LatencyMetric.respondingStartedToLocalStarted]?.map(\.value) == [45])
        #expect(samples[LatencyMetric.audioEndToLocalEnded]?.map(\.value) == [100])
        #expect(samples[LatencyMetric.requestAcceptedToPlaybackStop]?.map(\.value) == [80])
        #expect(samples[LatencyMetric.uplinkRealTimeFactor]?.map(\.value) == [1])
    }

    @Test func realtimeLatencies() {
        var builder = TranscriptBuilder()
        builder.server(10, TranscriptBuilder.event("session.created"))
        builder.client(40, TranscriptBuilder.event("session.update"))
        builder.server(60, TranscriptBuilder.event("session.updated"))
        builder.client(90, TranscriptBuilder.event("input_audio_buffer.append", ["audio": "AAAA"]))
        builder.server(500, TranscriptBuilder.event("response.created", ["response": ["id": "r1"]]))
        builder.server(600, TranscriptBuilder.event("response.function_call_arguments.done", ["call_id": "c1"]))
        builder.server(610, TranscriptBuilder.event("response.done", ["response": ["id": "r1"]]))
        builder.client(
            700,
            TranscriptBuilder.event(
                "conversation.item.create", ["item": ["type": "function_call_output", "call_id": "c1", "output": "{}"]])
        )
        builder.client(720, TranscriptBuilder.event("response.create"))
        let samples = Dictionary(
            grouping: LatencyExtractor(protocolName: "qwen-realtime").extract(builder.transcript), by: \.metric)
        #expect(samples[LatencyMetric.sessionCreatedToUpdate]?.map(\.value) == [30])
        #expect(samples[LatencyMetric.sessionUpdatedToFirstAppend]?.map(\.value) == [30])
        #expect(samples[LatencyMetric.argumentsDoneToOutput]?.map(\.value) == [100])
        #expect(samples[LatencyMetric.toolResponseDoneToCreate]?.map(\.value) == [20])
    }

    @Test func percentilesUseNearestRank() {
        let statistics = LatencyStatistics((1...100).map(Double.init))
        #expect(statistics.count == 100)
        #expect(statistics.p50 == 50)
        #expect(statistics.p95 == 95)
        #expect(statistics.p99 == 99)
        #expect(statistics.max == 100)
    }

    @Test func dialogStateOrderMarksTheFirstViolation() {
        var builder = TranscriptBuilder()
        builder.server(10, TranscriptBuilder.output("Started"))
        for (ms, state) in [
            (20.0, "Listening"), (30, "Thinking"), (40, "Responding"), (50, "Thinking"), (60, "Listening"),
        ] { builder.state(ms, state) }
        let timeline = StateOrderAnalyzer.dialog(builder.transcript)
        #expect(timeline.points.map(\.state) == ["Listening", "Thinking", "Responding", "Thinking", "Listening"])
        #expect(timeline.firstViolation == 3)
        #expect(timeline.points[3].note == "Responding → Thinking is not a transition of §8.2")
    }

    @Test func responseLifecycleFlagsOverlappingCreate() {
        var builder = TranscriptBuilder()
        builder.server(10, TranscriptBuilder.event("response.created", ["response": ["id": "r1"]]))
        builder.client(20, TranscriptBuilder.event("response.create"))
        builder.server(30, TranscriptBuilder.event("response.done", ["response": ["id": "r1", "status": "completed"]]))
        let timeline = StateOrderAnalyzer.responses(builder.transcript)
        #expect(timeline.points.map(\.state) == ["InProgress", "client response.create", "Idle"])
        #expect(timeline.firstViolation == 1)
    }
}

@Suite("Repeated runs of a case")
struct CaseRepeatsTests {
    private func run(_ verdict: Verdict, _ latency: Double) -> CaseEvaluation {
        CaseEvaluation(
            caseID: "qrt.x.001", conformanceCase: nil, verdict: verdict,
            latency: [LatencySample(metric: LatencyMetric.speechStartedToCancel, value: latency, evidence: [3, 4])],
            durationMs: latency)
    }

    @Test func theFirstWorstRunRepresentsTheCase() {
        let combined = CaseEvaluation.combining([run(.pass, 10), run(.nonStrict, 20), run(.fail, 30), run(.fail, 40)])
        #expect(combined.verdict == .fail && combined.durationMs == 30)
        let repeats = combined.repeats
        #expect(repeats?.representative == 2)
        #expect(repeats?.isFlaky == true)
        #expect(repeats?.verdictCounts == "pass ×1, nonStrict ×1, fail ×2")
        #expect(repeats?.passRate(strict: false) == 0.5)
        #expect(repeats?.passRate(strict: true) == 0.25)
        let spread = repeats?.latencySpread[LatencyMetric.speechStartedToCancel]
        #expect(spread?.count == 4 && spread?.min == 10 && spread?.max == 40)
        #expect(combined.allLatency.count == 4 && combined.latency.count == 1)
    }

    @Test func aSingleRunIsNotRepeatedAndSameVerdictsAreNotFlaky() {
        #expect(CaseEvaluation.combining([run(.pass, 1)]).repeats == nil)
        #expect(CaseEvaluation.combining([run(.pass, 1), run(.pass, 2)]).repeats?.isFlaky == false)
    }
}
