/// Multimodal dialog: the dialog's latency anchors and its §8 state machine.
struct MultiModalDialogAnalysis: ProtocolAnalysis {
    func latencySamples(_ transcript: Transcript, extractor: LatencyExtractor) -> [LatencySample] {
        extractor.dialogSamples(transcript)
    }

    func stateTimelines(_ transcript: Transcript) -> [StateTimeline] { [StateOrderAnalyzer.dialog(transcript)] }
}
