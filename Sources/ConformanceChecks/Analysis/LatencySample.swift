import ProtocolModel
import WireJSON

/// One reaction-time measurement of a case.
package struct LatencySample: Sendable, Hashable {
    /// The metric name (``LatencyMetric``).
    package var metric: String
    /// Milliseconds (a ratio for `uplink.realTimeFactor`).
    package var value: Double
    /// Journal indices of the trigger and the reaction.
    package var evidence: [Int]

    /// Creates a sample.
    package init(metric: String, value: Double, evidence: [Int] = []) {
        self.metric = metric
        self.value = value
        self.evidence = evidence
    }
}

/// The latency metrics the harness extracts, in report order.
package enum LatencyMetric {
    package static let connectToFirstFrame = "connect.firstFrame"
    package static let listeningToFirstAudio = "listening.firstAudio"
    package static let respondingStartedToLocalStarted = "respondingStarted.localRespondingStarted"
    package static let audioEndToLocalEnded = "downlinkAudioEnd.localRespondingEnded"
    package static let requestAcceptedToPlaybackStop = "requestAccepted.downlinkStop"
    package static let sessionCreatedToUpdate = "sessionCreated.sessionUpdate"
    package static let sessionUpdatedToFirstAppend = "sessionUpdated.firstAppend"
    package static let argumentsDoneToOutput = "functionCallArgumentsDone.output"
    package static let toolResponseDoneToCreate = "toolResponseDone.responseCreate"
    package static let speechStartedToCancel = "bargeIn.speechStarted.cancel"
    /// Qwen-Audio-Live: a function call (`session.event`) → its `function_call_output`.
    package static let sessionEventToOutput = "sessionEvent.functionCallOutput"
    /// Qwen-Audio-Live: a client delegation → `session.commentary.append` with its id.
    package static let delegationToCommentary = "delegation.commentary"
    /// Qwen-Audio-Live: the end of the user's speech (its last transcript piece before the
    /// answer) → the answer's first audio: the service's (the mock's) reaction, not the client's.
    package static let speechEndToFirstAudio = "turn.speechEnd.firstAudio"
    /// Qwen-Audio-Live: the user starts speaking while answer audio plays → the adapter's
    /// playback stops (hook).
    package static let bargeInToPlaybackStop = "bargeIn.inputTranscript.playbackStop"
    package static let uplinkRealTimeFactor = "uplink.realTimeFactor"

    /// Every metric in report order.
    package static let all = [
        connectToFirstFrame, listeningToFirstAudio, respondingStartedToLocalStarted, audioEndToLocalEnded,
        requestAcceptedToPlaybackStop, sessionCreatedToUpdate, sessionUpdatedToFirstAppend, argumentsDoneToOutput,
        toolResponseDoneToCreate, speechStartedToCancel, sessionEventToOutput, delegationToCommentary,
        speechEndToFirstAudio, bargeInToPlaybackStop, uplinkRealTimeFactor,
    ]

    /// The obligation a reaction belongs to, under which a budget overrun is reported; `budget`
    /// for reactions no obligation bounds (a budget on them is the user's own gate).
    package static func obligation(of metric: String, protocolName: String) -> String {
        switch metric {
        case respondingStartedToLocalStarted, audioEndToLocalEnded: return "mmd.C19"
        case requestAcceptedToPlaybackStop: return "mmd.C20"
        case argumentsDoneToOutput, toolResponseDoneToCreate: return "qrt.C13"
        case speechStartedToCancel: return "qrt.C20"
        case sessionEventToOutput: return "qal.C8"
        case delegationToCommentary: return "qal.C9"
        case uplinkRealTimeFactor: return DialogProtocol(rawValue: protocolName)?.audioFormatObligation ?? "budget"
        default: return "budget"
        }
    }

    /// The unit shown in reports.
    package static func unit(_ metric: String) -> String { metric == uplinkRealTimeFactor ? "×" : "ms" }
}

/// Distribution of one metric across cases: nearest-rank percentiles.
package struct LatencyStatistics: Sendable, Hashable {
    /// Number of samples.
    package var count: Int
    package var min: Double
    package var p50: Double
    package var p95: Double
    package var p99: Double
    package var max: Double

    /// Summarises `values` (which must not be empty).
    package init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        func rank(_ percent: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let position = Int((percent / 100 * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, position - 1))]
        }
        min = sorted.first ?? 0
        p50 = rank(50)
        p95 = rank(95)
        p99 = rank(99)
        max = sorted.last ?? 0
    }

    /// Statistics per metric over every sample of `evaluations`.
    package static func aggregate(_ samples: [LatencySample]) -> [String: LatencyStatistics] {
        Dictionary(grouping: samples, by: \.metric).mapValues { LatencyStatistics($0.map(\.value)) }
    }
}
