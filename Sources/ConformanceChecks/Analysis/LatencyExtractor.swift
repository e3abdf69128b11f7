import ProtocolModel
import WireJSON

/// Extracts the client's reaction times from a transcript (and adapter events).
package struct LatencyExtractor: Sendable {
    /// A ``DialogProtocol`` name; another name yields only the protocol-independent samples.
    package var protocolName: String

    /// Creates an extractor.
    package init(protocolName: String) { self.protocolName = protocolName }

    /// Every sample the transcript yields.
    package func extract(_ transcript: Transcript) -> [LatencySample] {
        var samples: [LatencySample] = []
        if let first = transcript.clientFrameIndices.first {
            samples.append(
                LatencySample(
                    metric: LatencyMetric.connectToFirstFrame, value: transcript.milliseconds(at: first),
                    evidence: [first]))
        }
        guard let dialogProtocol = DialogProtocol(rawValue: protocolName) else { return samples }
        samples += dialogProtocol.analysis.latencySamples(transcript, extractor: self)
        let source = dialogProtocol.descriptor.uplinkAudioSource
        if let factor = UplinkAudio(transcript, source: source, sampleRate: uplinkRate(transcript)).realTimeFactor,
            factor.isFinite
        {
            samples.append(LatencySample(metric: LatencyMetric.uplinkRealTimeFactor, value: factor))
        }
        return samples
    }

    /// The time from `trigger` to the first `reaction` after it (before `limit`), as a sample.
    func reaction(
        _ metric: String, _ transcript: Transcript, from trigger: Int, to reaction: EntryMatcher,
        before limit: Int? = nil
    ) -> LatencySample? {
        guard let answer = reaction.first(in: transcript, from: trigger + 1), answer < (limit ?? Int.max) else {
            return nil
        }
        return LatencySample(
            metric: metric, value: transcript.milliseconds(at: answer) - transcript.milliseconds(at: trigger),
            evidence: [trigger, answer])
    }

    /// The uplink sample rate declared by the client (Start or session.update), default 16 kHz.
    func uplinkRate(_ transcript: Transcript) -> Int {
        for index in transcript.clientFrameIndices {
            let json = transcript.journal[index].json
            if let rate = DashScopeEnvelope.parameters(of: json)?["upstream"]?["sample_rate"]?.intValue {
                return Int(rate)
            }
            if let rate = json?["session"]?["input_audio_format"]?["sample_rate"]?.intValue { return Int(rate) }
        }
        return 16000
    }

    /// The downlink sample rate the client asked for (default 24 kHz, both protocols).
    func downlinkRate(_ transcript: Transcript) -> Int {
        for index in transcript.clientFrameIndices {
            if let rate = DashScopeEnvelope.parameters(of: transcript.journal[index].json)?["downstream"]?[
                "sample_rate"]?
                .intValue
            {
                return Int(rate)
            }
        }
        return 24000
    }
}
