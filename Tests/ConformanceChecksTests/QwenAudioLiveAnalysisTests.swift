import ConformanceChecks
import ProtocolModel
import Testing
import WireJSON

/// Qwen-Audio-Live latencies and timelines (issue 42) on a hand-made session with known numbers:
/// configure, a turn, a barge-in during the answer's audio, a function call, a client delegation,
/// the end.
@Suite struct QwenAudioLiveAnalysisTests {
    static let live = DialogProtocol.qwenAudioLive.rawValue
    /// 100 ms of 24 kHz PCM16 (4800 bytes), base64.
    static let answerAudio = String(repeating: "A", count: 6400)
    /// 75 ms of 16 kHz PCM16 (2400 bytes), base64.
    static let userAudio = String(repeating: "A", count: 3200)

    static var session: TranscriptBuilder {
        var builder = TranscriptBuilder()
        builder.server(10, TranscriptBuilder.event("session.created"))
        builder.client(40, TranscriptBuilder.event("session.update", ["event_id": "u1"]))
        builder.server(60, TranscriptBuilder.event("session.updated", ["client_event_id": "u1"]))
        builder.client(90, TranscriptBuilder.event("session.input_audio.append", ["audio": .string(userAudio)]))
        builder.client(165, TranscriptBuilder.event("session.input_audio.append", ["audio": .string(userAudio)]))
        builder.server(300, TranscriptBuilder.event("session.input_transcript.delta", ["delta": "Hello "]))
        builder.server(500, TranscriptBuilder.event("session.input_transcript.delta", ["delta": "there"]))
        builder.server(900, TranscriptBuilder.event("session.output_audio.delta", ["delta": .string(answerAudio)]))
        builder.server(1000, TranscriptBuilder.event("session.output_audio.delta", ["delta": .string(answerAudio)]))
        // The audio plays until 1100 ms: the user speaking at 1050 barges in.
        builder.server(1050, TranscriptBuilder.event("session.input_transcript.delta", ["delta": "Wait"]))
        builder.adapter(1080, "playback_ended", ["reason": "barge_in"])
        builder.server(
            1400,
            TranscriptBuilder.event(
                "session.event", ["event": ["item": ["type": "function_call", "call_id": "c1", "name": "get_weather"]]])
        )
        builder.client(
            1500,
            TranscriptBuilder.event(
                "session.item.create", ["item": ["type": "function_call_output", "call_id": "c1", "output": "{}"]]))
        builder.server(
            1600,
            TranscriptBuilder.event("session.delegation.created", ["delegation": ["id": "d1", "target": "client"]]))
        builder.client(
            1900, TranscriptBuilder.event("session.commentary.append", ["delegation_id": "d1", "content": "ok"]))
        builder.server(2000, TranscriptBuilder.event("session.closed", ["reason": "close_requested"]))
        return builder
    }

    @Test func liveLatencies() {
        let samples = Dictionary(
            grouping: LatencyExtractor(protocolName: Self.live).extract(Self.session.transcript), by: \.metric)
        #expect(samples[LatencyMetric.sessionCreatedToUpdate]?.map(\.value) == [30])
        #expect(samples[LatencyMetric.sessionUpdatedToFirstAppend]?.map(\.value) == [30])
        // From the last transcript piece before the answer (500 ms) to its first audio (900 ms).
        #expect(samples[LatencyMetric.speechEndToFirstAudio]?.map(\.value) == [400])
        #expect(samples[LatencyMetric.bargeInToPlaybackStop]?.map(\.value) == [30])
        #expect(samples[LatencyMetric.sessionEventToOutput]?.map(\.value) == [100])
        #expect(samples[LatencyMetric.delegationToCommentary]?.map(\.value) == [300])
        // The uplink is read from session.input_audio.append: 75 ms of audio every 75 ms.
        #expect(samples[LatencyMetric.uplinkRealTimeFactor]?.map(\.value) == [1])
        #expect(LatencyMetric.obligation(of: LatencyMetric.sessionEventToOutput, protocolName: Self.live) == "qal.C8")
        #expect(LatencyMetric.obligation(of: LatencyMetric.delegationToCommentary, protocolName: Self.live) == "qal.C9")
        #expect(LatencyMetric.obligation(of: LatencyMetric.uplinkRealTimeFactor, protocolName: Self.live) == "qal.C6")
    }

    @Test func theTurnTimelineFollowsTheWire() throws {
        let timelines = StateOrderAnalyzer.timelines(protocolName: Self.live, transcript: Self.session.transcript)
        #expect(timelines.map(\.machine) == ["qal.session", "qal.turn"])
        let turns = try #require(timelines.last)
        #expect(turns.points.map(\.state) == ["Configured", "Listening", "Speaking", "BargeIn", "Closed"])
        #expect(turns.isValid)
    }

    /// Audio before `session.updated` (qal.C4) and a state after `session.closed` are illegal steps.
    @Test func earlyAudioAndLateTurnsAreIllegal() throws {
        var builder = TranscriptBuilder()
        builder.server(10, TranscriptBuilder.event("session.created"))
        builder.client(40, TranscriptBuilder.event("session.update", ["event_id": "u1"]))
        builder.client(45, TranscriptBuilder.event("session.input_audio.append", ["audio": .string(Self.userAudio)]))
        builder.server(60, TranscriptBuilder.event("session.updated", ["client_event_id": "u1"]))
        builder.server(100, TranscriptBuilder.event("session.closed", ["reason": "expired"]))
        builder.server(150, TranscriptBuilder.event("session.input_transcript.delta", ["delta": "late"]))
        let turns = try #require(
            StateOrderAnalyzer.timelines(protocolName: Self.live, transcript: builder.transcript).last)
        let illegal = turns.points.filter { !$0.legal }
        #expect(illegal.map(\.state) == ["client session.input_audio.append", "Listening"])
        #expect(illegal.first?.note?.contains("qal.C4") == true)
        #expect(illegal.last?.note == "Listening after session.closed")
    }

    @Test func stateSequenceAcceptsTheLiveMachines() throws {
        let result = try judge(
            #"{"kind": "stateSequence", "machine": "qal.turn", "contains": ["Configured", "Speaking", "Closed"]}"#,
            Self.session.transcript, protocolName: Self.live)
        #expect(result.verdict == .pass, "\(result.actual)")
    }
}
