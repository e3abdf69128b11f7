import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension QwenRealtimeSession {
    /// `input_audio_buffer.append` (S6): no reply; decode, buffer, feed the VAD.
    func appendAudio(_ event: JSONObject) -> [SessionCommand] {
        guard var text = event["audio"]?.stringValue else {
            return reject(
                .invalidValue("audio", "\(wire.audioAppendEvent) needs a base64 'audio' string."),
                wire.audioFormatObligation)
        }
        return text.withUTF8 { appendAudio(base64: $0) }
    }

    /// The audio of an append, as base64 text (from the JSON tree or read in place).
    func appendAudio(base64: UnsafeBufferPointer<UInt8>) -> [SessionCommand] {
        if let refusal = dialect.refuseAudio(in: self) { return refusal }
        // Decoded into the session's reused chunk buffer: no allocation per chunk.
        guard Base64.decode(base64, into: &input.decodedChunk) else {
            return reject(.invalidValue("audio", "Invalid base64 audio data."), wire.audioFormatObligation)
        }
        var bytes = input.decodedChunk
        var commands: [SessionCommand] = []
        if !input.started {
            input.started = true
            input.firstAppendMicros = now
            input.sampleRate = configuration.inputSampleRate
            input.channels = configuration.inputChannels
            input.detector = makeDetector()
            commands += enter(.listening)
        }
        let container = AudioContainer.detect(bytes)
        if container == .wav, configuration.inputIsWAV, let header = WAVFile.streamHeader(bytes) {
            // Declared wav: the header is the container, the samples after it are the audio.
            if header.sampleRate != input.sampleRate || header.channels != input.channels,
                lifecycle.firstReport("C8-wav-layout")
            {
                commands += violation(
                    wire.audioFormatObligation,
                    "WAV header says \(header.sampleRate) Hz × \(header.channels) channel(s); "
                        + "audio.input.format declared \(input.sampleRate) Hz × \(input.channels)")
            }
            bytes = Array(bytes[header.dataOffset...])
        } else if let container, lifecycle.firstReport("C8-container") {
            // A file's bytes instead of samples (a WAV header, Ogg pages): heard as noise, journaled once.
            commands.append(
                .journal(
                    .must(
                        wire.audioFormatObligation,
                        "\(container == .ogg ? "an Ogg page" : "a RIFF/WAVE file header") in "
                            + "\(wire.audioAppendEvent), where \(configuration.inputAudioFormat) (raw s16le samples) was declared"
                    )))
        }
        guard bytes.count % input.frameBytes == 0 else {
            return commands
                + reject(
                    .invalidValue(
                        "audio",
                        "Audio must be whole s16le samples (\(bytes.count) bytes is not a multiple of \(input.frameBytes))."
                    ), wire.audioFormatObligation)
        }
        let duration = input.durationMicros(ofBytes: bytes.count)
        commands += handle(scenario.runtime.clientAudio(byteCount: bytes.count, durationMicros: duration))
        commands += checkAudioPacing(duration)
        if let mislabel = input.rate.add(
            ms: Double(now) / 1000, durationMs: Double(duration) / 1000, declaredRate: input.sampleRate)
        {
            commands += violation(wire.audioFormatObligation, mislabel.summary)
        }
        input.bufferedBytes += bytes.count
        input.bufferedMicros += duration
        receivedAudioLevel = bytes.withUnsafeBytes { AudioLevel(littleEndianPCM: $0) }
        // Push-to-talk has no VAD: the app appends audio only while the user holds the button,
        // so the audio itself is the user's input for the idle end [inferred].
        if scenario.runtime.scenario.policies.idleEndMs != nil, duration > 0, configuration.turnDetection == nil {
            commands += handle(scenario.runtime.userInput())
        }
        return commands + dialect.heard(input.feedDetector(bytes), in: self)
    }

    /// The realtime dialects' turns: each VAD boundary, then the transcription progress.
    func hearTurns(_ events: [VADEvent]) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        for event in events { commands += handleVAD(event) }
        return commands + transcriptionProgress()
    }

    /// C8: chunk length 20–200 ms and a sustained rate of at most 1.5× real time (SHOULD).
    private func checkAudioPacing(_ duration: Int64) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if duration < 20_000 || duration > 200_000 {
            commands += violationOnce(
                "C8-chunk", wire.audioFormatObligation, "audio chunk of \(duration / 1000) ms (20–200 ms expected)")
        }
        let audioMicros = Int64(input.totalSamples) * 1_000_000 / Int64(input.sampleRate) + duration
        let elapsed = now - input.firstAppendMicros
        if audioMicros >= 2_000_000, Double(audioMicros) > 1.5 * Double(elapsed) + 500_000 {
            commands += violationOnce(
                "C8-pace", wire.audioFormatObligation,
                "audio sent faster than 1.5× real time (\(audioMicros / 1000) ms in \(elapsed / 1000) ms)")
        }
        return commands
    }

    /// `input_audio_buffer.commit` (S9): push-to-talk commit; in a VAD mode the dialect's
    /// ``QwenDialect/commitInVADMode`` rule applies.
    func commitAudio() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if configuration.turnDetection != nil {
            switch dialect.commitInVADMode {
            case .refused:
                return reject(
                    .invalidValue(
                        QwenClientEvent.inputAudioBufferCommit.rawValue,
                        "input_audio_buffer.commit is only available without turn detection (turn_detection: null)."),
                    "qrt.C9")
            case .ignored:
                return violationOnce("C9-commit", "qrt.C9", "input_audio_buffer.commit sent in a VAD mode")
            case .honoured:
                commands += violationOnce("C9-commit", "qrt.C9", "input_audio_buffer.commit sent in a VAD mode")
            }
        }
        guard input.bufferedBytes > 0 else {
            return commands
                + reject(
                    .invalidValue(
                        "input_audio_buffer", "Error committing input audio buffer: the buffer is empty."), "qrt.C10")
        }
        if input.bufferedMicros < 100_000 {
            commands += violation(
                "qrt.C10", "committed only \(input.bufferedMicros / 1000) ms of audio (≥ 100 ms expected)")
        }
        let content = scenario.runtime.nextTurn()
        if dialect.answers { turns.waitForResponse(content) }
        let itemID = turns.speechEnded()?.itemID ?? scenario.runtime.ids.id(prefix: "item_")
        commands += commitUserAudio(
            itemID: itemID, content: content, delay: delay(before: .inputAudioBufferCommitted))
        return commands + enter(dialect.answers ? .committed : .listening)
    }

    /// `input_audio_buffer.clear` (S9): drop uncommitted audio; in a VAD mode the dialect's
    /// ``QwenDialect/clearInVADMode`` rule applies.
    func clearAudio() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if configuration.turnDetection != nil {
            switch dialect.clearInVADMode {
            case .refused:
                return reject(
                    .invalidValue(
                        QwenClientEvent.inputAudioBufferClear.rawValue,
                        "input_audio_buffer.clear is only available without turn detection (turn_detection: null)."),
                    "qrt.C9")
            case .ignored:
                return violationOnce("C9-clear", "qrt.C9", "input_audio_buffer.clear sent in a VAD mode")
            case .honoured:
                commands += violationOnce("C9-clear", "qrt.C9", "input_audio_buffer.clear sent in a VAD mode")
            }
        }
        input.clearBuffer()
        return commands + emit(.inputAudioBufferCleared, delay: delay(before: .inputAudioBufferCleared))
    }

    /// The user audio item: `committed`, `conversation.item.created`, then the input
    /// transcription result (`completed`, or `failed` when the turn scripts it).
    func commitUserAudio(itemID: String, content: TurnContent, delay: Int64 = 0) -> [SessionCommand] {
        scenario.runtime.report.turns += 1
        let previous = conversation.lastItemID
        let previousJSON = previous.map(JSONValue.string) ?? .null
        var item: JSONObject = [
            "id": .string(itemID), "object": "realtime.item", "type": "message", "status": "completed",
            "role": "user", "content": [["type": "input_audio", "transcript": .null]],
        ]
        conversation.insert(item, after: nil)
        turns.audioItemAdded(itemID, audioMicros: input.bufferedMicros)
        var commands: [SessionCommand] = []
        if input.bufferedImages > 0 {
            commands.append(.journal(.info("\(input.bufferedImages) image(s) committed with \(itemID)")))
        }
        input.clearBuffer()
        commands += emit(
            .inputAudioBufferCommitted, ["previous_item_id": previousJSON, "item_id": .string(itemID)], delay: delay
        )
        commands += emit(.conversationItemCreated, ["previous_item_id": previousJSON, "item": .object(item)])
        if let failure = content.errors.first(where: isTranscriptionError) {
            let error: JSONValue = [
                "type": .string(failure.type ?? "transcription_error"), "code": .string(failure.code),
                "message": .string(failure.message), "param": failure.param.map(JSONValue.string) ?? .null,
            ]
            return commands
                + emit(
                    .conversationItemInputAudioTranscriptionFailed,
                    ["item_id": .string(itemID), "content_index": 0, "error": error])
        }
        item["content"] = [["type": "input_audio", "transcript": .string(content.transcript)]]
        conversation.update(item)
        var completed: JSONObject = [
            "item_id": .string(itemID), "content_index": 0, "transcript": .string(content.transcript),
        ]
        if dialect.completionReportsRecognition { for (key, value) in recognition(content) { completed[key] = value } }
        return commands + emit(.conversationItemInputAudioTranscriptionCompleted, completed)
    }
}
