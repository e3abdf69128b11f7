/// Qwen-Audio-Live: its reaction times and state timelines.
struct QwenAudioLiveAnalysis: ProtocolAnalysis {
    func latencySamples(_ transcript: Transcript, extractor: LatencyExtractor) -> [LatencySample] {
        extractor.realtimeSamples(transcript)
    }

    func stateTimelines(_ transcript: Transcript) -> [StateTimeline] {
        [StateOrderAnalyzer.session(transcript)]
    }
}
