import ProtocolModel
import WireJSON

extension LatencyExtractor {
    /// Multimodal dialog: Listening → first audio, RespondingStarted → LocalRespondingStarted,
    /// end of downlink audio → LocalRespondingEnded, RequestAccepted → downlink consumption stops.
    func dialogSamples(_ transcript: Transcript) -> [LatencySample] {
        var samples: [LatencySample] = []
        let listening =
            EntryMatcher.server(MultiModalDialogEvent.dialogStateChanged.rawValue).indices(in: transcript).first {
                DashScopeEnvelope.output(of: transcript.journal[$0].json)?["state"]?.stringValue == "Listening"
            } ?? transcript.firstIndex { $0.kind == .state && $0.state == "Listening" }
        if let listening,
            let sample = reaction(
                LatencyMetric.listeningToFirstAudio, transcript, from: listening, to: .client("binary"))
        {
            samples.append(sample)
        }
        let rounds = EntryMatcher.server(MultiModalDialogEvent.respondingStarted.rawValue).indices(in: transcript)
        let rate = downlinkRate(transcript)
        for (number, start) in rounds.enumerated() {
            let next = number + 1 < rounds.count ? rounds[number + 1] : nil
            if let sample = reaction(
                LatencyMetric.respondingStartedToLocalStarted, transcript, from: start,
                to: .client(Directive.localRespondingStarted.rawValue), before: next)
            {
                samples.append(sample)
            }
            let upper = next ?? transcript.journal.count
            let audio = (start..<upper).filter {
                transcript.journal[$0].kind == .binary && transcript.journal[$0].direction == .out
            }
            guard let first = audio.first,
                let ended = EntryMatcher.client(Directive.localRespondingEnded.rawValue).first(
                    in: transcript, from: start + 1),
                ended < upper
            else { continue }
            let duration = audio.reduce(0.0) { $0 + (transcript.audioMilliseconds(at: $1, sampleRate: rate) ?? 0) }
            let playbackEnd = max(
                transcript.milliseconds(at: first) + duration, transcript.milliseconds(at: audio[audio.count - 1]))
            samples.append(
                LatencySample(
                    metric: LatencyMetric.audioEndToLocalEnded, value: transcript.milliseconds(at: ended) - playbackEnd,
                    evidence: [audio[audio.count - 1], ended]))
        }
        for accepted in EntryMatcher.server(MultiModalDialogEvent.requestAccepted.rawValue).indices(in: transcript) {
            let acceptedMs = transcript.milliseconds(at: accepted)
            // Only an interrupt during playback has a playback to stop (one in Listening has
            // none: the next playback_ended would be a later round's).
            let before = transcript.adapterEvents.last {
                Double($0.t) / 1000 < acceptedMs && ($0.name == "playback_started" || $0.name == "playback_ended")
            }
            guard before?.name == "playback_started" else { continue }
            let later = transcript.adapterEvents.filter { Double($0.t) / 1000 >= acceptedMs }
            let stop = later.first { $0.name == "playback_ended" } ?? later.last { $0.name == "audio" }
            if let stop {
                samples.append(
                    LatencySample(
                        metric: LatencyMetric.requestAcceptedToPlaybackStop, value: Double(stop.t) / 1000 - acceptedMs,
                        evidence: [accepted]))
            }
        }
        return samples
    }

    /// Qwen realtime: session.created → session.update, session.updated → first append,
    /// arguments.done → function_call_output, tool response.done → response.create,
    /// barge-in speech_started → response.cancel (or the adapter's playback stop).
    func realtimeSamples(_ transcript: Transcript) -> [LatencySample] {
        var samples: [LatencySample] = []
        if let created = EntryMatcher.server(QwenServerEvent.sessionCreated.rawValue).first(in: transcript),
            let sample = reaction(
                LatencyMetric.sessionCreatedToUpdate, transcript, from: created,
                to: .client(QwenClientEvent.sessionUpdate.rawValue))
        {
            samples.append(sample)
        }
        if let updated = EntryMatcher.server(QwenServerEvent.sessionUpdated.rawValue).first(in: transcript),
            let sample = reaction(
                LatencyMetric.sessionUpdatedToFirstAppend, transcript, from: updated,
                to: .client(QwenClientEvent.inputAudioBufferAppend.rawValue))
        {
            samples.append(sample)
        }
        for done in EntryMatcher.server(QwenServerEvent.responseFunctionCallArgumentsDone.rawValue).indices(
            in: transcript)
        {
            let callID = transcript.journal[done].json?["call_id"]?.stringValue ?? ""
            let output = EntryMatcher.client(QwenClientEvent.conversationItemCreate.rawValue).indices(
                in: transcript, from: done + 1
            ).first {
                transcript.journal[$0].json?["item"]?["call_id"]?.stringValue == callID
            }
            if let output {
                samples.append(
                    LatencySample(
                        metric: LatencyMetric.argumentsDoneToOutput,
                        value: transcript.milliseconds(at: output) - transcript.milliseconds(at: done),
                        evidence: [done, output]))
            }
            if let responseDone = EntryMatcher.server(QwenServerEvent.responseDone.rawValue).first(
                in: transcript, from: done + 1),
                let sample = reaction(
                    LatencyMetric.toolResponseDoneToCreate, transcript, from: max(responseDone, output ?? 0),
                    to: .client(QwenClientEvent.responseCreate.rawValue))
            {
                samples.append(sample)
            }
        }
        let timeline = StateOrderAnalyzer.responses(transcript)
        for speech in EntryMatcher.server(QwenServerEvent.inputAudioBufferSpeechStarted.rawValue).indices(
            in: transcript)
        {
            let inResponse =
                timeline.points.last { $0.index < speech && ($0.state == "InProgress" || $0.state == "Idle") }?.state
                == "InProgress"
            guard inResponse else { continue }
            let speechMs = transcript.milliseconds(at: speech)
            let cancel = EntryMatcher.client(QwenClientEvent.responseCancel.rawValue).first(
                in: transcript, from: speech + 1
            ).map {
                transcript.milliseconds(at: $0)
            }
            let playback = transcript.adapterEvents.first {
                $0.name == "playback_ended" && Double($0.t) / 1000 >= speechMs
            }.map { Double($0.t) / 1000 }
            if let reacted = [cancel, playback].compactMap({ $0 }).min() {
                samples.append(
                    LatencySample(
                        metric: LatencyMetric.speechStartedToCancel, value: reacted - speechMs, evidence: [speech]))
            }
        }
        return samples
    }
}
