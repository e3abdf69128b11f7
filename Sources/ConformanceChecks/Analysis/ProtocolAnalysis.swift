package import ProtocolModel

/// What the harness reads from one protocol's transcripts: its reaction times and its state
/// timelines. One conforming type per protocol, registered in ``DialogProtocol/analysis``.
package protocol ProtocolAnalysis: Sendable {
    /// The reaction times particular to the protocol (the common ones are the extractor's own).
    func latencySamples(_ transcript: Transcript, extractor: LatencyExtractor) -> [LatencySample]
    /// The timelines of the protocol's state machines, each validated.
    func stateTimelines(_ transcript: Transcript) -> [StateTimeline]
}

extension DialogProtocol {
    /// The protocol's transcript analysis: the one registration of a protocol in ConformanceChecks.
    package var analysis: any ProtocolAnalysis {
        switch self {
        case .multimodalDialog: MultiModalDialogAnalysis()
        case .qwenRealtime: QwenRealtimeAnalysis()
        case .qwenAudioLive: QwenAudioLiveAnalysis()
        }
    }
}
