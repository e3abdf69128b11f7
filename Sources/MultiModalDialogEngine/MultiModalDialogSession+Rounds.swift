package import AnswerAudio
import ProtocolModel
package import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension MultiModalDialogSession {
    /// Plans an answer round from `start` (S8), in this order: [error before] → partial
    /// RespondingContent on the text cadence (if `intermediate_text` ∋ dialog) →
    /// DialogStateChanged{Responding} → RespondingStarted → audio on the audio cadence →
    /// final RespondingContent (full text, `extra_info.commands` as a JSON string) →
    /// RespondingEnded → [error after]. Steps are tagged with the round so an interrupt drops
    /// them. Turn errors placed `insteadOfAnswer` replace the answer and return to Listening.
    func planRound(number: Int, content: RoundContent, from start: Int64) {
        guard let config else { return }
        var current = ActiveRound(number: number)
        rounds.startAnswer(thinksFirst: content.thinksFirst)
        let (text, spoken, audio, turn, errors) = content.parts
        var time = start
        for error in errors where error.placement == .beforeAnswer {
            add(error, at: lane(time), round: number)
            if error.fatal { return }
        }
        let instead = errors.filter { $0.placement == .insteadOfAnswer }
        if !instead.isEmpty {
            for error in instead {
                add(error, at: lane(time), round: number)
                if error.fatal { return }
            }
            rounds.track(current)
            timeline.add(.enter(.listening), at: lane(time), group: number)
            return
        }
        time = lane(time)
        let roundID = scenario.runtime.ids.id(prefix: "", hexDigits: 32)
        let llmRequestID = scenario.runtime.ids.id(prefix: "", hexDigits: 32)
        var latest = time
        var firstTextAt: Int64?
        if config.downlink.dialogPartials, content.thinksFirst {
            var soFar = ""
            for piece in scenario.runtime.textPieces(of: text) {
                soFar += piece.text
                let shown = config.downlink.incrementalResponse ? piece.text : soFar
                let at = time + piece.sendOffsetMicros
                firstTextAt = firstTextAt ?? at
                timeline.add(
                    .event(
                        MultiModalDialogEvent.respondingContent.rawValue,
                        [
                            "round_id": .string(roundID), "llm_request_id": .string(llmRequestID),
                            "text": .string(shown), "spoken": .string(shown), "finished": false,
                        ]), at: at, group: number)
                latest = max(latest, at)
            }
        }
        let respondingAt = time + scenario.runtime.delayMicros(before: MultiModalDialogEvent.respondingStarted.rawValue)
        timeline.add(.enter(.responding), at: respondingAt, group: number)
        timeline.add(.event(MultiModalDialogEvent.respondingStarted.rawValue, [:]), at: respondingAt, group: number)
        timeline.add(.milestone(.respondingStarted), at: respondingAt, group: number)
        latest = max(latest, respondingAt)
        var final: JSONObject = [
            "round_id": .string(roundID), "llm_request_id": .string(llmRequestID),
            "text": .string(text), "spoken": .string(spoken), "finished": true,
        ]
        var extraInfo = turn?.extraInfo ?? JSONObject()
        if let commands = turn?.commandsJSONString {
            extraInfo["commands"] = .string(commands)
            current.commandNames = Self.commandNames(turn?.commands)
        }
        if !extraInfo.isEmpty { final["extra_info"] = .object(extraInfo) }
        if case .video(_, let connect) = content { current.videoModeAfter = connect ? true : nil }
        if current.commandNames.contains("send_video_stream") { current.videoModeAfter = true }
        if current.commandNames.contains("stop_video_stream") { current.videoModeAfter = false }
        rounds.track(current)
        var tail = AnswerTail(final: final, errorsAfter: errors.filter { $0.placement == .afterAnswer }, latest: latest)
        if scenario.runtime.scenario.policies.roundTimestamps, extraInfo["timestamps"] == nil {
            tail.timestampsFrom = AnswerTail.RoundTimes(roundStart: start, firstText: firstTextAt ?? respondingAt)
        }
        let handle = options.answerAudio.answer(answerKey(audio, spoken: spoken, downlink: config.downlink))
        if let rendered = handle.rendered {
            planAnswerAudio(rendered, tail, respondingAt: respondingAt, round: number)
        } else {
            // Rendering on a worker: the round waits at RespondingStarted's time (S8 order kept).
            timeline.add(.answerAudio(handle, tail), at: respondingAt, group: number)
        }
    }

    /// Plans the answer's audio frames from `respondingAt` on the audio cadence (and the
    /// `transmit_rate_limit`), then the final RespondingContent, RespondingEnded and the errors
    /// after the answer.
    func planAnswerAudio(_ answer: RenderedAnswer, _ tail: AnswerTail, respondingAt: Int64, round number: Int) {
        guard let config else { return }
        if let problem = answer.problem {
            timeline.add(.error(.invalidParameter(problem)), at: respondingAt, group: number)
        }
        // Voice playback off (AIBuds `enableVoicePlayback`): the answer goes out as text only.
        let voiced = scenario.runtime.voicePlayback
        rounds.setAnswerAudio(durationMicros: voiced ? answer.durationMicros : 0, round: number)
        scenario.runtime.report.answers += 1
        if voiced { scenario.runtime.report.answerAudioMicros += answer.durationMicros }
        var latest = tail.latest
        var sentBytes = 0
        for frame in answer.frames where voiced {
            var offset = frame.sendOffsetMicros
            if let limit = config.downlink.transmitRateLimit {
                offset = max(offset, Int64(sentBytes) * 1_000_000 / Int64(limit))
            }
            sentBytes += frame.bytes.count
            timeline.add(.audio(frame.bytes, frame.level), at: respondingAt + offset, group: number)
            latest = max(latest, respondingAt + offset)
        }
        let endAt = lane(latest)
        var final = tail.final
        if let times = tail.timestampsFrom {
            // The mock's own names: the service documents the field ("timestamps for each node
            // in the link") but not its keys.
            func ms(_ time: Int64) -> JSONValue { .int(max(0, time - times.roundStart) / 1000) }
            var extraInfo = final["extra_info"]?.objectValue ?? JSONObject()
            extraInfo["timestamps"] = .object([
                "round_start_ms": 0, "first_text_ms": ms(times.firstText), "responding_started_ms": ms(respondingAt),
                "first_audio_ms": ms(respondingAt + (answer.frames.first?.sendOffsetMicros ?? 0)),
                "final_text_ms": ms(endAt),
            ])
            final["extra_info"] = .object(extraInfo)
        }
        timeline.add(.event(MultiModalDialogEvent.respondingContent.rawValue, final), at: endAt, group: number)
        timeline.add(.event(MultiModalDialogEvent.respondingEnded.rawValue, [:]), at: endAt, group: number)
        timeline.add(.milestone(.respondingEnded), at: endAt, group: number)
        for error in tail.errorsAfter {
            add(error, at: endAt, round: number)
        }
    }

    /// The cache key of an answer's audio in this session's downstream format. The voice seed is
    /// the scenario's, so the same answer sounds (and encodes) the same in every session and
    /// round and is rendered once.
    func answerKey(_ audio: TurnContent.Audio, spoken: String, downlink: DownlinkSettings) -> AnswerAudioKey {
        let source: AnswerAudioKey.Source
        switch audio {
        case .synthesized(let rate): source = .synthesized(text: downlink.textOnly ? "" : spoken, rate: rate)
        case .file(let path):
            source =
                downlink.textOnly
                ? .synthesized(text: "", rate: 1)
                : .file(path: path, folder: options.audioBaseDirectory ?? "", fallbackText: nil)
        case .none: source = .synthesized(text: "", rate: 1)
        }
        return Self.answerKey(
            source, downlink: downlink, seed: scenario.runtime.scenario.seed,
            cadence: scenario.runtime.scenario.timing.audio)
    }

    /// The cache key of `source` in a downstream format (also used to prefetch a scenario's answers).
    package static func answerKey(
        _ source: AnswerAudioKey.Source, downlink: DownlinkSettings, seed: UInt64,
        cadence: AudioCadence
    ) -> AnswerAudioKey {
        let encoding: AnswerAudioKey.Encoding
        switch downlink.format {
        case .pcm: encoding = .pcm
        case .mp3: encoding = .mp3
        case .opus: encoding = .oggOpus(frameMs: downlink.frameSizeMs, bitRateKbps: downlink.bitRateKbps)
        case .rawOpus: encoding = .rawOpus(frameMs: downlink.frameSizeMs, bitRateKbps: downlink.bitRateKbps)
        }
        return AnswerAudioKey(
            source: source, sampleRate: downlink.sampleRate, volume: downlink.volume,
            speechRatePercent: downlink.speechRate, pitchRatePercent: downlink.pitchRate, seed: seed,
            encoding: encoding, cadence: cadence)
    }

    /// A scripted error: `Error` event, or `task-failed` when fatal (ErrorSpec rendering).
    private func add(_ error: ErrorSpec, at time: Int64, round number: Int) {
        if error.fatal {
            timeline.add(.fatal(code: error.name ?? error.code, message: error.message), at: time, group: number)
        } else {
            timeline.add(.error(Self.dialogError(error)), at: time, group: number)
        }
    }

    /// The `Error` event of a non-fatal ErrorSpec (non-numeric codes become 500).
    static func dialogError(_ error: ErrorSpec) -> DialogErrorEvent {
        DialogErrorEvent(code: Int(error.code) ?? 500, name: error.name ?? error.code, message: error.message)
    }

    /// `name`s of a commands value (array of `{name, …}` or one object).
    static func commandNames(_ commands: JSONValue?) -> [String] {
        switch commands {
        case .array(let list)?: list.compactMap { $0["name"]?.stringValue }
        case .object(let object)?: [object["name"]?.stringValue].compactMap { $0 }
        default: []
        }
    }
}
