import AnswerAudio
import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// Qwen-TTS-Realtime (§8.12): `input_text_buffer.*` in, one response of audio per segment out.
/// Segments come from commits, from the mock's `server_commit` rule (``TextToSpeechState``) and
/// from `session.finish`; they are spoken one after another through the answer-audio cache and
/// the response timeline of the other dialects (``performSpeechStep(_:)``).
extension QwenRealtimeSession {
    /// The client events of a TTS session; events of the other dialects are refused by name.
    func dispatchSpeech(_ known: QwenClientEvent?, _ type: String, _ event: JSONObject) -> [SessionCommand] {
        switch known {
        case .sessionUpdate?:
            guard !speech.started else {
                let error = QwenError(
                    code: "invalid_value",
                    message: "Session update error: session already started or finished or failed.")
                return reject(error, "qrt.C7", "session.update after synthesis started")
            }
            return sessionUpdate(event)
        case .inputTextBufferAppend?: return appendText(event)
        case .inputTextBufferCommit?: return commitText()
        case .inputTextBufferClear?: return clearText()
        case .responseCancel?: return cancelSpeech()
        case .sessionFinish?: return finishSpeech()
        default:
            guard let known, QwenDialects.standard.defines(known) else {
                return rejectUnknown(type)
            }
            let error = QwenError(
                code: "unknown_event",
                message:
                    "\(type) is not part of the \(model) API: a text-to-speech model takes input_text_buffer events.",
                param: "type")
            return reject(error, "qrt.C17", "\(type) is not part of the text-to-speech model's API (\(model))")
        }
    }

    /// `input_text_buffer.append`: no reply; `server_commit` speaks each complete sentence.
    private func appendText(_ event: JSONObject) -> [SessionCommand] {
        guard let text = event["text"]?.stringValue else {
            return reject(.invalidValue("text", "input_text_buffer.append needs a string 'text'."), "qrt.C2")
        }
        speech.buffer += text
        speech.appendedSinceCommit = speech.appendedSinceCommit || !text.allSatisfy(\.isWhitespace)
        if !configuration.clientCommits { speech.segmentSentences() }
        return speakNextSegment()
    }

    /// `input_text_buffer.commit`: `committed`, then the buffer is spoken. In `server_commit`
    /// mode text the server already took counts as committed; a commit with nothing appended
    /// since the last one is refused.
    private func commitText() -> [SessionCommand] {
        guard speech.appendedSinceCommit else {
            let error = QwenError.invalidValue(
                "input_text_buffer", "Error committing input text buffer: the buffer is empty.")
            return reject(error, "qrt.C10")
        }
        speech.commitBuffer()
        return emit(.inputTextBufferCommitted, ["item_id": ""], delay: delay(before: .inputTextBufferCommitted))
            + speakNextSegment()
    }

    /// `input_text_buffer.clear`: the text not yet taken for synthesis is dropped.
    private func clearText() -> [SessionCommand] {
        speech.buffer = ""
        speech.appendedSinceCommit = false
        return emit(.inputTextBufferCleared, delay: delay(before: .inputTextBufferCleared))
    }

    /// `session.finish`: the rest of the buffer is spoken (in either mode, as the SDK says), then
    /// `session.finished` and a close with 1000 once the last response is done.
    private func finishSpeech() -> [SessionCommand] {
        lifecycle.finish()
        speech.finishing = true
        speech.commitBuffer()
        return enter(.finishing) + speakNextSegment()
    }

    /// `response.cancel`: the response ends `cancelled` and the segments queued behind it are dropped.
    private func cancelSpeech() -> [SessionCommand] {
        guard let active = response else {
            return reject(
                .invalidState(QwenClientEvent.responseCancel.rawValue, "No response is in progress."), "qrt.C12")
        }
        guard scenario.runtime.isInterruptible else {
            return [.journal(.info("response.cancel refused: the scenario makes answers not interruptible"))]
                + error(.notInterruptible)
        }
        var commands: [SessionCommand] = []
        if !active.createdSent {
            response?.createdSent = true
            commands += emit(.responseCreated, ["response": active.json(status: "in_progress", conversationID: "")])
        }
        commands += closeSpeechMessage(status: "incomplete")
        let closed = response ?? active
        let details: JSONValue = ["type": "cancelled", "reason": "client_cancelled"]
        commands += emit(
            .responseDone, ["response": closed.json(status: "cancelled", details: details, conversationID: "")])
        commands += endResponse()
        speech.speaking = nil
        speech.queue.removeAll()
        return commands + enter(.idle)
    }

    /// Starts the next queued segment when nothing is speaking; after `session.finish` with
    /// nothing left, ends the session.
    func speakNextSegment() -> [SessionCommand] {
        guard response == nil else { return [] }
        guard !speech.queue.isEmpty else {
            guard speech.finishing, !isClosed else { return [] }
            return emit(.sessionFinished, delay: delay(before: .sessionFinished))
                + closeConnection(code: 1000, reason: "session finished")
        }
        let text = speech.queue.removeFirst()
        speech.started = true
        speech.speaking = text
        responseCount += 1
        let audio = answerAudio.answer(speechKey(text))
        let pieces = scenario.runtime.textPieces(of: text)
        var commands: [SessionCommand] = []
        let plan: ResponsePlan
        if let rendered = audio.rendered {
            if let problem = rendered.problem { commands.append(.journal(.info(problem))) }
            plan = .message(text: pieces, audio: rendered)
        } else {
            plan = .awaitingAudio(audio)
        }
        var active = ActiveResponse(
            id: scenario.runtime.ids.id(prefix: "resp_"),
            startMicros: max(now + delay(before: .responseCreated), timeline.laneTime), group: responseCount,
            modalities: ["text", "audio"], voice: configuration.voice)
        // The text paces nothing on the wire (TTS sends no transcript): its first token is when the audio starts.
        if audio.rendered == nil { active.pendingText = pieces }
        commands += begin(active, plan: plan)
        return commands + enter(.responding)
    }

    /// The answer-audio key of a segment: the session's voice (it seeds the synthesized timbre),
    /// rate, format, volume and speech / pitch rates.
    private func speechKey(_ text: String) -> AnswerAudioKey {
        let encoding: AnswerAudioKey.Encoding
        switch configuration.speechFormat {
        case "wav": encoding = .wav
        case "mp3": encoding = .mp3
        case "opus": encoding = .oggOpus(frameMs: 20, bitRateKbps: configuration.speechBitRateKbps)
        default: encoding = .pcm
        }
        let voiceSeed = configuration.voice.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }
        let scenario = scenario.runtime.scenario
        return AnswerAudioKey(
            source: .synthesized(text: text, rate: 1), sampleRate: configuration.outputSampleRate,
            volume: configuration.speechVolume, speechRatePercent: configuration.speechRatePercent,
            pitchRatePercent: configuration.pitchRatePercent, seed: scenario.seed ^ voiceSeed, encoding: encoding,
            cadence: scenario.timing.audio)
    }
}
