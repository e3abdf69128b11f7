import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension MultiModalDialogSession {
    /// A `downstream.voice` the scenario's TTS voices do not have (policy `voices`), as the
    /// problem to answer with `InvalidParameter`.
    func unknownVoice(_ downlink: DownlinkSettings) -> ParameterProblem? {
        let policies = scenario.runtime.scenario.policies
        guard let voice = downlink.voice, !policies.acceptsVoice(voice) else { return nil }
        let known = (policies.voices ?? []).prefix(8).joined(separator: ", ")
        return ParameterProblem(
            "mmd.C5",
            "payload.parameters.downstream.voice \"\(voice)\" is not a voice of the application's TTS model "
                + "(voices: \(known)\((policies.voices?.count ?? 0) > 8 ? ", …" : ""); scenario policy voices)")
    }

    /// Journal notes for the recognition settings the scripted recogniser honours or only records.
    func recognitionNotes(_ start: StartConfiguration) -> [SessionCommand] {
        var notes: [SessionCommand] = []
        if let vocabulary = start.vocabularyID {
            notes.append(.journal(.info("vocabulary_id \(vocabulary) accepted (the scenario scripts what is heard)")))
        }
        if !start.replaceWords.isEmpty {
            let pairs = start.replaceWords.map { "\($0.source)→\($0.target)" }.joined(separator: ", ")
            notes.append(.journal(.info("asr_post_processing.replace_words applied to transcripts: \(pairs)")))
        }
        return notes
    }

    /// The first text frame: a valid run-task/Start starts the dialog (S3), anything else
    /// fails the task (S4).
    func receiveStart(_ json: JSONValue?) -> [SessionCommand] {
        let start: StartConfiguration
        do throws(ParameterProblem) {
            start = try StartConfiguration.parse(try ClientFrame(json))
        } catch {
            if let taskID = DashScopeEnvelope.taskID(of: json) { frames.taskID = taskID }
            return failTask(code: "InvalidParameter", message: error.message, violation: error)
        }
        frames.taskID = start.taskID
        if let problem = unknownVoice(start.downlink) {
            return failTask(code: "InvalidParameter", message: problem.message, violation: problem)
        }
        var commands = start.warnings.map { SessionCommand.journal(.should($0.obligation, $0.message)) }
        commands += start.notes.map { SessionCommand.journal(.info($0)) }
        commands += recognitionNotes(start)
        if case .object(let attributes)? = json?["payload"]?["parameters"]?["dialog_attributes"] {
            commands.append(
                .journal(
                    .info(
                        "dialog_attributes \(attributes.keys.sorted().joined(separator: ", ")) accepted "
                            + "(the scenario decides the agent and its answers)")))
        }
        if let requested = start.dialogID {
            if requested.count != 36 {
                commands.append(
                    .journal(.must("mmd.C23", "Start.input.dialog_id \"\(requested)\" is not a 36-character id")))
            }
            if let record = memory.record(for: requested) {
                rounds.resume(atTurn: record.turnIndex)
                commands.append(
                    .journal(
                        .info(
                            "resuming dialog \(requested) at turn \(record.turnIndex) (\(record.exchangeCount) exchanges)"
                        )))
            } else if options.rejectsUnknownDialogID {
                return failTask(code: "InvalidParameter", message: "unknown dialog_id \(requested)", violation: nil)
            } else {
                memory.open(requested)
                commands.append(.journal(.info("unknown dialog_id \(requested): new context with that id")))
            }
            dialogID = requested
        } else {
            let fresh = scenario.runtime.ids.uuid()
            memory.open(fresh)
            dialogID = fresh
        }
        config = start
        lifecycle = .active
        applyPromptVariables(start.bizParams)
        var vad = options.vad
        if let silenceMs = scenario.runtime.endOfTurnSilenceMs { vad.silenceDurationMs = silenceMs }
        uplink = Uplink(format: start.uplinkFormat, sampleRate: start.uplinkSampleRate, detectorSettings: vad)
        guard scenario.runtime.scenario.replay == nil else {
            commands.append(.journal(.info("replay scenario: the engine sends only recorded frames")))
            return commands
        }
        var time = now
        if options.sendsTaskStarted {
            time += scenario.runtime.delayMicros(before: DashScopeEnvelope.Event.taskStarted.rawValue)
            timeline.add(.taskStarted, at: lane(time))
        }
        time += scenario.runtime.delayMicros(before: MultiModalDialogEvent.started.rawValue)
        timeline.add(.event(MultiModalDialogEvent.started.rawValue, [:]), at: lane(time))
        timeline.add(.enter(.listening), at: lane(time))
        return commands
    }

    /// Sets `${name}` variables from `biz_params.user_prompt_params` (strings as they are,
    /// other values as JSON text).
    func applyPromptVariables(_ bizParams: JSONObject) {
        guard let params = bizParams["user_prompt_params"]?.objectValue else { return }
        for (key, value) in params {
            scenario.runtime.variables[key] = value.stringValue ?? value.encodedString()
        }
    }

    /// S4/§9.13: `task-failed` now, then close.
    func failTask(code: String, message: String, violation: ParameterProblem?) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if let violation {
            commands.append(.journal(.must(violation.obligation, violation.message)))
        }
        timeline.removeAll()
        commands += send(frames.taskFailed(code: code, message: message, at: now))
        commands += teardown(journal: "task-failed \(code): \(message)")
        return commands
    }

    /// DOC-MMERR "421-InvalidParameter": the status error (``ServerFrameBuilder/statusError(_:dialogID:at:)``)
    /// now, then close.
    func failWithStatus(_ error: DialogErrorEvent, violation: ParameterProblem?) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if let violation {
            commands.append(.journal(.must(violation.obligation, violation.message)))
        }
        timeline.removeAll()
        commands += send(frames.statusError(error, dialogID: dialogID, at: now))
        commands += teardown(journal: "status \(error.code) \(error.name): \(error.message)")
        return commands
    }
}
