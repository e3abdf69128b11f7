import ProtocolModel
import WireJSON

/// Qwen-Audio-Live (qwen-audio-live.md §7, §8): the client's reactions to the Live events, the
/// answer latency of each turn, and two timelines: the engine's states (`qal.session`) and the
/// turns the wire shows (`qal.turn`, ``LiveTurns``).
struct QwenAudioLiveAnalysis: ProtocolAnalysis {
    func latencySamples(_ transcript: Transcript, extractor: LatencyExtractor) -> [LatencySample] {
        var samples: [LatencySample] = []
        if let created = EntryMatcher.server(QwenAudioLiveServerEvent.sessionCreated.rawValue).first(in: transcript),
            let sample = extractor.reaction(
                LatencyMetric.sessionCreatedToUpdate, transcript, from: created,
                to: .client(QwenAudioLiveClientEvent.sessionUpdate.rawValue))
        {
            samples.append(sample)
        }
        let turns = LiveTurns(transcript)
        if let updated = turns.configured,
            let sample = extractor.reaction(
                LatencyMetric.sessionUpdatedToFirstAppend, transcript, from: updated,
                to: .client(QwenAudioLiveClientEvent.inputAudioAppend.rawValue))
        {
            samples.append(sample)
        }
        for turn in turns.turns {
            if let audio = turn.firstAudio {
                samples.append(
                    Self.sample(LatencyMetric.speechEndToFirstAudio, transcript, from: turn.lastInput, to: audio))
            }
            if turn.bargeIn, let stop = Self.playbackStop(transcript, after: turn.firstInput) {
                samples.append(
                    LatencySample(
                        metric: LatencyMetric.bargeInToPlaybackStop,
                        value: stop - transcript.milliseconds(at: turn.firstInput), evidence: [turn.firstInput]))
            }
        }
        samples += Self.answers(
            transcript, metric: LatencyMetric.sessionEventToOutput,
            trigger: .sessionEvent, id: { $0?["event"]?["item"]?["call_id"]?.stringValue },
            reply: .itemCreate,
            replyID: { json in
                json?["item"]?["type"]?.stringValue == "function_call_output"
                    ? json?["item"]?["call_id"]?.stringValue : nil
            })
        samples += Self.answers(
            transcript, metric: LatencyMetric.delegationToCommentary,
            trigger: .delegationCreated,
            id: { $0?["delegation"]?["id"]?.stringValue ?? $0?["delegation_id"]?.stringValue },
            reply: .commentaryAppend, replyID: { $0?["delegation_id"]?.stringValue })
        return samples
    }

    func stateTimelines(_ transcript: Transcript) -> [StateTimeline] {
        [StateOrderAnalyzer.session(transcript, machine: "qal.session"), LiveTurns(transcript).timeline(transcript)]
    }

    private static func sample(
        _ metric: String, _ transcript: Transcript, from trigger: Int, to reaction: Int
    )
        -> LatencySample
    {
        LatencySample(
            metric: metric, value: transcript.milliseconds(at: reaction) - transcript.milliseconds(at: trigger),
            evidence: [trigger, reaction])
    }

    /// For each server `trigger` with an id, the time to the first client `reply` carrying that id.
    private static func answers(
        _ transcript: Transcript, metric: String, trigger: QwenAudioLiveServerEvent, id: (JSONValue?) -> String?,
        reply: QwenAudioLiveClientEvent, replyID: (JSONValue?) -> String?
    ) -> [LatencySample] {
        let replies = EntryMatcher.client(reply.rawValue).indices(in: transcript)
        return EntryMatcher.server(trigger.rawValue).indices(in: transcript).compactMap { index in
            guard let wanted = id(transcript.journal[index].json),
                let answer = replies.first(where: { $0 > index && replyID(transcript.journal[$0].json) == wanted })
            else { return nil }
            return sample(metric, transcript, from: index, to: answer)
        }
    }

    /// When the adapter reported the playback stopped at or after the entry at `index` (ms): its
    /// `playback_ended`, else its last `audio` event.
    private static func playbackStop(_ transcript: Transcript, after index: Int) -> Double? {
        let start = transcript.milliseconds(at: index)
        let later = transcript.adapterEvents.filter { Double($0.t) / 1000 >= start }
        return (later.first { $0.name == "playback_ended" } ?? later.last { $0.name == "audio" }).map {
            Double($0.t) / 1000
        }
    }
}
