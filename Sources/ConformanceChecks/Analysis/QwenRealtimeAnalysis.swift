/// Qwen realtime: the realtime latency anchors, the engine states (§7.1) and one response at a
/// time (§7.2).
struct QwenRealtimeAnalysis: ProtocolAnalysis {
    func latencySamples(_ transcript: Transcript, extractor: LatencyExtractor) -> [LatencySample] {
        extractor.realtimeSamples(transcript)
    }

    func stateTimelines(_ transcript: Transcript) -> [StateTimeline] {
        [StateOrderAnalyzer.session(transcript), StateOrderAnalyzer.responses(transcript)]
    }
}
