package import AnswerAudio
import ProtocolModel
package import ScenarioEngine
import SessionCore
import WireJSON

extension QwenRealtimeSession {
    /// Per-response overrides from `response.create.response`.
    struct ResponseOverrides {
        var modalities: [String]?
        var voice: String?
        var instructions: String?
    }

    /// `response.create` (S12, S15): one response at a time; push-to-talk needs new input.
    func createResponse(_ event: JSONObject) -> [SessionCommand] {
        if response != nil {
            return reject(.responseInProgress, "qrt.C11", "response.create while a response is in progress")
        }
        if turns.inSmartTurn {
            return reject(.responseInProgress, "qrt.C11", "response.create inside a smart_turn turn")
        }
        var overrides = ResponseOverrides()
        if let options = event["response"], !options.isNull {
            if let modalities = options["modalities"], !modalities.isNull {
                let list = modalities.arrayValue?.compactMap(\.stringValue) ?? []
                guard [["text"], ["audio", "text"], ["text", "audio"]].contains(list) else {
                    return error(
                        .invalidValue("response.modalities", "modalities must be [\"text\"] or [\"text\",\"audio\"]."))
                }
                overrides.modalities = list
            }
            overrides.voice = options["voice"]?.stringValue
            overrides.instructions = options["instructions"]?.stringValue
        }
        var commands: [SessionCommand] = []
        if tools.isAwaitingOutput {
            let ids = tools.abandonAwaited().joined(separator: ", ")
            commands += violation("qrt.C13", "response.create before function_call_output for \(ids)")
        }
        let content: TurnContent
        if let after = tools.takeAnswer() {
            content = after.reporting.map { reportingOutput(of: $0, before: after.answer) } ?? after.answer
        } else if let turn = turns.takeCommitted() {
            content = turn
        } else {
            if !conversation.items.contains(where: Conversation.isUserMessage) {
                // Push-to-talk owes a commit first (C10, MUST); in VAD modes no document says so.
                let level: Violation.Level = configuration.turnDetection == nil ? .must : .should
                return commands + [.journal(.violation("qrt.C10", level, "response.create before any user message"))]
                    + error(.noUserMessage)
            }
            if configuration.turnDetection == nil, !turns.hasNewInput {
                return commands
                    + reject(
                        .invalidState(
                            QwenClientEvent.responseCreate.rawValue,
                            "Nothing to respond to: commit audio or create an item first."),
                        "qrt.C10")
            }
            content = scenario.runtime.nextTurn()
        }
        return commands + startResponse(content, delay: delay(before: .responseCreated), overrides: overrides)
    }

    /// What the user said, for tool choice: the latest user message's text when it has some,
    /// else the turn's scripted transcript (what the mock "heard" in the audio).
    func heardText(_ content: TurnContent) -> String {
        let typed = conversation.items.last(where: Conversation.isUserMessage).map(Conversation.promptText) ?? ""
        return typed.contains(where: { $0.isLetter || $0.isNumber }) ? typed : content.transcript
    }

    /// The answer after a `callDeclaredTools` call: it reports the tool's output first (the
    /// first 200 characters), as a model answering from it would.
    func reportingOutput(of call: ToolCallLedger.Call, before answer: TurnContent) -> TurnContent {
        let output =
            conversation.items.last {
                $0["type"]?.stringValue == "function_call_output" && $0["call_id"]?.stringValue == call.callID
            }?["output"]?.stringValue ?? ""
        let said = output.count > 200 ? String(output.prefix(200)) + "…" : output
        var content = answer
        content.answer = "\(call.name) returned \(said). " + answer.answer
        content.spoken = "\(call.name) returned \(said). " + answer.spoken
        return content
    }

    /// `response.cancel` (S14).
    func cancelResponse() -> [SessionCommand] {
        guard response != nil else {
            return reject(
                .invalidState(QwenClientEvent.responseCancel.rawValue, "No response is in progress."), "qrt.C12")
        }
        guard scenario.runtime.isInterruptible else {
            return [.journal(.info("response.cancel refused: the scenario makes answers not interruptible"))]
                + error(.notInterruptible)
        }
        return cancel(reason: "client_cancelled")
    }

    /// Starts a response for `content` `delay` from now: scripted errors first, then the plan
    /// (function calls of declared tools, a failure, or the spoken / written answer).
    func startResponse(
        _ content: TurnContent, delay: Int64, overrides: ResponseOverrides = ResponseOverrides()
    ) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        let answerErrors = content.errors.filter { !isTranscriptionError($0) }
        for spec in answerErrors where spec.placement == .beforeAnswer {
            commands += scriptedError(spec)
            if isClosed { return commands }
        }
        responseCount += 1
        turns.responseStarted()
        // Voice playback off (AIBuds `enableVoicePlayback`, scenario `voicePlayback`): text only.
        let modalities = (overrides.modalities ?? configuration.modalities).filter {
            $0 != "audio" || scenario.runtime.voicePlayback
        }
        let failure = answerErrors.first { $0.placement == .insteadOfAnswer }
        let declaredTools = Set(configuration.toolNames)
        var calls = content.functionCalls.filter { declaredTools.contains($0.name) }
        if calls.count < content.functionCalls.count {
            commands.append(.journal(.info("scripted calls of undeclared tools skipped")))
        }
        var declaredCall = false
        if calls.isEmpty, content.functionCalls.isEmpty, failure == nil, !tools.madeDeclaredCall,
            !configuration.tools.isEmpty,
            scenario.runtime.scenario.policies.callDeclaredTools
        {
            let heard = heardText(content)
            if let tool = DeclaredToolCall.bestTool(for: heard, among: configuration.tools) {
                let (arguments, note) = DeclaredToolCall.arguments(for: tool, transcript: heard)
                if let note { commands.append(.journal(.info(note))) }
                calls = [TurnContent.FunctionCall(name: tool.name, arguments: arguments)]
                tools.declaredCallChosen()
                declaredCall = true
            }
        }
        let text = scenario.runtime.scenario.timing.text
        var pendingText: [TextCadence.Piece] = []
        let plan: ResponsePlan
        if failure != nil {
            plan = .failed(afterMicros: Int64(text.timeToFirstTokenMs * 1000))
        } else if !calls.isEmpty {
            plan = .calls(
                arguments: calls.map { String(decoding: $0.arguments.encoded(), as: UTF8.self) },
                firstMicros: Int64(text.timeToFirstTokenMs * 1000),
                intervalMicros: Int64(1_000_000 / text.tokensPerSecond))
        } else {
            let pieces = scenario.runtime.textPieces(of: content.answer)
            let audio = modalities.contains("audio") ? answerKey(content).map(answerAudio.answer) : nil
            if let audio, audio.rendered == nil {
                plan = .awaitingAudio(audio)
                pendingText = pieces
            } else {
                if let problem = audio?.rendered?.problem { commands.append(.journal(.info(problem))) }
                plan = .message(text: pieces, audio: audio?.rendered)
            }
        }
        var active = ActiveResponse(
            id: scenario.runtime.ids.id(prefix: "resp_"), startMicros: max(now + delay, timeline.laneTime),
            group: responseCount, modalities: modalities, voice: overrides.voice ?? configuration.voice)
        active.calls = calls.map {
            ActiveResponse.Call(
                callID: $0.callId ?? scenario.runtime.ids.id(prefix: "call_"), name: $0.name,
                arguments: String(decoding: $0.arguments.encoded(), as: UTF8.self),
                itemID: scenario.runtime.ids.id(prefix: "item_"))
        }
        active.pendingText = pendingText
        active.failure = failure
        active.errorsAfter = answerErrors.filter { $0.placement == .afterAnswer }
        (active.promptTextTokens, active.promptAudioTokens) = promptTokens(instructions: overrides.instructions)
        if !calls.isEmpty {
            var answer = content
            answer.functionCalls = []
            answer.errors = []
            let declared =
                declaredCall ? active.calls.first.map { ToolCallLedger.Call(callID: $0.callID, name: $0.name) } : nil
            tools.planned(answer: answer, declared: declared)
        }
        commands += begin(active, plan: plan)
        return commands + enter(.responding)
    }

    /// The cache key of an answer's audio at the output rate: synthesized from the spoken text,
    /// or a WAV fixture (the spoken text synthesized when it cannot be read); nil for none.
    private func answerKey(_ content: TurnContent) -> AnswerAudioKey? {
        let source: AnswerAudioKey.Source
        switch content.audio {
        case .none:
            return nil
        case .synthesized(let speed):
            source = .synthesized(text: content.spoken, rate: speed)
        case .file(let path):
            source = .file(path: path, folder: baseDirectory, fallbackText: content.spoken)
        }
        return Self.answerKey(source, sampleRate: configuration.outputSampleRate, scenario: scenario.runtime.scenario)
    }

    /// The cache key of `source` at `sampleRate` in `scenario` (also used to prefetch a
    /// scenario's answers). The voice seed is the scenario's: an answer sounds the same in every
    /// session and response, so it is rendered once.
    package static func answerKey(
        _ source: AnswerAudioKey.Source, sampleRate: Int, scenario: Scenario
    ) -> AnswerAudioKey {
        AnswerAudioKey(
            source: source, sampleRate: sampleRate, seed: scenario.seed, encoding: .pcm, cadence: scenario.timing.audio)
    }

    /// Prompt token estimates: instructions plus the history window of `max_history_turns`.
    private func promptTokens(instructions: String?) -> (text: Int, audio: Int) {
        var text = promptTokenMemo.tokens(of: instructions ?? configuration.instructions)
        var audio = 0
        for item in conversation.history(maxTurns: configuration.maxHistoryTurns) {
            text += promptTokenMemo.tokens(of: Conversation.promptText(of: item))
            if let id = item["id"]?.stringValue, let micros = turns.audioMicros(ofItem: id) {
                audio += Usage.inputAudioTokens(micros: micros)
            }
        }
        return (text, audio)
    }
}
